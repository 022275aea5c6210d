import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseRange } from "../../src/serve/range-header.js";

describe("parseRange", () => {
  it("answers every single bytes range like the RFC 9110 model", () => {
    fc.assert(
      fc.property(
        fc.nat(10_000),
        fc.option(fc.nat(20_000), { nil: undefined }),
        fc.option(fc.nat(20_000), { nil: undefined }),
        (length, a, b) => {
          const header = `bytes=${a ?? ""}-${b ?? ""}`;
          const got = parseRange(header, length);
          if (a === undefined && b === undefined) {
            expect(got.kind).toBe("ignored");
            return;
          }
          if (a === undefined) {
            const n = b as number;
            if (n === 0 || length === 0) {
              expect(got.kind).toBe("unsatisfiable");
              return;
            }
            expect(got).toEqual({ kind: "range", start: Math.max(0, length - n), end: length });
            return;
          }
          if (b !== undefined && b < a) {
            expect(got.kind).toBe("ignored");
            return;
          }
          if (a >= length) {
            expect(got.kind).toBe("unsatisfiable");
            return;
          }
          const end = b === undefined ? length : Math.min(length, b + 1);
          expect(got).toEqual({ kind: "range", start: a, end });
          // Never empty, never past the readable length.
          expect(end).toBeGreaterThan(a);
          expect(end).toBeLessThanOrEqual(length);
        },
      ),
    );
  });

  it("refuses more than one range, and ignores what is not a bytes range", () => {
    expect(parseRange("bytes=0-1,3-4", 10)).toEqual({ kind: "multiple" });
    expect(parseRange("bytes=0-1, -3", 10)).toEqual({ kind: "multiple" });
    expect(parseRange("items=0-1", 10)).toEqual({ kind: "ignored" });
    expect(parseRange("bytes=a-b", 10)).toEqual({ kind: "ignored" });
  });

  it("reads numbers past 2^53 exactly: a huge start is 416, a huge end is the stream's end", () => {
    const past = ["9007199254740992", "9007199254740993", "99999999999999999999", "1".repeat(64)];
    for (const n of past) {
      expect(parseRange(`bytes=${n}-`, 10)).toEqual({ kind: "unsatisfiable" });
      expect(parseRange(`bytes=${n}-${n}`, 10)).toEqual({ kind: "unsatisfiable" });
      expect(parseRange(`bytes=3-${n}`, 10)).toEqual({ kind: "range", start: 3, end: 10 });
      expect(parseRange(`bytes=-${n}`, 10)).toEqual({ kind: "range", start: 0, end: 10 });
    }
    // 2^53 + 1 would round to 2^53 as a double: still exactly before it, so no range.
    expect(parseRange("bytes=9007199254740993-9007199254740992", 10)).toEqual({ kind: "ignored" });
    // Leading zeros are the same number; more than 64 digits is refused, not ignored.
    expect(parseRange(`bytes=${"0".repeat(60)}5-`, 10)).toEqual({
      kind: "range",
      start: 5,
      end: 10,
    });
    expect(parseRange(`bytes=${"9".repeat(65)}-`, 10)).toEqual({ kind: "overlong" });
    expect(parseRange("bytes=1e3-", 10_000)).toEqual({ kind: "ignored" });
    expect(parseRange("bytes=+5-", 10)).toEqual({ kind: "ignored" });
  });
});
