/** `spool capture`: the capture of `spool run`, from spool's own stdin. */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, symlinkSync } from "node:fs";
import * as path from "node:path";
import type { Receipt } from "@spool/core";
import { afterEach, describe, expect, it } from "vitest";
import { SPOOL_BIN, spool, spoolAsync, tempRoot } from "./helpers.js";

function capture(root: string, input: Buffer, extra: string[] = []) {
  const r = spawnSync(process.execPath, [SPOOL_BIN, "capture", "--root", root, ...extra], {
    input,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString() };
}

describe("spool capture", () => {
  it("captures stdin with the inline result; read returns it byte for byte", () => {
    const root = tempRoot();
    let text = "";
    for (let i = 0; i < 50000; i++) text += `line ${i} é\n`;
    const r = capture(root, Buffer.from(text), ["--label", "pod"]);
    expect(r.status).toBe(0);
    expect(r.stdout.toString()).toMatch(/\[spool\] source ended · status 0 · capture complete/);
    const id = /id (\S+)\n$/.exec(r.stdout.toString())?.[1] ?? "";
    expect(spool(["read", id, "--root", root]).stdout.toString()).toBe(text);
    expect(spool(["tail", id, "--root", root, "-n", "1"]).stdout.toString()).toBe("line 49999 é\n");
    expect(spool(["grep", id, "^line 4242 ", "--root", root]).stdout.toString()).toMatch(
      /^4243:\d+:line 4242 é\n$/,
    );
  });

  it("redacts like run, and a declared truncation is never complete", () => {
    const root = tempRoot();
    const r = capture(root, Buffer.from("token ghp_abcdefghijklmnopqrstuvwxyz0123456789\n"), [
      "--json",
      "--declared",
      "truncated",
    ]);
    const receipt = JSON.parse(r.stdout.toString());
    expect(receipt.preview.text).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz0123456789");
    expect(receipt.capture.state).not.toBe("complete");
    expect(r.status).toBe(1);
    expect(capture(root, Buffer.from(""), ["--", "x"]).status).toBe(64);
  });

  it("exits 1 when what it read could not be kept (storage unavailable), as its help says", () => {
    const root = tempRoot();
    const elsewhere = tempRoot();
    symlinkSync(elsewhere, path.join(root, "tool-outputs"));
    const r = capture(root, Buffer.from("x".repeat(100_000)), ["--json"]);
    const receipt = JSON.parse(r.stdout.toString()) as Receipt;
    expect(receipt.capture.state).toBe("unavailable");
    expect(r.status).toBe(1);
    // Kept in full: 0, as before.
    expect(capture(root, Buffer.from("small\n")).status).toBe(0);
  });
});

describe("spool capture --background-after", () => {
  /** Supervisors a test may leave running (found in job.json), killed after each test. */
  const supervisors: number[] = [];
  const feeds: ChildProcess[] = [];
  afterEach(() => {
    for (const c of feeds.splice(0)) c.kill("SIGKILL");
    for (const pid of supervisors.splice(0)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  });

  /**
   * `producer | spool capture --background-after 1`, the producer being a `cat` the test
   * feeds: the pipe stays open after the launcher exits, as in a shell (which goes on
   * waiting for the producer; the launcher's status comes on stderr).
   */
  async function promoted(root: string, first: Buffer) {
    const line = `cat | { "$0" "$1" capture --root "$2" --label feed --background-after 1; echo "launcher exited $?" >&2; }`;
    const sh = spawn("sh", ["-c", line, process.execPath, SPOOL_BIN, root], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    feeds.push(sh);
    sh.stdin.on("error", () => {});
    sh.stdin.write(first);
    let out = "";
    let err = "";
    sh.stdout.on("data", (c: Buffer) => {
      out += c.toString();
    });
    const status = await new Promise<number>((resolve, reject) => {
      sh.stderr.on("data", (c: Buffer) => {
        err += c.toString();
        const m = /launcher exited (\d+)/.exec(err);
        if (m) resolve(Number(m[1]));
      });
      sh.on("close", () => reject(new Error(`the launcher did not report: ${err}`)));
    });
    expect(status, err).toBe(0);
    const live = JSON.parse(out) as Receipt;
    const job = JSON.parse(
      readFileSync(path.join(root, "tool-outputs", live.captureId, "job.json"), "utf8"),
    ) as { mode: string; supervisorPid: number; pid: number | null };
    supervisors.push(job.supervisorPid);
    return { live, job, feed: sh.stdin };
  }

  /** Poll `spool grep` until `pattern` is in the capture (a reader's view of the live file). */
  async function committed(root: string, id: string, pattern: string) {
    for (let i = 0; i < 600; i++) {
      const g = await spoolAsync(["grep", id, pattern, "--root", root]);
      if (g.status === 0) return g.stdout.toString();
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${pattern} never reached capture ${id}`);
  }

  it("a capture of stdin still arriving becomes a job; status, wait, read, tail and grep work on it", async () => {
    const root = tempRoot();
    let a = "";
    for (let i = 0; i < 20000; i++) a += `early ${i} ü\n`;
    const { live, job, feed } = await promoted(root, Buffer.from(a));
    expect(live.source?.state).toBe("running");
    expect(live.streams.stdout.ref).toMatch(/stdout\.live$/);
    expect(job).toMatchObject({ mode: "capture", pid: null });
    const id = live.captureId;

    feed.write("marker 4242 ü\n");
    expect(await committed(root, id, "^marker 4242")).toBe(
      `20001:${Buffer.byteLength(a)}:marker 4242 ü\n`,
    );
    // The input is still open: every read command answers from the live files.
    const st = JSON.parse((await spoolAsync(["status", id, "--root", root])).stdout.toString());
    expect(st.source.state).toBe("running");
    expect((await spoolAsync(["tail", id, "--root", root, "-n", "1"])).stdout.toString()).toBe(
      "marker 4242 ü\n",
    );
    expect((await spoolAsync(["read", id, "--root", root])).stdout.toString()).toBe(
      `${a}marker 4242 ü\n`,
    );
    expect(
      (await spoolAsync(["read", id, "--root", root, "--lines", "2:3"])).stdout.toString(),
    ).toBe("early 1 ü\nearly 2 ü\n");
    expect((await spoolAsync(["wait", id, "--root", root, "--timeout", "1"])).status).toBe(75);

    let c = "";
    for (let i = 0; i < 5000; i++) c += `late ${i}\n`;
    feed.end(c);
    const done = await spoolAsync(["wait", id, "--root", root, "--timeout", "120"]);
    expect(done.status).toBe(0);
    const receipt = JSON.parse(done.stdout.toString()) as Receipt;
    const all = `${a}marker 4242 ü\n${c}`;
    expect(receipt.capture.state).toBe("complete");
    expect(receipt.source).toMatchObject({ state: "ended", declared: "complete", label: "feed" });
    expect(receipt.streams.stdout.sha256).toBe(createHash("sha256").update(all).digest("hex"));
    expect((await spoolAsync(["read", id, "--root", root])).stdout.toString()).toBe(all);
  }, 180_000);

  it("kill ends a promoted capture: partial, what arrived is kept", async () => {
    const root = tempRoot();
    const { live, feed } = await promoted(root, Buffer.from("kept line\n"));
    await committed(root, live.captureId, "^kept line");
    const k = await spoolAsync(["kill", live.captureId, "--root", root]);
    expect(k.status).toBe(0);
    const r = JSON.parse(
      (await spoolAsync(["status", live.captureId, "--root", root])).stdout.toString(),
    ) as Receipt;
    expect(r.capture.state).toBe("partial");
    expect((await spoolAsync(["read", live.captureId, "--root", root])).stdout.toString()).toBe(
      "kept line\n",
    );
    feed.destroy();
  }, 180_000);

  it("input that ends before S is an ordinary capture; bad values are usage errors", () => {
    const root = tempRoot();
    const r = capture(root, Buffer.from("quick\n"), ["--background-after", "60"]);
    expect(r.status).toBe(0);
    expect(r.stdout.toString()).toMatch(
      /^quick\n\[spool\] source ended · status 0 · capture complete/,
    );
    expect(capture(root, Buffer.from(""), ["--background-after", "0"]).status).toBe(64);
    expect(capture(root, Buffer.from(""), ["--background-after", "x"]).status).toBe(64);
  }, 60_000);
});
