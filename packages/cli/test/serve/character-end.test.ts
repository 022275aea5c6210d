import { isUtf8 } from "node:buffer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { characterEnd } from "../../src/serve/character-end.js";

describe("characterEnd", () => {
  it("cuts valid UTF-8 at the last whole character at or before the limit", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 60 }), fc.nat(300), (text, limit) => {
        const bytes = Buffer.from(text);
        const end = characterEnd(bytes, limit);
        expect(end).toBeLessThanOrEqual(Math.min(limit, bytes.length));
        expect(isUtf8(bytes.subarray(0, end))).toBe(true);
        expect(isUtf8(bytes.subarray(end))).toBe(true);
        // No longer cut would do: the next character does not fit under the limit.
        const rest = bytes.subarray(end).toString();
        const next =
          rest.length > 0 ? Buffer.from(String.fromCodePoint(rest.codePointAt(0) ?? 0)).length : 0;
        if (end < bytes.length) expect(end + next).toBeGreaterThan(Math.min(limit, bytes.length));
      }),
    );
  });

  it("holds back a character the buffer ends inside, and passes any cut of whole pieces", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }),
        fc.nat(),
        (text, seed) => {
          const bytes = Buffer.from(text);
          const cut = seed % (bytes.length + 1);
          const head = bytes.subarray(0, cut);
          const end = characterEnd(head, head.length);
          expect(isUtf8(head.subarray(0, end))).toBe(true);
          expect(bytes.subarray(0, end).equals(head.subarray(0, end))).toBe(true);
          expect(head.length - end).toBeLessThan(4);
        },
      ),
    );
  });
});
