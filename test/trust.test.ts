/**
 * Process and file trust through the built binary (issues #11 items 5, 8, 9 and #12 items
 * 4, 5, 6, 8): the job's spec never on a command line, `--log` private, roots and files
 * trusted only when nobody else can write them, FIFOs and hard links planted in a capture
 * directory refused without blocking, and process groups signalled only when they are the
 * ones spool started (leader pid and start time), until they are empty.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Receipt } from "@spool/core";
import { readProcStat } from "@spool/core/process-group";
import { afterEach, describe, expect, it } from "vitest";
import { killGroups, nodeCmd, SPOOL_BIN, tempRoot } from "./helpers.js";

/** A run of the built binary that can never hang the suite: 60 s, then SIGKILL. */
function spoolBounded(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [SPOOL_BIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 60_000,
    killSignal: "SIGKILL",
  });
  return {
    status: r.status,
    signal: r.signal,
    stdout: r.stdout.toString(),
    stderr: r.stderr.toString(),
  };
}

const pgids: number[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  killGroups(pgids.splice(0));
  for (const c of children.splice(0)) c.kill("SIGKILL");
});

/** Dead means gone, or a zombie nobody reaped (it runs nothing). */
const dead = (pid: number) => {
  const stat = readProcStat(pid);
  return stat === null || stat.state === "Z";
};

async function until(check: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not reached in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

function start(root: string, command: string[], extra: string[] = []) {
  const r = spoolBounded(["start", "--root", root, ...extra, "--", ...command]);
  expect(r.status, r.stderr).toBe(0);
  const receipt = JSON.parse(r.stdout) as Receipt;
  if (receipt.process?.pid) pgids.push(receipt.process.pid);
  return receipt;
}

const dirOf = (root: string, id: string) => path.join(root, "tool-outputs", id);
const jobOf = (root: string, id: string) =>
  JSON.parse(fs.readFileSync(path.join(dirOf(root, id), "job.json"), "utf8")) as {
    supervisorPid: number;
  };
const oneLine = (text: string) => text.trimEnd().split("\n").length === 1;

describe("the job reaches its supervisor over IPC, never on a command line (#11 item 8)", () => {
  it("/proc/<supervisor>/cmdline shows neither the command, the label nor the secret", () => {
    const root = tempRoot();
    const token = "abcdefghijklmnopqrstuvwxyz0123456789";
    const receipt = start(
      root,
      ["sh", "-c", "sleep 30 # mysql -phunter2"],
      ["--label", `curl -H 'Authorization: Bearer ${token}'`],
    );
    const { supervisorPid } = jobOf(root, receipt.captureId);
    const cmdline = fs.readFileSync(`/proc/${supervisorPid}/cmdline`, "utf8").split("\0");
    expect(cmdline.slice(-3, -1)).toEqual(["start", receipt.captureId]);
    const whole = cmdline.join(" ");
    for (const secret of ["sleep", "hunter2", token, "Authorization", "--label"]) {
      expect(whole).not.toContain(secret);
    }
    // The credential ends at its closing quote: the quote stays.
    expect(receipt.label).toBe("curl -H 'Authorization: Bearer [REDACTED:authorization-header]'");
    expect(spoolBounded(["kill", "--root", root, receipt.captureId]).status).toBe(0);
  });

  it("labels lose the values of secret-bearing flags", () => {
    const root = tempRoot();
    const r = spoolBounded([
      "run",
      "--root",
      root,
      "--json",
      "--",
      "echo",
      "mysql",
      "-phunter2",
      "--password",
      "x",
      "--token",
      "t",
      "-u",
      "bob:pw",
      "&&",
      "sshpass",
      "-p",
      "hunter3",
    ]);
    // `-u bob:pw` is caught twice: the flag rule, then the basic-auth rule over its marker.
    const label = (JSON.parse(r.stdout) as Receipt).label!;
    for (const secret of ["hunter2", "hunter3", " x ", " t ", "pw"]) {
      expect(label).not.toContain(secret);
    }
    expect(label).toBe(
      "echo mysql -p[REDACTED:command-flag] --password [REDACTED:command-flag] --token [REDACTED:command-flag] -u bob:[REDACTED:command-flag] && sshpass -p [REDACTED:command-flag]",
    );
  });
});

describe("--log FILE is private (#11 item 9)", () => {
  const logRun = (log: string) =>
    spoolBounded(["run", "--root", path.join(tempRoot(), "root"), "--log", log, "--", "true"]);

  it("never follows a planted link, never appends to a file others can read", () => {
    const dir = tempRoot();
    const target = path.join(dir, "target");
    fs.writeFileSync(target, "before\n", { mode: 0o600 });
    fs.symlinkSync(target, path.join(dir, "link.log"));
    const linked = logRun(path.join(dir, "link.log"));
    expect(linked.status).toBe(64);
    expect(linked.stderr).toMatch(
      /^spool run: cannot write the log .*link\.log \(it is a symbolic link\)$/m,
    );
    expect(fs.readFileSync(target, "utf8")).toBe("before\n");

    const open = path.join(dir, "open.log");
    fs.writeFileSync(open, "");
    fs.chmodSync(open, 0o644);
    const opened = logRun(open);
    expect(opened.status).toBe(64);
    expect(opened.stderr).toMatch(/open to group or others \(mode 644; chmod 600 it\)\)$/m);
    expect(fs.statSync(open).size).toBe(0);
    expect(fs.statSync(open).mode & 0o777).toBe(0o644);

    fs.linkSync(target, path.join(dir, "hard.log"));
    expect(logRun(path.join(dir, "hard.log")).stderr).toMatch(/it has 2 links/);
  });

  it("creates a new log 0600 whatever the umask, and appends to a private one", () => {
    const dir = tempRoot();
    const log = path.join(dir, "spool.log");
    const r = spawnSync("sh", [
      "-c",
      `umask 000 && exec "$@"`,
      "sh",
      process.execPath,
      SPOOL_BIN,
      "run",
      "--root",
      path.join(dir, "root"),
      "--log",
      log,
      "--",
      "true",
    ]);
    expect(r.status).toBe(0);
    expect(fs.statSync(log).mode & 0o777).toBe(0o600);
    const first = fs.readFileSync(log, "utf8").split("\n").length;
    expect(logRun(log).status).toBe(0);
    expect(fs.readFileSync(log, "utf8").split("\n").length).toBeGreaterThan(first);
  });
});

