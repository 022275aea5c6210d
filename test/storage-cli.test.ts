/**
 * The built `spool` binary against hostile or unusual storage: concurrent captures,
 * linked roots, a symlinked tool-outputs, umasks, an unprivileged user, a real full
 * file system.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type Receipt, ReceiptSchema } from "@spool/core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCommand, runSpool, SPOOL } from "./fixtures/cli.js";
import { GEN, pattern } from "./fixtures/pattern.js";

let base: string;
beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "spool-cli-storage-"));
  fs.chmodSync(base, 0o755); // an unprivileged user must reach roots below it
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

const mode = (p: string) => fs.lstatSync(p).mode & 0o777;
const big = (bytes = 100_000) => ["--", process.execPath, GEN, String(bytes), "10"];
const receiptOf = (stdout: string): Receipt => ReceiptSchema.parse(JSON.parse(stdout));

/** `spool run --json` of a 100 kB capture into `root`, started by a shell prefix (umask, setpriv). */
const runBigUnder = (prefix: string, root: string) =>
  runCommand("sh", [
    "-c",
    `${prefix} "$0" "$@"`,
    process.execPath,
    SPOOL,
    "run",
    "--json",
    "--root",
    root,
    ...big(),
  ]);

/** Every entry under `dir`, recursively, with its mode. */
function modes(dir: string): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  for (const name of fs.readdirSync(dir)) {
    const p = path.join(dir, name);
    out.push([path.relative(base, p), mode(p)]);
    if (fs.lstatSync(p).isDirectory()) out.push(...modes(p));
  }
  return out;
}

