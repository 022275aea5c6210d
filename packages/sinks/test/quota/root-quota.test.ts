import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  createRetentionLimit,
  createRootAllowance,
  currentOwner,
  isOwnerAlive,
  reconcileRootQuota,
  withFileLock,
} from "@spool/sinks";
import { rootQuotaUsage } from "@spool/sinks/internal";
import { createFaultyFs, nodeFs } from "@spool/sinks/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const MiB = 1024 * 1024;
const id = (n: number) => `capture${String(n).padStart(17, "0")}`;
let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "spool-quota-"));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** An owner record of a process that has exited. */
function deadOwner() {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  const pid = Number(child.stdout.toString());
  return { pid, start: "1" };
}

describe("per-root allowance", () => {
  it("never reserves past the limit across captures, and settling gives back", () => {
    const a = createRootAllowance({ root, limit: 4 * MiB, captureId: id(1), stepBytes: MiB });
    const b = createRootAllowance({ root, limit: 4 * MiB, captureId: id(2), stepBytes: MiB });
    expect(a.reserve(2 * MiB)).toBe(3 * MiB); // asked 2, stepped to 3
    expect(b.reserve(2 * MiB)).toBe(MiB); // only 1 left: a refusal
    expect(rootQuotaUsage(root)).toBe(4 * MiB);
    a.release(1.5 * MiB);
    expect(b.reserve(2 * MiB)).toBe(2.5 * MiB);
    expect(rootQuotaUsage(root)).toBe(4 * MiB);
  });

  it("grows its step with the reservation: few lock cycles per GiB, never a quarter over", () => {
    const limit = 64 * 1024 * MiB;
    const allowance = createRootAllowance({ root, limit, captureId: id(4) });
    let grown = 0;
    for (let total = 64 * 1024; total <= 1024 * MiB; total += 64 * 1024) {
      const before = allowance.reserved;
      expect(allowance.reserve(total)).toBeGreaterThanOrEqual(total);
      if (allowance.reserved !== before) grown++;
      expect(allowance.reserved).toBeLessThanOrEqual(total + Math.max(4 * MiB, before / 4));
      expect(allowance.reserved).toBeLessThanOrEqual(total + limit / 32);
    }
    expect(grown).toBeLessThanOrEqual(40); // a fixed 4 MiB step took 256
    expect(rootQuotaUsage(root)).toBe(allowance.reserved);
  });

  it("fsyncs the first reservation and the settled one, not each growth (crash recovery settles from disk)", () => {
    let syncs = 0;
    const counting = {
      ...nodeFs,
      fsyncSync(fd: number) {
        syncs++;
        nodeFs.fsyncSync(fd);
      },
    };
    const allowance = createRootAllowance({
      root,
      limit: 1024 * MiB,
      captureId: id(6),
      fs: counting,
    });
    allowance.reserve(MiB);
    const first = syncs;
    expect(first).toBeGreaterThanOrEqual(2); // the file, then the directory
    for (let total = 2 * MiB; total <= 512 * MiB; total *= 2) allowance.reserve(total);
    expect(allowance.reserved).toBeGreaterThanOrEqual(512 * MiB);
    expect(syncs).toBe(first);
    expect(rootQuotaUsage(root)).toBe(allowance.reserved); // seen by others at once
    allowance.release(300 * MiB);
    expect(syncs).toBe(first + 2);
    expect(rootQuotaUsage(root)).toBe(300 * MiB);
  });

  it("with the default allowance, still steps 4 MiB at most", () => {
    const allowance = createRootAllowance({ root, limit: 128 * MiB, captureId: id(5) });
    for (let total = MiB; total <= 64 * MiB; total += MiB) {
      allowance.reserve(total);
      expect(allowance.reserved).toBeLessThanOrEqual(total + 4 * MiB);
    }
  });

  it("cuts a write at the exact byte a limit is reached", () => {
    const capture = createRetentionLimit({ maxBytes: 1000, allowance: null });
    expect(capture.admit(900, 50)).toEqual({ allow: 50, reason: null });
    expect(capture.admit(950, 100)).toEqual({ allow: 50, reason: "quota" });
    expect(capture.admit(1000, 1)).toEqual({ allow: 0, reason: "quota" });
    const allowance = createRootAllowance({ root, limit: 300, captureId: id(3), stepBytes: 1 });
    const both = createRetentionLimit({ maxBytes: 1000, allowance });
    expect(both.admit(0, 200)).toEqual({ allow: 200, reason: null });
    expect(both.admit(200, 200)).toEqual({ allow: 100, reason: "root-quota" });
  });

  it("settles a dead supervisor's reservation to the bytes on disk; drops deleted captures", () => {
    const dead = deadOwner();
    expect(isOwnerAlive(dead)).toBe(false);
    const quota = path.join(root, ".spool-quota");
    fs.mkdirSync(quota, { mode: 0o700 });
    const reservation = (captureId: string, bytes: number, settled: boolean, owner = dead) =>
      fs.writeFileSync(
        path.join(quota, `${captureId}.json`),
        JSON.stringify({ version: 1, captureId, owner, bytes, settled }),
      );
    const dir = path.join(root, "tool-outputs", id(1));
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(dir, "stdout.live"), Buffer.alloc(1000));
    fs.writeFileSync(path.join(dir, "stderr.live"), Buffer.alloc(24));
    reservation(id(1), 10 * MiB, false); // crashed while reserving 10 MiB, kept 1024 B
    reservation(id(2), 5 * MiB, true); // settled, but its capture was deleted
    reservation(id(3), 7 * MiB, false, currentOwner()); // alive: untouched
    const unbooked = path.join(root, "tool-outputs", id(4));
    fs.mkdirSync(unbooked, { mode: 0o700 });
    fs.writeFileSync(path.join(unbooked, "stdout.txt"), Buffer.alloc(500));

    reconcileRootQuota(root);
    const books = Object.fromEntries(
      fs
        .readdirSync(quota)
        .filter((n) => n.endsWith(".json"))
        .map((n) => [n, JSON.parse(fs.readFileSync(path.join(quota, n), "utf8"))]),
    );
    expect(books[`${id(1)}.json`]).toMatchObject({ bytes: 1024, settled: true });
    expect(books[`${id(2)}.json`]).toBeUndefined();
    expect(books[`${id(3)}.json`]).toMatchObject({ bytes: 7 * MiB, settled: false });
    expect(books[`${id(4)}.json`]).toMatchObject({ bytes: 500, settled: true });
    expect(rootQuotaUsage(root)).toBe(1024 + 7 * MiB + 500);
    reconcileRootQuota(root); // idempotent
    expect(rootQuotaUsage(root)).toBe(1024 + 7 * MiB + 500);
  });
});

