/**
 * Storage faults on real file systems (issue #12 items 1, 2, 3, 7 and 9): small tmpfs
 * roots that fill up, read-only remounts, and a loop-mounted ext4 image with
 * `errors=remount-ro` whose error is triggered mid-run. Each test drives the built CLI
 * and checks that what `spool` says matches what is on disk. Skipped, with the reason,
 * where this process cannot mount (not root, or a container that forbids it).
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Receipt } from "@spool/core";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { GEN, pattern } from "./fixtures/pattern.js";
import { killGroups, SPOOL_BIN, waitGone } from "./helpers.js";
import {
  disposeAll,
  fillUp,
  type Mount,
  mountExt4,
  mountSkipReason,
  mountTmpfs,
} from "./mounts.js";

const skip = mountSkipReason();
if (skip) console.warn(`storage-mounts: skipped: ${skip}`);
const suite = skip ? describe.skip : describe;

afterAll(() => disposeAll());
const groups: number[] = [];
afterEach(() => killGroups(groups.splice(0)));

/** Run the CLI to completion with a hard time limit (a hang fails, never wedges the suite). */
function cli(args: string[], timeoutMs = 60_000) {
  const r = spawnSync(process.execPath, [SPOOL_BIN, ...args], {
    encoding: "utf8",
    timeout: timeoutMs,
    killSignal: "SIGKILL",
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const json = (text: string) => JSON.parse(text) as Receipt;

// Whole lines of the pattern (48 bytes each): nothing is held back by the redactor, so
// every byte is on disk before the child goes on.
const LINES_96K = 2000 * 48;
const LINES_192K = 4000 * 48;

/** A shell command that makes the ext4 mount fail (and so turn read-only). */
function failCmd(disk: { device(): string }): string {
  return `echo 1 > /sys/fs/ext4/${disk.device()}/trigger_fs_error`;
}

/**
 * A child that writes `bytes` of the test pattern, waits until spool has them on disk
 * (the `.live` file under `root` has grown to that size; for a `job`, also until its
 * launch is over), then does `then` (shell) and exits `code`: the fault lands between
 * the last byte and the receipt.
 */
function childThen(root: string, bytes: number, then: string, code: number, job = false): string[] {
  const script = `
    const fs = require("fs"), path = require("path"), { execSync } = require("child_process");
    const line = (i) => String(i).padStart(10, "0") + " abcdefghijklmnopqrstuvwxyz0123456789\\n";
    let out = ""; for (let i = 0; out.length < ${bytes}; i++) out += line(i);
    process.stdout.write(out.slice(0, ${bytes}), () => {
      const outputs = path.join(${JSON.stringify(root)}, "tool-outputs");
      const size = () => { try { return fs.readdirSync(outputs).map((id) => {
        try {
          // A job's launch is over once job.json exists: only then may the fault land.
          if (${job} && !fs.existsSync(path.join(outputs, id, "job.json"))) return 0;
          return fs.statSync(path.join(outputs, id, "stdout.live")).size;
        } catch { return 0; }
      }).reduce((a, b) => Math.max(a, b), 0); } catch { return 0; } };
      const t0 = Date.now();
      const tick = () => {
        if (size() < ${bytes} && Date.now() - t0 < 30000) return setTimeout(tick, 10);
        execSync(${JSON.stringify(then)}, { stdio: "ignore" });
        process.exit(${code});
      };
      tick();
    });`;
  return [process.execPath, "-e", script];
}

function captureDir(root: string, receipt: Receipt): string {
  return path.join(root, "tool-outputs", receipt.captureId);
}

suite("item 1: the final state is always recorded", () => {
  let m: Mount;
  afterEach(() => m?.dispose());

  it("disk full between the last byte and receipt.json: published from the reserve, --json = disk", () => {
    m = mountTmpfs("2m");
    const root = path.join(m.dir, "root");
    const fill = `dd if=/dev/zero of=${m.dir}/filler bs=4k 2>/dev/null; true`;
    const r = cli(["run", "--root", root, "--json", "--", ...childThen(root, LINES_192K, fill, 6)]);
    expect(r.status).toBe(6);
    const said = json(r.stdout);
    // The disk was full when the receipt was published: what is free now is about the
    // unused part of the receipt's reserve, given back after the publish.
    const free = fs.statfsSync(m.dir).bavail * fs.statfsSync(m.dir).bsize;
    expect(free).toBeLessThan(128 * 1024);
    const onDisk = json(fs.readFileSync(path.join(captureDir(root, said), "receipt.json"), "utf8"));
    expect(onDisk).toEqual(said);
    const { storageError, ...capture } = said.capture;
    expect(capture).toEqual({ state: "complete", reasons: [] });
    // The writer appends the line index (`stdout.idx`) after the last byte is in
    // stdout.live: when the fill lands between the two, the receipt says so, and only so.
    if (storageError !== undefined)
      expect(storageError).toMatchObject({
        errno: "ENOSPC",
        path: expect.stringMatching(/\/stdout\.idx$/),
      });
    expect(said.process?.exitCode).toBe(6);
    expect(fs.existsSync(path.join(captureDir(root, said), ".receipt.reserve"))).toBe(false);
  });

  it("root read-only (ext4 error) before the publish: run says partial (storage-unavailable), and so does the disk", () => {
    const disk = mountExt4(16);
    m = disk;
    const root = path.join(m.dir, "root");
    const r = cli([
      "run",
      "--root",
      root,
      "--json",
      "--",
      ...childThen(root, LINES_192K, failCmd(disk), 5),
    ]);
    expect(r.status).toBe(5);
    const said = json(r.stdout);
    expect(said.capture.state).toBe("partial");
    expect(said.capture.reasons).toContain("storage-unavailable");
    expect(fs.existsSync(path.join(captureDir(root, said), "receipt.json"))).toBe(false);
    // What failed, in the receipt `run` printed: a system error on a file of the capture.
    expect(said.capture.storageError?.errno).toMatch(/^E[A-Z]+$/);
    expect(said.capture.storageError?.path).toContain(captureDir(root, said));
    // The inline form says the same (the disk keeps the errno only, in the exit record).
    const status = cli(["status", said.captureId, "--root", root]);
    expect(status.status).toBe(0);
    const seen = json(status.stdout);
    expect({ state: seen.capture.state, reasons: seen.capture.reasons }).toEqual({
      state: said.capture.state,
      reasons: said.capture.reasons,
    });
    expect(seen.process?.exitCode).toBe(5);
    const waited = cli(["wait", said.captureId, "--root", root]);
    expect(waited.status).toBe(5);
    expect(waited.stderr).toMatch(/could not be stored/);
  });
});

/** `spool start` and the launch receipt. */
function start(root: string, command: string[], extra: string[] = []): Receipt {
  const r = cli(["start", "--root", root, ...extra, "--", ...command]);
  expect(r.status, r.stderr).toBe(0);
  const launched = json(r.stdout);
  if (launched.process?.pid) groups.push(launched.process.pid);
  return launched;
}

suite("item 2: the job's exit status survives", () => {
  let m: Mount;
  afterEach(() => m?.dispose());

  it("background job on a root that fills: wait exits 3", () => {
    m = mountTmpfs("2m");
    const root = path.join(m.dir, "root");
    const fill = `dd if=/dev/zero of=${m.dir}/filler bs=4k 2>/dev/null; true`;
    const job = start(root, childThen(root, LINES_96K, fill, 3, true));
    const w = cli(["wait", job.captureId, "--root", root]);
    expect(w.status, w.stderr).toBe(3);
    expect(json(w.stdout).process?.exitCode).toBe(3);
  });

  it("background job on a root that turns read-only (ext4 error): wait exits 5 (exit record outside the root)", () => {
    const disk = mountExt4(16);
    m = disk;
    const root = path.join(m.dir, "root");
    const job = start(root, childThen(root, LINES_96K, failCmd(disk), 5, true));
    const w = cli(["wait", job.captureId, "--root", root]);
    expect(w.status, w.stderr).toBe(5);
    const final = json(w.stdout);
    expect(final.capture.state).toBe("partial");
    expect(final.process?.exitCode).toBe(5);
  });

  it("kill -9 of the supervisor during drain after the child exited 5: wait exits 5", async () => {
    m = mountTmpfs("8m");
    const root = path.join(m.dir, "root");
    // The child exits 5 at once; a grandchild keeps the pipe open, so the supervisor drains.
    const job = start(
      root,
      ["sh", "-c", "echo out; (sleep 60 &); exit 5"],
      ["--drain-ms", "60000"],
    );
    const dir = captureDir(root, job);
    const recorded = () => {
      try {
        return JSON.parse(fs.readFileSync(path.join(dir, "exit.json"), "utf8")).process.exitCode;
      } catch {
        return null;
      }
    };
    const t0 = Date.now();
    while (recorded() !== 5 && Date.now() - t0 < 30_000) await sleep(20);
    expect(recorded()).toBe(5);
    const { supervisorPid } = JSON.parse(fs.readFileSync(path.join(dir, "job.json"), "utf8"));
    process.kill(supervisorPid, "SIGKILL");
    await waitGone(supervisorPid);
    const w = cli(["wait", job.captureId, "--root", root]);
    expect(w.status, w.stderr).toBe(5);
    expect(json(w.stdout).capture.reasons).toContain("crash");
  });
});

suite("item 3: locks and listing on a full or read-only root", () => {
  let m: Mount;
  afterEach(() => m?.dispose());

  /** A root holding one finished and one crashed capture. */
  function rootWithCaptures(dir: string) {
    const root = path.join(dir, "root");
    const done = cli(["run", "--root", root, "--json", "--", process.execPath, GEN, "100000"]);
    expect(done.status).toBe(0);
    const job = start(root, ["sleep", "60"]);
    const { supervisorPid } = JSON.parse(
      fs.readFileSync(path.join(captureDir(root, job), "job.json"), "utf8"),
    );
    process.kill(supervisorPid, "SIGKILL");
    return { root, ids: [json(done.stdout).captureId, job.captureId], supervisorPid };
  }

  for (const lock of ["empty", "dead owner"] as const) {
    it(`read-only root with a stale ${lock} .spool-quota/lock: ls and recover end quickly, naming root and cause`, async () => {
      m = mountTmpfs("8m");
      const { root, ids, supervisorPid } = rootWithCaptures(m.dir);
      await waitGone(supervisorPid);
      const file = path.join(root, ".spool-quota", "lock");
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      fs.writeFileSync(
        file,
        lock === "empty" ? "" : JSON.stringify({ pid: 2 ** 22 - 3, start: "1" }),
      );
      fs.utimesSync(file, new Date(Date.now() - 600_000), new Date(Date.now() - 600_000));
      m.readOnly();
      const ls = cli(["ls", "--root", root], 30_000);
      expect(ls.status, ls.stderr).toBe(0);
      for (const id of ids) expect(ls.stdout).toContain(id);
      expect(ls.stdout).toMatch(/partial \(crash\)/);
      expect(ls.stderr).toContain(root);
      expect(ls.stderr).toMatch(/EROFS/);
      const rec = cli(["recover", "--root", root], 30_000);
      expect(rec.status).toBe(70);
      expect(rec.stderr).toMatch(/lock .* (is stale and cannot be broken|cannot take)/);
      expect(rec.stderr).toMatch(/EROFS/);
      // Bounded: a spin or a wait for nothing would have hit cli()'s 30 s limit (status null).
    });
  }

  it("lock write hitting ENOSPC leaves no empty lock; ls on the full root lists what it can read", async () => {
    m = mountTmpfs("4m");
    const { root, ids, supervisorPid } = rootWithCaptures(m.dir);
    await waitGone(supervisorPid);
    fillUp(m.dir);
    const rec = cli(["recover", "--root", root], 30_000);
    expect(rec.stderr).toMatch(/ENOSPC/);
    expect(fs.existsSync(path.join(root, ".spool-quota", "lock"))).toBe(false);
    const ls = cli(["ls", "--root", root], 30_000);
    expect(ls.status, ls.stderr).toBe(0);
    for (const id of ids) expect(ls.stdout).toContain(id);
  });
});

suite("item 7: committed never exceeds what is durable", () => {
  it("ext4 error (errors=remount-ro) mid-run: the receipt claims only synced bytes, all of them on disk after remount", async () => {
    const disk = mountExt4(64);
    try {
      const root = path.join(disk.dir, "root");
      const total = 32 * 1024 * 1024;
      // 32 MiB over ~3 s. The disk fails once 17 MiB are in the file: past the writer's
      // 16 MiB sync cadence, so some bytes are durable however the 1 s timer fell (at
      // 10 MiB, a run where the timer had not fired yet claimed 0 bytes, truly).
      const child = spawn(
        process.execPath,
        [SPOOL_BIN, "run", "--root", root, "--json", "--", process.execPath, "-e", slowGen(total)],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
      const out: Buffer[] = [];
      child.stdout.on("data", (c: Buffer) => out.push(c));
      const live = () => liveSize(root);
      const t0 = Date.now();
      while (live() < 17 * 1024 * 1024 && Date.now() - t0 < 60_000) await sleep(20);
      disk.fail();
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect(code).toBe(0);
      const said = json(Buffer.concat(out).toString());
      expect(said.capture.state).toBe("partial");
      expect(said.capture.reasons).toContain("write-error");
      const claimed = said.streams.stdout.committed;
      disk.remount();
      const file = path.join(root, "tool-outputs", said.captureId, "stdout.live");
      const kept = fs.readFileSync(file);
      expect(claimed).toBeGreaterThan(0);
      expect(kept.byteLength).toBeGreaterThanOrEqual(claimed);
      expect(kept.subarray(0, claimed).equals(pattern(claimed))).toBe(true);
      console.log(
        `item 7: claimed ${claimed} B, ${kept.byteLength} B on disk after remount, of ${total}`,
      );
    } finally {
      disk.dispose();
    }
  });
});

suite("item 9: owner.json cannot be written", () => {
  let m: Mount;
  afterEach(() => m?.dispose());

  it("ENOSPC creating owner.json: run says unavailable, no directory is left, ls and status agree", () => {
    m = mountTmpfs("1m");
    const root = path.join(m.dir, "root");
    fs.mkdirSync(path.join(root, "tool-outputs"), { recursive: true, mode: 0o700 });
    fillUp(m.dir);
    const r = cli(["run", "--root", root, "--json", "--", process.execPath, GEN, "200000"]);
    const said = json(r.stdout);
    expect(said.capture.state).toBe("unavailable");
    expect(fs.readdirSync(path.join(root, "tool-outputs"))).toEqual([]);
    const status = cli(["status", said.captureId, "--root", root]);
    expect(status.status).not.toBe(0);
    expect(status.stderr).not.toMatch(/running|pending/);
    expect(cli(["ls", "--root", root]).stdout).not.toContain(said.captureId);
  });

  it("an unreadable owner.json is not 'being set up' for long: partial (crash) after a short grace", () => {
    m = mountTmpfs("1m");
    const root = path.join(m.dir, "root");
    const id = "AAAAAAAAAAAAAAAAAAAAAAAA";
    const dir = path.join(root, "tool-outputs", id);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // A torn owner.json (its writer died mid-write, or the disk filled): unreadable as JSON.
    fs.writeFileSync(path.join(dir, "owner.json"), '{"pid": 12', { mode: 0o600 });
    const old = new Date(Date.now() - 10_000);
    fs.utimesSync(dir, old, old);
    const status = json(cli(["status", id, "--root", root]).stdout);
    expect(status.capture.state).toBe("partial");
    expect(status.capture.reasons).toContain("crash");
    // Something other than a regular file there is planted, not torn: refused, one line.
    fs.rmSync(path.join(dir, "owner.json"));
    fs.mkdirSync(path.join(dir, "owner.json"), { mode: 0o700 });
    const planted = cli(["status", id, "--root", root]);
    expect(planted.status).toBe(70);
    expect(planted.stderr).toMatch(/owner\.json is a directory, not a regular file/);
  });
});

suite("issue 29: lines after a disk-full cut", () => {
  let m: Mount;
  afterEach(() => m?.dispose());

  it("the receipt's lines are those of the bytes on disk, not of the bytes produced", () => {
    m = mountTmpfs("2m");
    const root = path.join(m.dir, "root");
    const script = 'let s="";for(let i=0;i<600000;i++)s+=i+"\\n";process.stdout.write(s)';
    const r = cli(["run", "--root", root, "--json", "--", process.execPath, "-e", script]);
    const said = json(r.stdout);
    const out = said.streams.stdout;
    expect(said.capture.reasons).toContain("no-space");
    expect(out.committed).toBeLessThan(out.produced);
    const kept = fs.readFileSync(out.path!);
    expect(kept.byteLength).toBe(out.committed);
    let newlines = 0;
    for (let at = kept.indexOf(10); at !== -1; at = kept.indexOf(10, at + 1)) newlines++;
    const partial = kept.byteLength > 0 && kept[kept.byteLength - 1] !== 10 ? 1 : 0;
    // Before: 600000, every line produced, though most never reached the disk.
    expect(out.lines).toBe(newlines + partial);
    expect(out.endsWithNewline).toBe(partial === 0);
  });
});

suite("issue 29: spool start on a full root", () => {
  let m: Mount;
  afterEach(() => m?.dispose());

  it("storage is made ready before the command: on a full disk it is not run, start exits 70 saying so", () => {
    m = mountTmpfs("1m");
    const root = path.join(m.dir, "root");
    fs.mkdirSync(path.join(root, "tool-outputs"), { recursive: true, mode: 0o700 });
    fillUp(m.dir);
    const marker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "spool-ran-")), "ran");
    const command = [
      process.execPath,
      "-e",
      `require("fs").writeFileSync(${JSON.stringify(marker)}, "x")`,
    ];
    // Before: the command ran, and start said "the job supervisor ended before reporting"
    // (exit 70) with no capture left, so a retry ran it twice. That supervisor exited only
    // after its child had, so the marker below would already be there.
    const r = cli(["start", "--root", root, "--", ...command]);
    expect(r.status).toBe(70);
    expect(r.stderr).toMatch(
      /^spool start: start: cannot store the job's output in .*ENOSPC.*; the command was not run\n$/,
    );
    expect(r.stdout).toBe("");
    expect(fs.existsSync(marker)).toBe(false);
    expect(fs.readdirSync(path.join(root, "tool-outputs"))).toEqual([]);
    // With room again the same start runs it once.
    fs.rmSync(path.join(m.dir, "filler"));
    const job = start(root, command);
    const w = cli(["wait", job.captureId, "--root", root]);
    expect(w.status, w.stderr).toBe(0);
    expect(fs.readFileSync(marker, "utf8")).toBe("x");
  });
});

function slowGen(total: number): string {
  return `
    const line = (i) => String(i).padStart(10, "0") + " abcdefghijklmnopqrstuvwxyz0123456789\\n";
    let s = ""; for (let i = 0; s.length < ${total}; i++) s += line(i);
    const data = Buffer.from(s.slice(0, ${total}), "latin1");
    let at = 0;
    const step = () => {
      if (at >= data.length) return;
      const end = Math.min(data.length, at + 256 * 1024);
      const chunk = data.subarray(at, end); at = end;
      if (process.stdout.write(chunk)) setTimeout(step, 25); else process.stdout.once("drain", () => setTimeout(step, 25));
    };
    step();`;
}

function liveSize(root: string): number {
  const outputs = path.join(root, "tool-outputs");
  try {
    return Math.max(
      0,
      ...fs.readdirSync(outputs).map((id) => {
        try {
          return fs.statSync(path.join(outputs, id, "stdout.live")).size;
        } catch {
          return 0;
        }
      }),
    );
  } catch {
    return 0;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