describe("a root is trusted only if nobody else can write it (#11 item 5)", () => {
  it("a shared (0777) root, or a link to one, is refused by every reader in one line", () => {
    const base = tempRoot();
    const root = path.join(base, "shared");
    const done = spoolBounded([
      "run",
      "--root",
      root,
      "--",
      ...nodeCmd("console.log('x'.repeat(20000))"),
    ]);
    expect(done.status).toBe(0);
    const [id] = fs.readdirSync(path.join(root, "tool-outputs"));
    fs.chmodSync(root, 0o777); // another user may now plant receipts here
    fs.symlinkSync(root, path.join(base, "link"));
    for (const given of [root, path.join(base, "link")]) {
      for (const args of [["status", id!], ["read", id!], ["wait", id!], ["ls"], ["kill", id!]]) {
        const [command, ...rest] = args;
        const r = spoolBounded([command!, "--root", given, ...rest]);
        expect(r.status, args.join(" ")).toBe(70);
        expect(r.stdout).toBe("");
        expect(oneLine(r.stderr)).toBe(true);
        expect(r.stderr).toContain(
          `refusing the root ${given}: ${root} is writable by others (mode 777)`,
        );
      }
    }
    // A group-writable directory above it, without the sticky bit, is as bad.
    fs.chmodSync(root, 0o700);
    fs.chmodSync(base, 0o770);
    expect(spoolBounded(["ls", "--root", root]).stderr).toMatch(
      /is writable by its group \(mode 770\)/,
    );
    fs.chmodSync(base, 0o1777); // sticky, like /tmp: others cannot replace our entries
    expect(spoolBounded(["ls", "--root", root]).status).toBe(0);
  });

  it("a root refused for a shared directory above it is not created (nor its parents)", () => {
    const base = tempRoot();
    const shared = path.join(base, "shared");
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o777);
    for (const command of ["run", "start"]) {
      const r = spoolBounded([command, "--root", path.join(shared, "a", "root"), "--", "true"]);
      expect(r.status, command).toBe(70);
      expect(r.stderr).toContain(`${shared} is writable by others (mode 777)`);
      // Before: refused, but shared/a/root was left behind, made.
      expect(fs.readdirSync(shared), command).toEqual([]);
    }
    // Under a sticky shared directory (like /tmp) the root is made, private.
    fs.chmodSync(shared, 0o1777);
    const r = spoolBounded(["run", "--root", path.join(shared, "a", "root"), "--", "true"]);
    expect(r.status, r.stderr).toBe(0);
    expect(fs.statSync(path.join(shared, "a")).mode & 0o777).toBe(0o700);
  });
});