describe("file lock", () => {
  it("breaks a lock left by a dead process, waits on a live one", () => {
    const lock = path.join(root, "lock");
    fs.writeFileSync(lock, JSON.stringify({ ...deadOwner(), nonce: "x" }));
    expect(withFileLock(lock, () => "got it")).toBe("got it");
    expect(fs.existsSync(lock)).toBe(false);

    fs.writeFileSync(lock, JSON.stringify({ ...currentOwner(), nonce: "held" }));
    let clock = 0;
    const slept: number[] = [];
    expect(() =>
      withFileLock(lock, () => "never", {
        timeoutMs: 100,
        now: () => clock,
        sleep: (ms) => {
          slept.push(ms);
          clock += ms;
        },
      }),
    ).toThrow(/timed out/);
    expect(slept.length).toBeGreaterThan(2);
    expect(JSON.parse(fs.readFileSync(lock, "utf8")).nonce).toBe("held");
  });

  it("a stale lock that cannot be broken is an error at once, naming the lock and the errno (no spin)", () => {
    const lock = path.join(root, "lock");
    for (const content of ["", JSON.stringify({ ...deadOwner(), nonce: "x" })]) {
      fs.writeFileSync(lock, content);
      const slept: number[] = [];
      expect(() =>
        withFileLock(lock, () => "never", {
          fs: createFaultyFs(nodeFs, [{ op: "rename", code: "EIO" }]),
          emptyStaleMs: 0,
          now: () => Date.now() + 1000,
          sleep: (ms) => slept.push(ms),
        }),
      ).toThrow(new RegExp(`the lock ${lock} is stale and cannot be broken \\(EIO\\)`));
      expect(slept).toEqual([]);
      expect(fs.readFileSync(lock, "utf8")).toBe(content);
    }
  });

  it("a lock whose write fails (ENOSPC) is removed, never left empty", () => {
    const lock = path.join(root, "lock");
    expect(() =>
      withFileLock(lock, () => "never", {
        fs: createFaultyFs(nodeFs, [{ op: "write", afterBytes: 0, code: "ENOSPC" }]),
      }),
    ).toThrow(new RegExp(`cannot write the lock ${lock} \\(ENOSPC\\)`));
    expect(fs.existsSync(lock)).toBe(false);
    expect(withFileLock(lock, () => "next one gets it")).toBe("next one gets it");
  });
});
