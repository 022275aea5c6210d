import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { isSpoolError } from "@spool/core";
import {
  createExclusive,
  ensurePrivateDir,
  publishAtomic,
  renameExclusive,
  writeSome,
} from "@spool/sinks";
import { createFaultyFs, nodeFs } from "@spool/sinks/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

let base: string;
beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "spool-storage-"));
});
afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

const mode = (p: string) => fs.lstatSync(p).mode & 0o777;
const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    if (isSpoolError(error)) return error.code;
    throw error;
  }
  throw new Error("expected a SpoolError");
};

describe("modes whatever the umask", () => {
  for (const umask of [0o000, 0o077, 0o022]) {
    it(`umask ${umask.toString(8).padStart(3, "0")}: dirs 0700, files 0600`, () => {
      const old = process.umask(umask);
      try {
        const dir = ensurePrivateDir(path.join(base, "d"));
        const fd = createExclusive(path.join(dir, "f"));
        fs.closeSync(fd);
        publishAtomic(dir, "p.json", Buffer.from("{}"));
        expect(mode(dir)).toBe(0o700);
        expect(mode(path.join(dir, "f"))).toBe(0o600);
        expect(mode(path.join(dir, "p.json"))).toBe(0o600);
      } finally {
        process.umask(old);
      }
    });
  }
});

describe("directories we own are verified", () => {
  it("refuses a symlinked directory and leaves its target alone", () => {
    const target = fs.mkdtempSync(path.join(base, "target-"));
    fs.chmodSync(target, 0o755);
    fs.symlinkSync(target, path.join(base, "link"));
    expect(codeOf(() => ensurePrivateDir(path.join(base, "link")))).toBe("SPOOL_E_UNSAFE_PATH");
    expect(mode(target)).toBe(0o755);
  });

  it("refuses a file, a FIFO or a socket where a directory should be", () => {
    fs.writeFileSync(path.join(base, "file"), "x");
    execFileSync("mkfifo", [path.join(base, "fifo")]);
    expect(codeOf(() => ensurePrivateDir(path.join(base, "file")))).toBe("SPOOL_E_UNSAFE_PATH");
    expect(codeOf(() => ensurePrivateDir(path.join(base, "fifo")))).toBe("SPOOL_E_UNSAFE_PATH");
    expect(codeOf(() => ensurePrivateDir(path.join(base, "file", "below")))).toBe(
      "SPOOL_E_UNSAFE_PATH",
    );
  });

  it("refuses an existing directory open to group or others, without chmod-ing it", () => {
    const dir = path.join(base, "open");
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o750);
    expect(codeOf(() => ensurePrivateDir(dir))).toBe("SPOOL_E_UNSAFE_PATH");
    expect(mode(dir)).toBe(0o750);
  });

  it("refuses a directory owned by another user", () => {
    const dir = path.join(base, "theirs");
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.chownSync(dir, 65534, 65534); // nobody; we run as root in CI, so we may chown
    expect(codeOf(() => ensurePrivateDir(dir))).toBe("SPOOL_E_UNSAFE_PATH");
    expect(fs.lstatSync(dir).uid).toBe(65534);
  });

  it("exclusive creation refuses an existing directory or a link planted at its name", () => {
    const target = fs.mkdtempSync(path.join(base, "target-"));
    fs.symlinkSync(target, path.join(base, "capture"));
    expect(codeOf(() => ensurePrivateDir(path.join(base, "capture"), { exclusive: true }))).toBe(
      "SPOOL_E_EXISTS",
    );
    ensurePrivateDir(path.join(base, "x"));
    expect(codeOf(() => ensurePrivateDir(path.join(base, "x"), { exclusive: true }))).toBe(
      "SPOOL_E_EXISTS",
    );
  });
});