describe("files spool reads are regular, ours, with one link (#12 item 8)", () => {
  function finishedJob(root: string) {
    const receipt = start(root, nodeCmd("console.log('x'.repeat(20000))"));
    expect(spoolBounded(["wait", "--root", root, receipt.captureId]).status).toBe(0);
    return { id: receipt.captureId, dir: dirOf(root, receipt.captureId) };
  }
  const mkfifo = (file: string) => {
    fs.rmSync(file, { force: true });
    expect(spawnSync("mkfifo", ["-m", "600", file]).status).toBe(0);
  };

  it("a FIFO planted as receipt.json, live.json or stdout.txt blocks nothing: a clear error instead", () => {
    const root = tempRoot();
    const { id, dir } = finishedJob(root);
    mkfifo(path.join(dir, "stdout.txt"));
    const read = spoolBounded(["read", "--root", root, id]);
    expect(read.signal).toBeNull();
    expect(read.stderr).toMatch(/stdout\.txt is a FIFO, not a regular file; refusing it$/m);
    for (const args of [
      ["tail", id],
      ["grep", id, "x"],
    ]) {
      const r = spoolBounded([args[0]!, "--root", root, ...args.slice(1)]);
      expect([r.signal, r.status], args.join(" ")).toEqual([null, 70]);
    }

    mkfifo(path.join(dir, "receipt.json"));
    for (const args of [["status", id], ["wait", id], ["read", id], ["ls"], ["recover"]]) {
      const r = spoolBounded([args[0]!, "--root", root, ...args.slice(1)]);
      expect(r.signal, args.join(" ")).toBeNull();
      // ls lists what it can and names the capture it cannot read; the others fail.
      if (args[0] !== "ls") expect(r.status, args.join(" ")).toBe(70);
      expect(r.stderr, args.join(" ")).toContain("receipt.json is a FIFO, not a regular file");
    }
    fs.rmSync(path.join(dir, "receipt.json"));
    mkfifo(path.join(dir, "live.json"));
    const status = spoolBounded(["status", "--root", root, id]);
    expect([status.signal, status.status]).toEqual([null, 70]);
    expect(status.stderr).toContain("live.json is a FIFO");
  });

  it("a hard link to a file elsewhere planted as stdout.txt is refused by read", () => {
    const root = tempRoot();
    const { id, dir } = finishedJob(root);
    const secret = path.join(tempRoot(), "id_secret");
    fs.writeFileSync(secret, "PRIVATE KEY MATERIAL\n".repeat(1000), { mode: 0o600 });
    fs.rmSync(path.join(dir, "stdout.txt"));
    fs.linkSync(secret, path.join(dir, "stdout.txt"));
    const r = spoolBounded(["read", "--root", root, id]);
    expect(r.status).toBe(70);
    expect(r.stdout).not.toContain("PRIVATE");
    expect(r.stderr).toMatch(
      /stdout\.txt has 2 links \(a hard link to a file elsewhere\?\); refusing it$/m,
    );
  });
});

