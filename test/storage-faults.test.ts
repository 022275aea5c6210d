/**
 * Storage faults injected in the writer worker through its fs layer: persistence stops
 * at a known boundary, the receipt says why, the exit status is the child's and the
 * reader drains to the end.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  DEFAULT_PREVIEW_BUDGET,
  type Receipt,
  ReceiptSchema,
  type StreamName,
  type StreamPlan,
} from "@spool/core";
import {
  createFileSpool,
  type FileSpoolOptions,
  type QuotaOptions,
  startCapture,
  withQuotas,
} from "@spool/sinks";
import type { FaultSpec } from "@spool/sinks/testing";
import { createPreviewTap, createUtf8Decoder, previewTapBudget } from "@spool/transforms";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GEN, pattern } from "./fixtures/pattern.js";

const OUT = 1024 * 1024;
const ERR = 100_000;
let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "spool-faults-"));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

async function capture(
  faults: FaultSpec[],
  extra: Partial<FileSpoolOptions> & QuotaOptions = {},
  script = `${GEN}`,
  args = [String(OUT), String(ERR)],
) {
  const { maxBytes, allowance, ...fileOptions } = extra;
  const files = createFileSpool({ faults, ...fileOptions });
  const plan = (stream: StreamName): StreamPlan => ({
    stages: [createUtf8Decoder()],
    tap: createPreviewTap(
      previewTapBudget(
        stream === "stdout"
          ? DEFAULT_PREVIEW_BUDGET.stdoutChars
          : DEFAULT_PREVIEW_BUDGET.stderrChars,
      ),
    ),
  });
  try {
    const run = startCapture({
      command: process.execPath,
      args: [script, ...args],
      root,
      preview: DEFAULT_PREVIEW_BUDGET,
      redact: false, // a hand-built plan without a redactor (storage is under test)
      plan,
      spool: withQuotas(files.factory, { maxBytes, allowance }),
      drainMs: 5000,
    });
    const result = await run.done;
    expect(ReceiptSchema.safeParse(result.receipt).success).toBe(true);
    return result;
  } finally {
    await files.destroy();
  }
}

/** The real path of a stream's `.live` file (what a storage error names). */
function liveOf(receipt: Receipt, name: StreamName): string {
  return path.join(root, "tool-outputs", receipt.captureId, `${name}.live`);
}

function onDisk(receipt: Receipt, name: StreamName): Buffer {
  return fs.readFileSync(receipt.streams[name].path!);
}

