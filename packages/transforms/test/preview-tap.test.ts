import { createPreviewTap, previewTapBudget } from "@spool/transforms";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

describe("preview tap", () => {
  it("passes batches through unchanged", () => {
    const tap = createPreviewTap({ headBytes: 4, tailBytes: 4 });
    const batch = [Buffer.from("abc"), Buffer.from("def")];
    expect(tap.push(batch)).toBe(batch);
  });

  it("keeps exactly the first and last bytes for any chunking, never more than its budget (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme-ascii", maxLength: 300 }),
        fc.array(fc.nat({ max: 300 }), { maxLength: 40, size: "max" }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 40 }),
        // Pieces pushed one per batch, or grouped into batches of up to this many.
        fc.integer({ min: 1, max: 8 }),
        (text, cuts, headBytes, tailBytes, group) => {
          const bytes = Buffer.from(text);
          const tap = createPreviewTap({ headBytes, tailBytes });
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort(
            (a, b) => a - b,
          );
          let prev = 0;
          const pieces: Buffer[] = [];
          for (const p of [...points, bytes.length]) {
            if (p > prev) pieces.push(bytes.subarray(prev, p));
            prev = p;
          }
          for (let i = 0; i < pieces.length; i += group) tap.push(pieces.slice(i, i + group));
          const snap = tap.snapshot();
          expect(snap.total).toBe(bytes.length);
          expect(snap.head.length).toBeLessThanOrEqual(headBytes);
          expect(snap.tail.length).toBeLessThanOrEqual(tailBytes);
          expect(
            Buffer.from(snap.head).equals(bytes.subarray(0, Math.min(headBytes, bytes.length))),
          ).toBe(true);
          const tailLen = Math.min(tailBytes, Math.max(0, bytes.length - headBytes));
          expect(Buffer.from(snap.tail).equals(bytes.subarray(bytes.length - tailLen))).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("never splits a character at the head's end or the tail's start", () => {
    const tap = createPreviewTap({ headBytes: 4, tailBytes: 4 });
    tap.push([Buffer.from("日本語テスト")]); // 18 bytes, 3 each
    const snap = tap.snapshot();
    expect(Buffer.from(snap.head).toString()).toBe("日");
    expect(Buffer.from(snap.tail).toString()).toBe("ト");
  });

  it("flags NUL bytes as binary-looking", () => {
    const tap = createPreviewTap(previewTapBudget(16));
    tap.push([Buffer.from([0x00, 0x41])]);
    expect(tap.snapshot().binary).toBe(true);
    const text = createPreviewTap(previewTapBudget(16));
    text.push([Buffer.from("just text\n")]);
    expect(text.snapshot().binary).toBe(false);
  });
});