describe("process groups: verified, escalated until empty, controllable after a crash (#12 items 4, 5)", () => {
  const ignoresTerm = ["sh", "-c", '(trap "" TERM; exec sleep 61) & echo $!; wait'];

  it("--timeout 0.5: a member that ignores SIGTERM is gone within the grace after the leader", async () => {
    const root = tempRoot();
    const r = spoolBounded(["run", "--root", root, "--timeout", "0.5", "--", ...ignoresTerm]);
    expect(r.status).toBe(124);
    const survivor = Number(r.stdout.split("\n")[0]);
    expect(survivor).toBeGreaterThan(1);
    // run returns once the escalation is over: the SIGKILL went to what was left.
    expect(dead(survivor)).toBe(true);
  });

  it("kill: the same member is gone when kill returns", async () => {
    const root = tempRoot();
    const job = start(root, ignoresTerm);
    await until(() => spoolBounded(["read", "--root", root, job.captureId]).stdout.length > 0);
    const survivor = Number(spoolBounded(["read", "--root", root, job.captureId]).stdout);
    const k = spoolBounded(["kill", "--root", root, job.captureId]);
    expect(k.status, k.stderr).toBe(0);
    expect(dead(survivor)).toBe(true);
  });

  it("a SIGKILLed supervisor: state unknown, the group said alive, and kill stops it", async () => {
    const root = tempRoot();
    const job = start(root, ["sh", "-c", "echo $$; exec sleep 62"]);
    const { supervisorPid } = jobOf(root, job.captureId);
    process.kill(supervisorPid, "SIGKILL");
    await until(() => dead(supervisorPid));
    const status = spoolBounded(["status", "--root", root, job.captureId]);
    const receipt = JSON.parse(status.stdout) as Receipt;
    expect(receipt.process).toMatchObject({
      state: "unknown",
      exitCode: null,
      pid: job.process!.pid,
    });
    expect(receipt.capture).toMatchObject({ state: "partial", reasons: ["crash"] });
    expect(status.stderr).toContain(`its process group ${job.process!.pid} is still running`);
    const listed = JSON.parse(spoolBounded(["ls", "--root", root, "--json"]).stdout);
    expect(listed[0]).toMatchObject({ process: "unknown", groupRunning: job.process!.pid });
    expect(spoolBounded(["ls", "--root", root]).stdout).toContain(
      `[group ${job.process!.pid} running]`,
    );

    const k = spoolBounded(["kill", "--root", root, job.captureId]);
    expect(k.status, k.stderr).toBe(0);
    expect(k.stdout).toMatch(/stopped what was left of .* \(process group \d+\) with SIGTERM/);
    expect(dead(job.process!.pid!)).toBe(true);
    expect(
      JSON.parse(spoolBounded(["ls", "--root", root, "--json"]).stdout)[0].groupRunning,
    ).toBeNull();
  });

  it("a SIGKILLed foreground run: its child is reported and stopped through spool", async () => {
    const root = tempRoot();
    const run = spawn(
      process.execPath,
      [
        SPOOL_BIN,
        "run",
        "--root",
        root,
        "--",
        ...nodeCmd("console.log('y'.repeat(30000)); setInterval(() => {}, 1000)"),
      ],
      { stdio: "ignore" },
    );
    children.push(run);
    const outputs = path.join(root, "tool-outputs");
    let live: Receipt | null = null;
    await until(() => {
      const [id] = fs.existsSync(outputs) ? fs.readdirSync(outputs) : [];
      const file = id ? path.join(outputs, id, "live.json") : "";
      live =
        file && fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as Receipt) : null;
      return (live?.streams.stdout.committed ?? 0) > 0;
    });
    const { captureId, process: proc } = live as unknown as Receipt;
    pgids.push(proc!.pid!);
    expect(proc!.pidStart).toMatch(/^\d+$/);
    run.kill("SIGKILL");
    await until(() => run.exitCode !== null || run.signalCode !== null);
    const ls = spoolBounded(["ls", "--root", root]);
    expect(ls.stdout).toContain(`unknown  partial (crash)`);
    expect(ls.stdout).toContain(`[group ${proc!.pid} running]`);
    expect(spoolBounded(["kill", "--root", root, captureId]).status).toBe(0);
    expect(dead(proc!.pid!)).toBe(true);
  });

  it("a descendant that keeps the pipe after the leader exits can be killed", async () => {
    const root = tempRoot();
    const job = start(root, ["sh", "-c", "sleep 63 & echo $!"]);
    const waited = spoolBounded(["wait", "--root", root, job.captureId]);
    expect(JSON.parse(waited.stdout).capture.reasons).toContain("drain-timeout");
    const survivor = Number(spoolBounded(["read", "--root", root, job.captureId]).stdout);
    expect(dead(survivor)).toBe(false);
    expect(spoolBounded(["ls", "--root", root]).stdout).toContain(
      `[group ${job.process!.pid} running]`,
    );
    const k = spoolBounded(["kill", "--root", root, job.captureId]);
    expect(k.status, k.stderr).toBe(0);
    expect(dead(survivor)).toBe(true);
  });

  it("never signals a process whose pid a receipt names with another start time", async () => {
    const root = tempRoot();
    const job = start(root, ["sleep", "64"]);
    const { supervisorPid } = jobOf(root, job.captureId);
    process.kill(supervisorPid, "SIGKILL");
    await until(() => dead(supervisorPid));
    // An unrelated process, leader of its own group, as a forged receipt's target.
    const victim = spawn("sleep", ["65"], { detached: true, stdio: "ignore" });
    children.push(victim);
    pgids.push(victim.pid!);
    const live = path.join(dirOf(root, job.captureId), "live.json");
    const receipt = JSON.parse(fs.readFileSync(live, "utf8")) as Receipt;
    for (const pidStart of ["1", undefined]) {
      const forged = { ...receipt, process: { ...receipt.process!, pid: victim.pid!, pidStart } };
      fs.rmSync(live);
      fs.writeFileSync(live, JSON.stringify(forged), { mode: 0o600 });
      const k = spoolBounded(["kill", "--root", root, job.captureId]);
      expect(k.stdout).toContain("already finished; nothing to kill");
      expect(dead(victim.pid!)).toBe(false);
    }
    // Forged fields reach the terminal escaped: OSC 52 (clipboard write), a C1 CSI.
    const forged = {
      ...receipt,
      process: { ...receipt.process!, signal: "\u001b]52;c;cHduZWQ=\u0007\u009b2J" },
    };
    fs.rmSync(live);
    fs.writeFileSync(live, JSON.stringify(forged), { mode: 0o600 });
    for (const args of [["ls"], ["status", job.captureId], ["kill", job.captureId]]) {
      const r = spoolBounded([args[0]!, "--root", root, ...args.slice(1)]);
      const out = r.stdout + r.stderr;
      for (const raw of ["\u001b", "\u0007", "\u009b"])
        expect(out, args.join(" ")).not.toContain(raw);
    }
  });
});

