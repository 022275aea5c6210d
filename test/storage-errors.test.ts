/**
 * Storage failures are loud: the error, the `storage-error` event and the receipt carry the
 * errno, the operation and the path (secret-looking segments redacted); a missing root is
 * refused up front or created private, as the caller chooses.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import {
  type CaptureEvent,
  type CaptureReason,
  DEFAULT_PREVIEW_BUDGET,
  isSpoolError,
  newCaptureId,
  ReceiptSchema,
  redactPath,
  type SpoolError,
} from "@spool/core";
import { createFileSpool, startCapture } from "@spool/sinks";
import type { FaultSpec } from "@spool/sinks/testing";
import { createPreviewTap, createUtf8Decoder, previewTapBudget } from "@spool/transforms";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GEN } from "./fixtures/pattern.js";

const TOKEN = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
let base = "";
beforeEach(() => {
  base = mkdtempSync(path.join(tmpdir(), "spool-storage-errors-"));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("a missing root", () => {
  it("is refused up front, with errno, operation and path in the error", () => {
    const root = path.join(base, "nowhere");
    let error: unknown;
    try {
      createFileSpool({ root });
    } catch (e) {
      error = e;
    }
    expect(isSpoolError(error, "SPOOL_E_STORAGE")).toBe(true);
    const e = error as SpoolError;
    expect(e.storage).toEqual({ errno: "ENOENT", operation: "lstat", path: root });
    expect(e.message).toBe(`file-spool: the root does not exist (ENOENT on lstat of ${root})`);
  });

  it("is created private (0700, parents too) when the caller asks", async () => {
    const root = path.join(base, "a", "b");
    const files = createFileSpool({ root, missingRoot: "create" });
    expect(statSync(root).mode & 0o777).toBe(0o700);
    expect(statSync(path.dirname(root)).mode & 0o777).toBe(0o700);
    await files.destroy();
    expect(() => createFileSpool({ missingRoot: "maybe" as "create" })).toThrow(/missingRoot/);
  });

  it("fails a capture's spill loudly: event and receipt say errno, operation and a redacted path", async () => {
    const root = path.join(base, TOKEN, "root");
    const files = createFileSpool({});
    const capture = startCapture({
      command: "sh",
      args: ["-c", "seq 1 100000"],
      root,
      preview: DEFAULT_PREVIEW_BUDGET,
      redact: false, // a hand-built plan without a redactor (storage is under test)
      plan: () => ({ stages: [createUtf8Decoder()], tap: createPreviewTap(previewTapBudget(200)) }),
      spool: files.factory,
    });
    const events: CaptureEvent[] = [];
    capture.events.subscribe((event) => events.push(event));
    const { receipt } = await capture.done;
    await files.destroy();
    expect(receipt.capture.reasons).toContain("storage-unavailable");
    const failure = receipt.capture.storageError;
    expect(failure?.errno).toBe("ENOENT");
    expect(failure?.operation).toMatch(/^(mkdir|open|lstat|stat)$/);
    expect(failure?.path).toContain(path.join(base, "[REDACTED]", "root"));
    const event = events.find((e) => e.type === "storage-error");
    expect(event).toMatchObject({
      type: "storage-error",
      code: "SPOOL_E_STORAGE",
      storage: failure,
    });
    // What the error adds names no secret (the receipt's `root` is the root as the caller gave it).
    expect(JSON.stringify({ failure, event })).not.toContain(TOKEN);
    expect((event as { message: string }).message).toMatch(
      /cannot open the spool \(ENOENT on mkdir of .*\[REDACTED\]/,
    );
  });
});

describe("redactPath", () => {
  it("redacts token-like segments and keeps ordinary names and capture ids", () => {
    expect(redactPath(`/tmp/${TOKEN}/x`)).toBe("/tmp/[REDACTED]/x");
    expect(
      redactPath(
        "/home/me/.local/state/spool/default/tool-outputs/AbC123dEf456GhI789jKl012/stdout.live",
      ),
    ).toBe("/home/me/.local/state/spool/default/tool-outputs/AbC123dEf456GhI789jKl012/stdout.live");
    expect(redactPath("/srv/build-artifacts-2026-12-01")).toBe("/srv/build-artifacts-2026-12-01");
  });
});

/**
 * Failures after the spool opened, each injected where it happens (the writer worker's fs
 * layer) under a root with a secret-looking segment: the stream's error, the
 * `storage-error` event and the receipt's `capture.storageError` agree on errno, system
 * call and the real path of the file (never `/proc/self/fd/…`), redacted.
 */
