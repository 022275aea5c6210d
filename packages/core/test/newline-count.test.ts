import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countNewlines } from "../src/newline-count.js";

const naive = (b: Uint8Array) => b.reduce((n, x) => n + (x === 0x0a ? 1 : 0), 0);

describe("countNewlines", () => {
  it("counts dense output such as `yes` (the word-at-a-time path)", () => {
    expect(countNewlines(Buffer.alloc(65536, "y\n"))).toBe(32768);
    expect(countNewlines(Buffer.alloc(1001, "\n"))).toBe(1001);
  });

  it("counts sparse log-like text (the indexOf path)", () => {
    const line = "2024-01-01 INFO request handled in 12 ms, user=日本 ok\n";
    expect(countNewlines(Buffer.from(line.repeat(500)))).toBe(500);
  });

  it("agrees with a byte-by-byte count at every offset, length and density", () => {
    const bytes = fc.uint8Array({ minLength: 0, maxLength: 600 });
    fc.assert(
      fc.property(bytes, fc.nat(7), fc.double({ min: 0, max: 1, noNaN: true }), (raw, shift, p) => {
        // Mix in newlines at density p, then view at a misaligned offset.
        const buf = Buffer.alloc(raw.length + shift);
        raw.forEach((b, i) => {
          buf[shift + i] = b / 255 < p ? 0x0a : b;
        });
        const view = buf.subarray(shift);
        expect(countNewlines(view)).toBe(naive(view));
      }),
      { numRuns: 500 },
    );
  });
});
