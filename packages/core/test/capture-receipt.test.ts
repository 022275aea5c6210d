/**
 * The one receipt builder: a receipt rebuilt from its parts is the same text, key order
 * included; the rules every receipt follows hold whoever supplies the parts.
 */
import {
  assembleReceipt,
  type Receipt,
  ReceiptSchema,
  receiptParts,
  type StreamParts,
} from "@spool/core";
import { runCommandCapture } from "@spool/core/internal";
import { createMemorySpool } from "@spool/sinks";
import { createRedactor, createStreamPlan } from "@spool/transforms";
import { describe, expect, it } from "vitest";

const BUDGET = { stdoutChars: 40, stderrChars: 20, maxBytes: 400 };

/** A real final receipt: stored stdout, stderr, a redaction, a nonzero exit. */
async function realReceipt(): Promise<Receipt> {
  const capture = runCommandCapture({
    command: process.execPath,
    args: [
      "-e",
      "for (let i = 0; i < 40; i++) console.log('line ' + i); console.log('token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB'); console.error('oops'); process.exitCode = 3",
    ],
    root: "/r",
    callId: "call-1",
    label: "node -e …",
    preview: BUDGET,
    plan: (stream, budget) =>
      createStreamPlan({ preview: { budget, stream }, redactor: createRedactor() }),
    spool: createMemorySpool().factory,
  });
  return (await capture.done).receipt;
}

const empty: StreamParts = {
  representation: "utf8",
  transforms: [],
  raw: { observed: 0, accepted: 0, pending: 0, discarded: 0 },
  produced: 0,
  committed: 0,
  kept: false,
  counters: { replacements: 0, redactions: 0, omissions: 0 },
  lines: null,
  endsWithNewline: null,
  ref: null,
  path: null,
  sha256: null,
};

describe("assembleReceipt (the one builder)", () => {
  it("rebuilds a capture's receipt from its parts to the same text, key order included", async () => {
    const receipt = await realReceipt();
    expect(receipt.streams.stdout.redactions).toBe(1);
    expect(receipt.streams.stdout.ref).not.toBeNull();
    expect(JSON.stringify(assembleReceipt(receiptParts(receipt)))).toBe(JSON.stringify(receipt));
    const parsed = ReceiptSchema.parse(JSON.parse(JSON.stringify(receipt)));
    expect(JSON.stringify(assembleReceipt(receiptParts(parsed)))).toBe(JSON.stringify(parsed));
  });

  it("sorts reasons once each, names a storage error only when there is one, retains what is kept", async () => {
    const base = receiptParts(await realReceipt());
    const built = assembleReceipt({
      ...base,
      state: "partial",
      reasons: ["quota", "crash", "quota"],
      storageError: { errno: "ENOSPC", operation: "write", path: null },
      streams: { stdout: { ...empty, committed: 5, produced: 5, kept: true }, stderr: empty },
    });
    expect(built.capture).toEqual({
      state: "partial",
      reasons: ["crash", "quota"],
      storageError: { errno: "ENOSPC", operation: "write", path: null },
    });
    expect(built.streams.stdout.retained).toEqual({ start: 0, end: 5 });
    expect(built.streams.stderr.retained).toBeNull();
    // Counters a receipt did not have (written before they were counted) stay absent.
    expect("redactedBytes" in built.streams.stderr).toBe(false);
    expect("stageCounters" in built.streams.stderr).toBe(false);
    const clean = assembleReceipt({ ...base, storageError: null, provenance: undefined });
    expect("storageError" in clean.capture).toBe(false);
    expect("provenance" in clean).toBe(false);
  });
});
