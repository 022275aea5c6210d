import {
  DEFAULT_PREVIEW_BUDGET,
  keepsInline,
  outgrowsPreview,
  type PreviewSnapshot,
  renderPreview,
} from "@spool/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const snapshot = (text: string, binary = false): PreviewSnapshot => {
  const head = Buffer.from(text);
  return { head, tail: Buffer.alloc(0), total: head.byteLength, binary };
};
const size = (s: PreviewSnapshot) => ({
  produced: s.total,
  heldWhole: s.tail.byteLength === 0 && s.head.byteLength === s.total,
  binary: s.binary,
});

describe("spill policy", () => {
  it("outgrows the preview past a stream's budget or the combined ceiling", () => {
    const b = { stdoutChars: 10, stderrChars: 5, maxBytes: 12 };
    expect(outgrowsPreview({ stdout: 10, stderr: 0 }, b)).toBe(false);
    expect(outgrowsPreview({ stdout: 11, stderr: 0 }, b)).toBe(true);
    expect(outgrowsPreview({ stdout: 0, stderr: 6 }, b)).toBe(true);
    expect(outgrowsPreview({ stdout: 8, stderr: 5 }, b)).toBe(true);
  });

  it("stores a capture that is not complete, or a binary-looking stream, however small", () => {
    const text = size(snapshot("ok\n"));
    const empty = size(snapshot(""));
    expect(keepsInline({ stdout: text, stderr: empty }, DEFAULT_PREVIEW_BUDGET, true)).toBe(true);
    expect(keepsInline({ stdout: text, stderr: empty }, DEFAULT_PREVIEW_BUDGET, false)).toBe(false);
    const binary = size(snapshot("a\u0000b", true));
    expect(keepsInline({ stdout: binary, stderr: empty }, DEFAULT_PREVIEW_BUDGET, true)).toBe(
      false,
    );
  });

  it("keeps text inline exactly when the preview shows it whole (property, byte counts only)", () => {
    const text = fc.string({
      unit: fc.constantFrom("a", "\n", " ", "é", "日", "😀"),
      maxLength: 40,
    });
    fc.assert(
      fc.property(
        text,
        text,
        fc.integer({ min: 0, max: 80 }),
        fc.integer({ min: 0, max: 80 }),
        fc.integer({ min: 0, max: 200 }),
        fc.boolean(),
        (out, err, stdoutChars, stderrChars, maxBytes, failed) => {
          const budget = { stdoutChars, stderrChars, maxBytes };
          const streams = { stdout: snapshot(out), stderr: snapshot(err) };
          const produced = { stdout: streams.stdout.total, stderr: streams.stderr.total };
          // Only a capture that never outgrew its preview gets here without storage.
          fc.pre(!outgrowsPreview(produced, budget));
          const whole = renderPreview(streams, budget, { failed, refs: null }).state === "complete";
          const sizes = { stdout: size(streams.stdout), stderr: size(streams.stderr) };
          expect(keepsInline(sizes, budget, true)).toBe(whole);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