describe("failures in the middle of a capture", () => {
  async function capture(faults: FaultSpec[], script: string, args: string[]) {
    const root = path.join(base, TOKEN, "root");
    mkdirSync(root, { recursive: true, mode: 0o700 });
    const files = createFileSpool({ faults });
    try {
      const run = startCapture({
        command: process.execPath,
        args: [script, ...args],
        root,
        preview: DEFAULT_PREVIEW_BUDGET,
        redact: false, // a hand-built plan without a redactor (storage is under test)
        plan: () => ({
          stages: [createUtf8Decoder()],
          tap: createPreviewTap(previewTapBudget(200)),
        }),
        spool: files.factory,
        drainMs: 5000,
      });
      const events: CaptureEvent[] = [];
      run.events.subscribe((event) => events.push(event));
      const { receipt, exitStatus } = await run.done;
      expect(exitStatus).toBe(0);
      expect(ReceiptSchema.safeParse(receipt).success).toBe(true);
      const dir = path.join(root, "tool-outputs", receipt.captureId);
      return { receipt, events, dir };
    } finally {
      await files.destroy();
    }
  }

  function expectLoud(
    got: Awaited<ReturnType<typeof capture>>,
    want: {
      stream?: "stdout" | "stderr";
      reason: CaptureReason;
      errno: string;
      operation: string;
      file: string;
    },
  ) {
    const { receipt, events, dir } = got;
    const failure = {
      errno: want.errno,
      operation: want.operation,
      path: redactPath(path.join(dir, want.file)),
    };
    expect(failure.path).toContain(
      path.join("[REDACTED]", "root", "tool-outputs", receipt.captureId),
    );
    expect(receipt.capture.reasons).toContain(want.reason);
    expect(receipt.capture.state).toBe("partial");
    expect(receipt.capture.storageError).toEqual(failure);
    const event = events.find((e) => e.type === "storage-error");
    expect(event).toMatchObject({
      type: "storage-error",
      code: "SPOOL_E_STORAGE",
      storage: failure,
    });
    if (want.stream) expect(event).toMatchObject({ stream: want.stream });
    const message = (event as { message: string }).message;
    expect(message).toContain(`(${want.errno} on ${want.operation} of ${failure.path})`);
    expect(JSON.stringify({ failure: receipt.capture.storageError, event })).not.toContain(TOKEN);
  }

  // A write that fails part-way: the stream keeps exactly the bytes written before it.
  it.each([
    {
      name: "ENOSPC part-way through a write",
      stream: "stdout",
      code: "ENOSPC",
      reason: "no-space",
      afterBytes: 300_000,
      gen: ["1048576", "1000"],
    },
    {
      name: "EIO part-way through a write of stderr",
      stream: "stderr",
      code: "EIO",
      reason: "write-error",
      afterBytes: 50_000,
      gen: ["100000", "200000"],
    },
  ] as const)("$name", async ({ stream, code, reason, afterBytes, gen }) => {
    const file = `${stream}.live`;
    const got = await capture([{ op: "write", afterBytes, code, match: file }], GEN, [...gen]);
    expectLoud(got, { stream, reason, errno: code, operation: "write", file });
    expect(got.receipt.streams[stream].committed).toBe(afterBytes);
  });

  it("fsync failing when 16 MiB are unsynced (during the writes)", async () => {
    const got = await capture([{ op: "fsync", code: "EIO", match: "stdout.live" }], GEN, [
      String(17 * 1024 * 1024),
      "0",
    ]);
    expectLoud(got, {
      stream: "stdout",
      reason: "write-error",
      errno: "EIO",
      operation: "fsync",
      file: "stdout.live",
    });
    // No sync ever succeeded: nothing of stdout is claimed.
    expect(got.receipt.streams.stdout.committed).toBe(0);
    expect(got.receipt.streams.stdout.produced).toBe(17 * 1024 * 1024);
  });

  it("fsync failing on the writer's age timer is told with the next write (not a stall)", async () => {
    // 64 KiB, a pause past the 1 s sync age, then 64 KiB more.
    const script = path.join(base, "pause.mjs");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(
      script,
      `const b = Buffer.alloc(65536, 120);
       process.stdout.write(b);
       setTimeout(() => process.stdout.write(b), 2500);`,
    );
    const got = await capture([{ op: "fsync", code: "EIO", match: "stdout.live" }], script, []);
    expectLoud(got, {
      stream: "stdout",
      reason: "write-error",
      errno: "EIO",
      operation: "fsync",
      file: "stdout.live",
    });
    expect(got.receipt.capture.reasons).not.toContain("writer-saturated");
  });

  it("the final rename (link) failing", async () => {
    const got = await capture([{ op: "link", code: "EIO", match: "stdout.txt" }], GEN, [
      "100000",
      "10",
    ]);
    expectLoud(got, { reason: "write-error", errno: "EIO", operation: "link", file: "stdout.txt" });
  });

  it("the receipt failing to publish", async () => {
    const got = await capture([{ op: "link", code: "EIO", match: "receipt.json" }], GEN, [
      "100000",
      "10",
    ]);
    expectLoud(got, {
      reason: "storage-unavailable",
      errno: "EIO",
      operation: "link",
      file: "receipt.json",
    });
  });

  it("a line index that cannot be written: every byte kept, complete, and still reported", async () => {
    const { receipt, events, dir } = await capture(
      [{ op: "write", afterBytes: 0, code: "EIO", match: "stdout.idx" }],
      GEN,
      ["1048576", "10"],
    );
    const failure = {
      errno: "EIO",
      operation: "write",
      path: redactPath(path.join(dir, "stdout.idx")),
    };
    expect(receipt.capture).toEqual({ state: "complete", reasons: [], storageError: failure });
    expect(receipt.streams.stdout.committed).toBe(1048576);
    expect(receipt.streams.stdout.ref).toMatch(/stdout\.txt$/);
    const event = events.find((e) => e.type === "storage-error");
    expect(event).toMatchObject({ stream: "stdout", code: "SPOOL_E_STORAGE", storage: failure });
    expect((event as { message: string }).message).toContain("cannot index the lines of stdout");
  });

  it("the spool's writer hands the stream's listener the error itself", async () => {
    const root = path.join(base, "r");
    mkdirSync(root, { mode: 0o700 });
    const files = createFileSpool({
      faults: [{ op: "write", afterBytes: 10, code: "ENOSPC", match: "stdout.live" }],
    });
    try {
      const spool = files.factory({ captureId: newCaptureId(), root, startedAt: Date.now() });
      const told = new Promise<[CaptureReason, SpoolError | undefined]>((resolve) =>
        spool.streams.stdout.watch({ committed: () => {}, stopped: (r, e) => resolve([r, e]) }),
      );
      const info = await spool.spill();
      spool.streams.stdout.offer([Buffer.alloc(100, 97)]);
      const [reason, error] = await told;
      expect(reason).toBe("no-space");
      expect(isSpoolError(error, "SPOOL_E_STORAGE")).toBe(true);
      expect(error?.storage).toEqual({
        errno: "ENOSPC",
        operation: "write",
        path: path.join(info.dir, "stdout.live"),
      });
      expect(error?.message).toBe(
        `file-spool: cannot store stdout (ENOSPC on write of ${path.join(info.dir, "stdout.live")})`,
      );
      await spool.finish();
      await spool.close();
    } finally {
      await files.destroy();
    }
  });
});