describe("storage faults in the writer", () => {
  it("ENOSPC: stops at the exact boundary, partial/no-space, exit status kept, reader drained", async () => {
    const { receipt, exitStatus } = await capture([
      { op: "write", afterBytes: 300_000, code: "ENOSPC", match: "stdout.live" },
    ]);
    expect(exitStatus).toBe(0);
    expect(receipt.process).toMatchObject({ state: "exited", exitCode: 0 });
    expect(receipt.capture).toEqual({
      state: "partial",
      reasons: ["no-space"],
      storageError: { errno: "ENOSPC", operation: "write", path: liveOf(receipt, "stdout") },
    });
    const out = receipt.streams.stdout;
    expect(out.raw.observed).toBe(OUT); // the reader drained everything
    expect(out.produced).toBe(OUT);
    expect(out.committed).toBe(300_000);
    expect(out.retained).toEqual({ start: 0, end: 300_000 });
    const kept = onDisk(receipt, "stdout");
    expect(kept.equals(pattern(OUT).subarray(0, 300_000))).toBe(true);
    expect(createHash("sha256").update(kept).digest("hex")).toBe(out.sha256);
    // stderr was unaffected and is complete
    expect(receipt.streams.stderr.committed).toBe(ERR);
    expect(onDisk(receipt, "stderr").equals(pattern(ERR))).toBe(true);
  });

  it("EIO: partial/write-error at the last committed byte", async () => {
    const { receipt, exitStatus } = await capture([
      { op: "write", afterBytes: 50_000, code: "EIO", match: "stderr.live" },
    ]);
    expect(exitStatus).toBe(0);
    expect(receipt.capture).toEqual({
      state: "partial",
      reasons: ["write-error"],
      storageError: { errno: "EIO", operation: "write", path: liveOf(receipt, "stderr") },
    });
    expect(receipt.streams.stderr.committed).toBe(50_000);
    expect(receipt.streams.stderr.produced).toBe(ERR);
    expect(onDisk(receipt, "stderr").equals(pattern(ERR).subarray(0, 50_000))).toBe(true);
    expect(receipt.streams.stdout.committed).toBe(OUT);
  });

  it("EIO on stdout from the first byte: nothing kept, counted as dropped", async () => {
    const { receipt } = await capture([
      { op: "write", afterBytes: 0, code: "EIO", match: "stdout.live" },
    ]);
    expect(receipt.capture.reasons).toEqual(["write-error"]);
    expect(receipt.streams.stdout.committed).toBe(0);
    expect(receipt.streams.stdout.produced).toBe(OUT);
    expect(onDisk(receipt, "stdout").byteLength).toBe(0);
  });

  it("short writes lose nothing: complete, byte-identical", async () => {
    const { receipt } = await capture([{ op: "write", shortBytes: 4093 }]);
    expect(receipt.capture).toEqual({ state: "complete", reasons: [] });
    expect(onDisk(receipt, "stdout").equals(pattern(OUT))).toBe(true);
    expect(receipt.streams.stdout.ref).toMatch(/stdout\.txt$/);
  });

  it("a failure between write and publish (fsync EIO): partial, the .live file kept, only synced bytes claimed", async () => {
    const { receipt, exitStatus } = await capture([
      { op: "fsync", code: "EIO", match: "stdout.live" },
    ]);
    expect(exitStatus).toBe(0);
    expect(receipt.capture.state).toBe("partial");
    expect(receipt.capture.reasons).toContain("write-error");
    expect(receipt.capture.storageError).toEqual({
      errno: "EIO",
      operation: "fsync",
      path: liveOf(receipt, "stdout"),
    });
    expect(receipt.streams.stdout.ref).toMatch(/stdout\.live$/);
    // No fsync of stdout ever succeeded: nothing of it is durable, so nothing is claimed
    // (and the file is cut back to that boundary).
    const { committed } = receipt.streams.stdout;
    expect(committed).toBe(0);
    expect(receipt.streams.stdout.sha256).toBeNull();
    expect(onDisk(receipt, "stdout").byteLength).toBe(committed);
  });

  it("a failure naming the final file (link EIO): partial/write-error, readable as .live", async () => {
    const { receipt } = await capture([{ op: "link", code: "EIO", match: "stdout.txt" }]);
    expect(receipt.capture).toEqual({
      state: "partial",
      reasons: ["write-error"],
      storageError: {
        errno: "EIO",
        operation: "link",
        path: path.join(path.dirname(receipt.streams.stdout.path!), "stdout.txt"),
      },
    });
    expect(receipt.streams.stdout.path).toMatch(/stdout\.live$/);
    expect(receipt.streams.stderr.path).toMatch(/stderr\.txt$/);
    const published = JSON.parse(
      fs.readFileSync(
        path.join(path.dirname(receipt.streams.stdout.path!), "receipt.json"),
        "utf8",
      ),
    );
    expect(published.capture).toEqual(receipt.capture);
  });

  it("--max-bytes covers both streams together and cuts at the exact byte", async () => {
    const { receipt, exitStatus } = await capture([], { maxBytes: 500_000 });
    expect(exitStatus).toBe(0);
    expect(receipt.capture).toEqual({ state: "partial", reasons: ["quota"] });
    const { stdout, stderr } = receipt.streams;
    expect(stdout.committed + stderr.committed).toBe(500_000);
    expect(stdout.produced).toBe(OUT);
    expect(stdout.raw.observed).toBe(OUT);
    expect(onDisk(receipt, "stdout").equals(pattern(OUT).subarray(0, stdout.committed))).toBe(true);
    expect(onDisk(receipt, "stderr").equals(pattern(ERR).subarray(0, stderr.committed))).toBe(true);
    expect(receipt.preview.text).toContain("0000000000 abc"); // the preview kept working
  });
});
