import { readFileSync } from "node:fs";
import { ReceiptSchema, receiptJsonSchema } from "@spool/core";
import { describe, expect, it } from "vitest";

const stream = {
  representation: "utf8",
  transforms: [],
  raw: { observed: 3, accepted: 3, pending: 0, discarded: 0 },
  produced: 3,
  committed: 3,
  retained: { start: 0, end: 3 },
  replacements: 0,
  redactions: 0,
  omissions: 0,
  lines: 1,
  endsWithNewline: true,
  ref: null,
  path: null,
  sha256: null,
};
const receipt = {
  version: 1,
  captureId: "AAAAAAAAAAAAAAAAAAAAAAAA",
  callId: null,
  label: null,
  root: "/r",
  process: {
    state: "exited",
    exitCode: 0,
    signal: null,
    reason: null,
    pid: 10,
    startedAt: "2026-01-01T00:00:00.000Z",
    endedAt: "2026-01-01T00:00:01.000Z",
  },
  capture: { state: "complete", reasons: [] },
  streams: { stdout: stream, stderr: stream },
  preview: {
    state: "complete",
    text: "hi\n",
    bytes: 3,
    budget: { stdoutChars: 8192, stderrChars: 2048, maxBytes: 16384 },
  },
};

describe("receipt schema", () => {
  it("accepts a well-formed receipt", () => {
    expect(ReceiptSchema.safeParse(receipt).success).toBe(true);
  });

  it("rejects unbalanced raw counts, pending bytes in a final receipt, and a complete capture with uncommitted bytes", () => {
    const bad = (patch: object) =>
      ReceiptSchema.safeParse({
        ...receipt,
        streams: { ...receipt.streams, stdout: { ...stream, ...patch } },
      }).success;
    expect(bad({ raw: { observed: 4, accepted: 3, pending: 0, discarded: 0 } })).toBe(false);
    expect(bad({ raw: { observed: 3, accepted: 2, pending: 1, discarded: 0 } })).toBe(false);
    expect(bad({ committed: 2 })).toBe(false);
    expect(
      ReceiptSchema.safeParse({ ...receipt, capture: { state: "complete", reasons: ["bogus"] } })
        .success,
    ).toBe(false);
  });

  it("matches the JSON Schema checked into the repository (`pnpm build` writes it)", () => {
    const checkedIn = JSON.parse(
      readFileSync(new URL("../receipt.schema.json", import.meta.url), "utf8"),
    );
    expect(checkedIn, "receipt.schema.json is stale: run `pnpm build` and commit it").toEqual(
      receiptJsonSchema(),
    );
  });
});
