import { runStage } from "@spool/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createLineRedactor } from "../src/line-redactor.js";
import { markerRanges } from "../src/redaction-markers.js";
import { checkStageProperty } from "../src/stage-property.js";

const MARKER = "[REDACTED:command-output]";

/** The reference: every line's bytes one marker, the line feeds kept. */
const model = (input: Uint8Array): string =>
  Buffer.from(input)
    .toString("latin1")
    .split("\n")
    .map((line) => (line === "" ? "" : MARKER))
    .join("\n");

describe("the line redactor (a command whose output is a secret)", () => {
  it("redacts every line whole, keeps the line feeds, and says so in its counters", () => {
    const stage = createLineRedactor();
    const out = runStage(stage, [Buffer.from("hunter2-prod\n\nsecond line\r\nlast")]);
    expect(out.toString()).toBe(`${MARKER}\n\n${MARKER}\n${MARKER}`);
    expect(stage.counters).toEqual({
      redactions: 3,
      omissions: 0,
      redactedBytes: 12 + 12 + 4,
      markerBytes: 3 * MARKER.length,
    });
    expect(stage.namedCounters).toEqual({ "command-output": 3 });
  });

  it("registers its markers as the redactor's (the preview tells them from the child's bytes)", () => {
    const [piece] = createLineRedactor().push([Buffer.from("a\nb")]);
    expect(markerRanges(piece!)).toEqual([
      0,
      MARKER.length,
      MARKER.length + 1,
      2 * MARKER.length + 1,
    ]);
  });

  it("gives the model's output for every input and every split, holding nothing", () => {
    checkStageProperty({
      stage: () => createLineRedactor(),
      model,
      input: fc
        .array(fc.constantFrom("\n", "a", "b", "\r", "é", " "), { maxLength: 60 })
        .map((a) => a.join("")),
      numRuns: 300,
    });
  });

  it("accounts for every byte: observed = committed + redacted - marker bytes", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 20 }), { maxLength: 8 }), (parts) => {
        const stage = createLineRedactor();
        const chunks = parts.map((p) => Buffer.from(p));
        const out = runStage(stage, chunks);
        const observed = chunks.reduce((n, c) => n + c.byteLength, 0);
        const { redactedBytes, markerBytes } = stage.counters;
        expect(out.byteLength).toBe(observed - redactedBytes + markerBytes);
      }),
    );
  });
});
