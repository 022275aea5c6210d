import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ESCAPE_LOOKBEHIND, InputRing } from "../src/input-ring.js";

/**
 * The ring starts small and grows as more is held: whatever chunking and however the held
 * region moves (never backwards, never longer than the window plus the look-behind), every
 * held byte reads back as the input's, before the next chunk and while it is read.
 */
describe("InputRing", () => {
  it("reads back every held byte across chunks while it grows", () => {
    const window = 1000;
    fc.assert(
      fc.property(
        // Lengths and spans past the ring's first 256 bytes (fast-check leans to small ones).
        fc.integer({ min: 300, max: 4000 }),
        fc.array(fc.oneof(fc.integer({ min: 1, max: 700 }), fc.constantFrom(255, 256, 257)), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.array(
          fc.oneof(
            fc.integer({ min: 0, max: window + ESCAPE_LOOKBEHIND }),
            fc.constantFrom(300, 600, window, window + ESCAPE_LOOKBEHIND),
          ),
          { minLength: 1 },
        ),
        (length, sizes, backs) => {
          const input = Uint8Array.from({ length }, (_, i) => (i * 7919) % 251);
          const ring = new InputRing(window);
          let base = 0;
          let heldFrom = 0;
          for (let k = 0; base < input.length; k++) {
            const chunk = input.subarray(base, base + sizes[k % sizes.length]!);
            const end = base + chunk.length;
            ring.begin(chunk, base);
            // Bytes before the chunk still held read back while it is read.
            expect(firstMismatch(ring.byteAt.bind(ring), input, heldFrom, base)).toBe(-1);
            heldFrom = Math.max(heldFrom, end - backs[k % backs.length]!);
            ring.retain(Math.max(base, heldFrom), end);
            ring.finish(end);
            base = end;
            expect(firstMismatch(ring.byteAt.bind(ring), input, heldFrom, base)).toBe(-1);
            if (heldFrom < base) {
              const copy = ring.copyBeforeChunk(heldFrom, base);
              expect(firstMismatch((p) => copy[p - heldFrom]!, input, heldFrom, base)).toBe(-1);
            }
          }
        },
      ),
    );
  });
});

/** The first offset in `[from, to)` where `read` differs from `input`, or -1. */
function firstMismatch(
  read: (p: number) => number,
  input: Uint8Array,
  from: number,
  to: number,
): number {
  for (let p = from; p < to; p++) if (read(p) !== input[p]) return p;
  return -1;
}