describe("spool run storage", () => {
  it("concurrent captures started in the same millisecond never collide", async () => {
    const root = path.join(base, "root");
    const runs = await Promise.all(
      Array.from({ length: 8 }, () => runSpool(["run", "--json", "--root", root, ...big()])),
    );
    const ids = runs.map((r) => {
      expect(r.code, r.stderr).toBe(0);
      const receipt = receiptOf(r.stdout);
      expect(receipt.capture.state).toBe("complete");
      expect(fs.readFileSync(receipt.streams.stdout.path!).equals(pattern(100_000))).toBe(true);
      return receipt.captureId;
    });
    expect(new Set(ids).size).toBe(8);
    expect(fs.readdirSync(path.join(root, "tool-outputs")).sort()).toEqual([...ids].sort());
  });

  it("works through a root reached by a link (resolved once)", async () => {
    const real = path.join(base, "real-root");
    fs.mkdirSync(real, { mode: 0o700 });
    fs.symlinkSync(real, path.join(base, "linked-root"));
    const r = await runSpool(["run", "--json", "--root", path.join(base, "linked-root"), ...big()]);
    expect(r.code).toBe(0);
    const receipt = receiptOf(r.stdout);
    expect(receipt.capture.state).toBe("complete");
    expect(receipt.root).toBe(fs.realpathSync(real));
    expect(fs.existsSync(path.join(real, "tool-outputs", receipt.captureId, "stdout.txt"))).toBe(
      true,
    );
  });

  it("refuses a symlinked tool-outputs: nothing written through it, exit status kept", async () => {
    const root = path.join(base, "root");
    const elsewhere = path.join(base, "elsewhere");
    fs.mkdirSync(root, { mode: 0o700 });
    fs.mkdirSync(elsewhere, { mode: 0o700 });
    fs.symlinkSync(elsewhere, path.join(root, "tool-outputs"));
    const r = await runSpool([
      "run",
      "--json",
      "--root",
      root,
      "--",
      process.execPath,
      "-e",
      "process.stdout.write('x'.repeat(100000)); process.exitCode = 3",
    ]);
    expect(r.code).toBe(3);
    const receipt = receiptOf(r.stdout);
    expect(receipt.capture.state).toBe("unavailable");
    expect(receipt.capture.reasons).toEqual(["storage-unavailable"]);
    expect(receipt.streams.stdout.ref).toBeNull();
    expect(receipt.preview.text).toContain("xxxx"); // the preview still works
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });

  for (const kind of ["directory", "FIFO", "symbolic link"] as const) {
    it(`a bogus .spool-quota/lock (a ${kind}) is its own reason, not a full allowance`, async () => {
      const root = path.join(base, "root");
      const lock = path.join(root, ".spool-quota", "lock");
      fs.mkdirSync(path.dirname(lock), { recursive: true, mode: 0o700 });
      if (kind === "directory") fs.mkdirSync(lock, { mode: 0o700 });
      else if (kind === "FIFO") execFileSync("mkfifo", ["-m", "600", lock]);
      else fs.symlinkSync(path.join(base, "elsewhere"), lock);
      const r = await runSpool(["run", "--json", "--root", root, ...big()]);
      expect(r.code).toBe(0);
      const receipt = receiptOf(r.stdout);
      // Before: failed (root-quota), exactly what a full allowance says.
      expect(receipt.capture.reasons).not.toContain("root-quota");
      expect(receipt.capture).toEqual({
        state: "unavailable",
        reasons: ["storage-unavailable"],
        storageError: {
          errno: { directory: "EISDIR", FIFO: "EINVAL", "symbolic link": "ELOOP" }[kind],
          operation: "lock",
          path: lock,
        },
      });
      expect(fs.existsSync(path.join(base, "elsewhere"))).toBe(false);
    });
  }

  for (const umask of ["000", "077"]) {
    it(`umask ${umask}: directories 0700, files 0600`, async () => {
      const root = path.join(base, "root");
      const r = await runBigUnder(`umask ${umask} && exec`, root);
      expect(r.code).toBe(0);
      expect(receiptOf(r.stdout).capture.state).toBe("complete");
      expect(mode(root)).toBe(0o700);
      const all = modes(root);
      expect(all.length).toBeGreaterThanOrEqual(8);
      for (const [name, m] of all) {
        const isDir = fs.lstatSync(path.join(base, name)).isDirectory();
        expect([name, m]).toEqual([name, isDir ? 0o700 : 0o600]);
      }
    });
  }

  describe("as an unprivileged user (root bypasses file modes)", () => {
    const user = 65534; // nobody
    const asUser = (args: string[]) =>
      runCommand("setpriv", [
        `--reuid=${user}`,
        `--regid=${user}`,
        "--clear-groups",
        process.execPath,
        SPOOL,
        ...args,
      ]);
    const canDrop =
      spawnSync("setpriv", [`--reuid=${user}`, `--regid=${user}`, "--clear-groups", "true"])
        .status === 0;
    // The unprivileged user runs the same built binary, so it must be able to reach the
    // checkout (CI clones into a private temp directory): open a path for the duration of
    // these tests, and put every mode back afterwards.
    const opened: Array<[string, number]> = [];
    beforeAll(() => {
      if (!canDrop) return;
      for (let dir = path.dirname(SPOOL); ; dir = path.dirname(dir)) {
        const m = fs.statSync(dir).mode & 0o7777;
        if ((m & 0o005) !== 0o005) {
          opened.push([dir, m]);
          fs.chmodSync(dir, m | 0o005);
        }
        if (dir === path.dirname(dir)) break;
      }
    });
    afterAll(() => {
      for (const [dir, m] of opened.reverse()) fs.chmodSync(dir, m);
    });

    it.skipIf(!canDrop)("umask 000 as nobody: still 0700/0600", async () => {
      const root = path.join(base, "nobody-root");
      fs.mkdirSync(root, { mode: 0o700 });
      fs.chownSync(root, user, user);
      const r = await runBigUnder(
        `umask 000 && exec setpriv --reuid=${user} --regid=${user} --clear-groups`,
        root,
      );
      expect(r.code).toBe(0);
      expect(receiptOf(r.stdout).capture.state).toBe("complete");
      for (const [name, m] of modes(root)) {
        const st = fs.lstatSync(path.join(base, name));
        expect([name, m, st.uid]).toEqual([name, st.isDirectory() ? 0o700 : 0o600, user]);
      }
    });

    for (const umask of ["577", "777"])
      it.skipIf(!canDrop)(
        `umask ${umask} as nobody: a new root works, and keeps working`,
        async () => {
          const parent = path.join(base, "nobody-home");
          fs.mkdirSync(parent, { mode: 0o700 });
          fs.chownSync(parent, user, user);
          const root = path.join(parent, "root");
          const prefix = `umask ${umask} && exec setpriv --reuid=${user} --regid=${user} --clear-groups`;
          for (let run = 0; run < 2; run++) {
            const r = await runBigUnder(prefix, root);
            expect(r.code, r.stderr).toBe(0);
            expect(receiptOf(r.stdout).capture.state).toBe("complete");
          }
          for (const [name, m] of modes(root)) {
            const st = fs.lstatSync(path.join(base, name));
            expect([name, m, st.uid]).toEqual([name, st.isDirectory() ? 0o700 : 0o600, user]);
          }
        },
      );

    it.skipIf(!canDrop)(
      "a root left unusable by an older spool (.spool-quota 0200) is repaired",
      async () => {
        const root = path.join(base, "nobody-root");
        fs.mkdirSync(path.join(root, ".spool-quota"), { recursive: true });
        fs.chmodSync(root, 0o700);
        fs.chmodSync(path.join(root, ".spool-quota"), 0o200);
        fs.chownSync(root, user, user);
        fs.chownSync(path.join(root, ".spool-quota"), user, user);
        const r = await asUser(["run", "--json", "--root", root, ...big()]);
        expect(r.code).toBe(0);
        expect(receiptOf(r.stdout).capture.state).toBe("complete");
        expect(mode(path.join(root, ".spool-quota"))).toBe(0o700);
      },
    );

    it.skipIf(!canDrop)("a tool-outputs open to others is refused, not chmod-ed", async () => {
      const root = path.join(base, "nobody-root");
      fs.mkdirSync(path.join(root, "tool-outputs"), { recursive: true });
      fs.chmodSync(path.join(root, "tool-outputs"), 0o755);
      fs.chownSync(root, user, user);
      fs.chownSync(path.join(root, "tool-outputs"), user, user);
      const r = await asUser(["run", "--json", "--root", root, ...big()]);
      expect(r.code).toBe(0);
      expect(receiptOf(r.stdout).capture.reasons).toEqual(["storage-unavailable"]);
      expect(mode(path.join(root, "tool-outputs"))).toBe(0o755);
      expect(fs.readdirSync(path.join(root, "tool-outputs"))).toEqual([]);
    });

    it.skipIf(!canDrop)(
      "a root it may not write: storage-unavailable, exit status kept",
      async () => {
        const root = path.join(base, "roots-root");
        fs.mkdirSync(root, { mode: 0o755 }); // owned by uid 0
        const r = await asUser([
          "run",
          "--json",
          "--root",
          root,
          "--",
          process.execPath,
          "-e",
          "process.stdout.write('y'.repeat(50000)); process.exitCode = 5",
        ]);
        expect(r.code).toBe(5);
        expect(receiptOf(r.stdout).capture.reasons).toEqual(["storage-unavailable"]);
        expect(fs.readdirSync(root)).toEqual([]);
      },
    );
  });

  const mountPoint = path.join(os.tmpdir(), `spool-tmpfs-${process.pid}`);
  const canMount = (() => {
    try {
      fs.mkdirSync(mountPoint, { recursive: true });
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", mountPoint], {
        stdio: "ignore",
      });
      execFileSync("umount", [mountPoint], { stdio: "ignore" });
      return true;
    } catch {
      return false; // not root, or no CAP_SYS_ADMIN in this container
    }
  })();

  it.skipIf(!canMount)(
    "a real ENOSPC on a 1 MiB tmpfs: partial/no-space, exit status kept",
    async () => {
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", mountPoint]);
      try {
        const total = 4 * 1024 * 1024;
        const r = await runSpool(["run", "--json", "--root", mountPoint, ...big(total)]);
        expect(r.code).toBe(0);
        const receipt = receiptOf(r.stdout);
        expect(receipt.capture.state).toBe("partial");
        expect(receipt.capture.reasons).toContain("no-space");
        const out = receipt.streams.stdout;
        expect(out.raw.observed).toBe(total);
        expect(out.committed).toBeLessThan(total);
        expect(out.committed).toBeGreaterThan(0);
        const kept = fs.readFileSync(out.path!);
        expect(kept.byteLength).toBe(out.committed);
        expect(kept.equals(pattern(total).subarray(0, out.committed))).toBe(true);
      } finally {
        execFileSync("umount", [mountPoint]);
        fs.rmdirSync(mountPoint);
      }
    },
  );
});