describe("files are created exclusively, never through what is already there", () => {
  it("refuses a symlink at the destination and does not follow it", () => {
    const victim = path.join(base, "victim");
    fs.writeFileSync(victim, "keep me");
    fs.chmodSync(victim, 0o644);
    fs.symlinkSync(victim, path.join(base, "stdout.live"));
    expect(codeOf(() => createExclusive(path.join(base, "stdout.live")))).toBe("SPOOL_E_EXISTS");
    expect(fs.readFileSync(victim, "utf8")).toBe("keep me");
    expect(mode(victim)).toBe(0o644);
  });

  it("refuses a dangling symlink (which O_CREAT alone would follow and create)", () => {
    fs.symlinkSync(path.join(base, "created-elsewhere"), path.join(base, "dangling"));
    expect(codeOf(() => createExclusive(path.join(base, "dangling")))).toBe("SPOOL_E_EXISTS");
    expect(fs.existsSync(path.join(base, "created-elsewhere"))).toBe(false);
  });

  it("refuses a FIFO at the destination without blocking on it", () => {
    execFileSync("mkfifo", [path.join(base, "stdout.live")]);
    expect(codeOf(() => createExclusive(path.join(base, "stdout.live")))).toBe("SPOOL_E_EXISTS");
    expect(fs.lstatSync(path.join(base, "stdout.live")).isFIFO()).toBe(true);
  });

  it("refuses a pre-existing restrictive file and leaves its mode and bytes alone", () => {
    const p = path.join(base, "receipt.json");
    fs.writeFileSync(p, "theirs");
    fs.chmodSync(p, 0o000);
    expect(codeOf(() => createExclusive(p))).toBe("SPOOL_E_EXISTS");
    expect(codeOf(() => publishAtomic(base, "receipt.json", Buffer.from("mine")))).toBe(
      "SPOOL_E_EXISTS",
    );
    expect(mode(p)).toBe(0o000);
    expect(fs.readFileSync(p, "utf8")).toBe("theirs");
    expect(fs.readdirSync(base).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });
});

describe("atomic publication", () => {
  it("refuses a symlink planted at the temp name and does not write through it", () => {
    const victim = path.join(base, "victim");
    fs.writeFileSync(victim, "keep me");
    fs.symlinkSync(victim, path.join(base, ".receipt.json.planted.tmp"));
    expect(
      codeOf(() =>
        publishAtomic(base, "receipt.json", Buffer.from("{}"), {
          tempName: ".receipt.json.planted.tmp",
        }),
      ),
    ).toBe("SPOOL_E_EXISTS");
    expect(fs.readFileSync(victim, "utf8")).toBe("keep me");
    expect(fs.existsSync(path.join(base, "receipt.json"))).toBe(false);
    // The planted link is not ours: it stays.
    expect(fs.lstatSync(path.join(base, ".receipt.json.planted.tmp")).isSymbolicLink()).toBe(true);
  });

  it("refuses a symlink at the final name (exclusive and replacing publication)", () => {
    const victim = path.join(base, "victim");
    fs.writeFileSync(victim, "keep me");
    fs.symlinkSync(victim, path.join(base, "receipt.json"));
    fs.symlinkSync(victim, path.join(base, "live.json"));
    expect(codeOf(() => publishAtomic(base, "receipt.json", Buffer.from("{}")))).toBe(
      "SPOOL_E_EXISTS",
    );
    expect(
      codeOf(() => publishAtomic(base, "live.json", Buffer.from("{}"), { replace: true })),
    ).toBe("SPOOL_E_UNSAFE_PATH");
    expect(fs.readFileSync(victim, "utf8")).toBe("keep me");
    expect(fs.lstatSync(path.join(base, "live.json")).isSymbolicLink()).toBe(true);
    expect(fs.readdirSync(base).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("refuses a FIFO at a replaced name", () => {
    execFileSync("mkfifo", [path.join(base, "live.json")]);
    expect(
      codeOf(() => publishAtomic(base, "live.json", Buffer.from("{}"), { replace: true })),
    ).toBe("SPOOL_E_UNSAFE_PATH");
    expect(fs.lstatSync(path.join(base, "live.json")).isFIFO()).toBe(true);
  });

  it("replaces its own previous version", () => {
    publishAtomic(base, "live.json", Buffer.from("1"), { replace: true });
    publishAtomic(base, "live.json", Buffer.from("2"), { replace: true });
    expect(fs.readFileSync(path.join(base, "live.json"), "utf8")).toBe("2");
  });

  it("a failure before publication (fsync EIO) publishes nothing and leaves no temp", () => {
    const fsl = createFaultyFs(nodeFs, [{ op: "fsync", code: "EIO" }]);
    expect(codeOf(() => publishAtomic(base, "receipt.json", Buffer.from("{}"), { fs: fsl }))).toBe(
      "SPOOL_E_STORAGE",
    );
    expect(fs.readdirSync(base)).toEqual([]);
  });

  it("an injected fsync fault fails the background fsync too, on a later turn, naming only its files", async () => {
    const fsl = createFaultyFs(nodeFs, [{ op: "fsync", code: "EIO", match: "stdout" }]);
    const open = (name: string) =>
      fsl.openSync(path.join(base, name), fs.constants.O_CREAT | fs.constants.O_WRONLY, 0o600);
    const [bad, good] = [open("stdout.live"), open("stderr.live")];
    const sync = (fd: number) =>
      new Promise<string>((resolve) => {
        let returned = false;
        fsl.fsync!(fd, (error) =>
          resolve(
            `${returned ? "later" : "in the call"}: ${error ? (error as NodeJS.ErrnoException).code : "ok"}`,
          ),
        );
        returned = true;
      });
    expect(await sync(bad)).toBe("later: EIO");
    expect(await sync(good)).toBe("later: ok");
    fsl.closeSync(bad);
    fsl.closeSync(good);
  });

  it("a failure at the rename step leaves no temp and no target", () => {
    const fsl = createFaultyFs(nodeFs, [{ op: "link", code: "EIO" }]);
    expect(codeOf(() => publishAtomic(base, "receipt.json", Buffer.from("{}"), { fs: fsl }))).toBe(
      "SPOOL_E_STORAGE",
    );
    expect(fs.readdirSync(base)).toEqual([]);
  });

  it("renameExclusive refuses a link or FIFO at the final name", () => {
    const victim = path.join(base, "victim");
    fs.writeFileSync(victim, "keep me");
    fs.writeFileSync(path.join(base, "stdout.live"), "data");
    fs.symlinkSync(victim, path.join(base, "stdout.txt"));
    execFileSync("mkfifo", [path.join(base, "stderr.txt")]);
    fs.writeFileSync(path.join(base, "stderr.live"), "data");
    expect(
      codeOf(() => renameExclusive(path.join(base, "stdout.live"), path.join(base, "stdout.txt"))),
    ).toBe("SPOOL_E_EXISTS");
    expect(
      codeOf(() => renameExclusive(path.join(base, "stderr.live"), path.join(base, "stderr.txt"))),
    ).toBe("SPOOL_E_EXISTS");
    expect(fs.readFileSync(victim, "utf8")).toBe("keep me");
    expect(fs.readFileSync(path.join(base, "stdout.live"), "utf8")).toBe("data");
  });
});

describe("writes through an injectable fs layer", () => {
  const data = Buffer.alloc(10_000, 0x61);
  const open = () => createExclusive(path.join(base, "out"));

  it("ENOSPC mid-write: a short write to the exact boundary, then the error", () => {
    const fsl = createFaultyFs(nodeFs, [{ op: "write", afterBytes: 7_000, code: "ENOSPC" }]);
    const fd = open();
    const first = writeSome(fd, data, fsl);
    fs.closeSync(fd);
    expect(first.written).toBe(7_000);
    expect(first.error?.code).toBe("ENOSPC");
    expect(fs.statSync(path.join(base, "out")).size).toBe(7_000);
  });

  it("EIO fails the write that crosses the boundary", () => {
    const fsl = createFaultyFs(nodeFs, [{ op: "write", afterBytes: 0, code: "EIO" }]);
    const fd = open();
    const outcome = writeSome(fd, data, fsl);
    fs.closeSync(fd);
    expect(outcome).toMatchObject({ written: 0, error: { code: "EIO" } });
  });

  it("short writes are looped over: nothing lost", () => {
    const fsl = createFaultyFs(nodeFs, [{ op: "write", shortBytes: 333 }]);
    const fd = open();
    const outcome = writeSome(fd, data, fsl);
    fs.closeSync(fd);
    expect(outcome).toEqual({ written: 10_000, error: null });
    expect(fs.readFileSync(path.join(base, "out")).equals(data)).toBe(true);
  });
});