describe("two users: a shared root and a forged kill target (#11 item 5)", () => {
  const user = 65534; // nobody
  const drop = [`--reuid=${user}`, `--regid=${user}`, "--clear-groups"];
  const canDrop = spawnSync("setpriv", [...drop, "true"]).status === 0;
  /** The built binary as the unprivileged user, bounded like spoolBounded. */
  const asUser = (args: string[]) => {
    const r = spawnSync("setpriv", [...drop, process.execPath, SPOOL_BIN, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 60_000,
      killSignal: "SIGKILL",
    });
    return { status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
  };
  // The unprivileged user runs the same checkout (CI clones into a private directory):
  // open the path for these tests only, and put every mode back after.
  const opened: Array<[string, number]> = [];
  const openCheckout = () => {
    for (let dir = path.dirname(SPOOL_BIN); ; dir = path.dirname(dir)) {
      const m = fs.statSync(dir).mode & 0o7777;
      if ((m & 0o005) !== 0o005) {
        opened.push([dir, m]);
        fs.chmodSync(dir, m | 0o005);
      }
      if (dir === path.dirname(dir)) break;
    }
  };
  afterEach(() => {
    for (const [dir, m] of opened.splice(0).reverse()) fs.chmodSync(dir, m);
  });

  /** A real capture made in a private root, then moved into `root` and given to `uid`. */
  function plantCapture(root: string, uid: number, forge: (r: Receipt) => Receipt): string {
    const made = path.join(tempRoot(), "made");
    const r = spoolBounded([
      "run",
      "--root",
      made,
      "--",
      ...nodeCmd("console.log('z'.repeat(20000))"),
    ]);
    expect(r.status).toBe(0);
    const [id] = fs.readdirSync(path.join(made, "tool-outputs"));
    const dir = path.join(made, "tool-outputs", id!);
    const receipt = JSON.parse(fs.readFileSync(path.join(dir, "receipt.json"), "utf8")) as Receipt;
    fs.rmSync(path.join(dir, "receipt.json"));
    fs.writeFileSync(path.join(dir, "live.json"), JSON.stringify(forge(receipt)));
    fs.writeFileSync(
      path.join(dir, "owner.json"),
      JSON.stringify({ pid: process.pid, start: null }),
    );
    fs.mkdirSync(root, { recursive: true });
    fs.renameSync(path.join(made, "tool-outputs"), path.join(root, "tool-outputs"));
    for (const p of [root, path.join(root, "tool-outputs"), path.join(root, "tool-outputs", id!)]) {
      fs.chownSync(p, uid, uid);
    }
    for (const f of fs.readdirSync(path.join(root, "tool-outputs", id!))) {
      fs.chownSync(path.join(root, "tool-outputs", id!, f), uid, uid);
    }
    return id!;
  }

  it.skipIf(!canDrop)(
    "another user's forged receipt in a shared root is refused; kill never reaches the victim's process",
    () => {
      openCheckout();
      const base = tempRoot();
      fs.chmodSync(base, 0o755);
      // The victim's unrelated process, which a forged job names as its own.
      const victim = spawn("setpriv", [...drop, "sleep", "67"], {
        detached: true,
        stdio: "ignore",
      });
      children.push(victim);
      pgids.push(victim.pid!);
      const shared = path.join(base, "shared");
      const osc52 = "\u001b]52;c;cHduZWQ=\u0007";
      const id = plantCapture(shared, user, (r) => ({
        ...r,
        process: {
          ...r.process!,
          state: "running",
          pid: victim.pid!,
          pidStart: readProcStat(victim.pid!)!.start,
          signal: osc52,
          endedAt: null,
        },
        capture: { state: "pending", reasons: [] },
      }));
      fs.chmodSync(shared, 0o777); // a pre-created shared directory: anyone may write here
      for (const args of [["status", id], ["read", id], ["wait", id], ["ls"], ["kill", id]]) {
        const r = asUser([args[0]!, "--root", shared, ...args.slice(1)]);
        expect(r.status, args.join(" ")).toBe(70);
        expect(r.stdout).toBe("");
        expect(r.stderr).toMatch(/refusing the root .* is writable by others \(mode 777\)$/m);
        expect(r.stderr).not.toContain("\u001b");
      }
      expect(dead(victim.pid!)).toBe(false);
    },
  );

  it.skipIf(!canDrop)("in the user's own root, a file another user planted is refused", () => {
    openCheckout();
    const base = tempRoot();
    fs.chmodSync(base, 0o755);
    const own = path.join(base, "own");
    const id = plantCapture(own, user, (r) => r);
    // Another user (root here) replaces the live receipt with one of its own.
    const live = path.join(own, "tool-outputs", id, "live.json");
    const forged = fs.readFileSync(live);
    fs.rmSync(live);
    fs.writeFileSync(live, forged, { mode: 0o644 });
    const status = asUser(["status", "--root", own, id]);
    expect(status.status).toBe(70);
    expect(status.stderr).toMatch(/live\.json is owned by another user \(uid 0\); refusing it$/m);
    // And a capture directory it planted is not ours either.
    fs.mkdirSync(path.join(own, "tool-outputs", "PPPPPPPPPPPPPPPPPPPPPPPP"));
    const planted = asUser(["status", "--root", own, "PPPPPPPPPPPPPPPPPPPPPPPP"]);
    expect(planted.status).toBe(70);
    expect(planted.stderr).toMatch(/is owned by another user \(uid 0\); refusing it$/m);
  });
});

describe("the writer names its directory through a descriptor (#12 item 8)", () => {
  it.skipIf(readProcStat(process.pid) === null)(
    "a capture directory swapped for a link mid-run: live.json and receipt.json never land in the link's target",
    async () => {
      const root = tempRoot();
      const job = start(
        root,
        nodeCmd(
          "let i=0;const t=setInterval(()=>{console.log('l'+i);if(++i>=60)clearInterval(t)},50)",
        ),
      );
      const dir = dirOf(root, job.captureId);
      const moved = path.join(root, "tool-outputs", "moved");
      const target = path.join(tempRoot(), "target");
      fs.mkdirSync(target, { mode: 0o700 });
      fs.renameSync(dir, moved);
      fs.symlinkSync(target, dir);
      await until(() => fs.existsSync(path.join(moved, "receipt.json")), 60_000);
      expect(fs.readdirSync(target)).toEqual([]);
      const receipt = JSON.parse(
        fs.readFileSync(path.join(moved, "receipt.json"), "utf8"),
      ) as Receipt;
      expect(receipt.process).toMatchObject({ state: "exited", exitCode: 0 });
      expect(fs.readFileSync(path.join(moved, "stdout.txt"), "utf8")).toContain("l59\n");
      // Readers refuse the link where the directory was.
      expect(spoolBounded(["status", "--root", root, job.captureId]).status).toBe(64);
    },
  );
});
