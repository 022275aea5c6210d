import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileGrepPattern, type GrepPattern } from "../src/grep-pattern.js";

const all = (p: GrepPattern, text: string) => {
  const out: [number, string][] = [];
  p.lastIndex = 0;
  for (let m = p.exec(text); m !== null; m = p.exec(text)) {
    if (m[0].length === 0) {
      p.lastIndex++;
      continue;
    }
    out.push([m.index, m[0]]);
  }
  return out;
};

describe("grep patterns run in linear time", () => {
  it("finds what JavaScript's RegExp finds, for patterns both accept (property)", () => {
    const patterns = ["ab", "a|b", "a+b", "^a", "b$", "[ab]+c?", "(ab|a)b*", "é+", "x{2,3}", "."];
    fc.assert(
      fc.property(
        fc.constantFrom(...patterns),
        fc.string({ unit: fc.constantFrom("a", "b", "c", "x", "é", "😀"), maxLength: 40 }),
        fc.boolean(),
        (source, text, ignoreCase) => {
          const ours = all(compileGrepPattern(source, ignoreCase), text);
          const theirs = all(new RegExp(source, ignoreCase ? "giu" : "gu"), text);
          expect(ours).toEqual(theirs);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("decides a catastrophic pattern on a hostile line (exponential for a backtracker)", () => {
    const p = compileGrepPattern("^(a+)+$", false);
    p.lastIndex = 0;
    // A backtracking engine needs ~2^40000 steps here; the vitest timeout bounds this.
    expect(p.exec(`${"a".repeat(40000)}!`)).toBeNull();
    p.lastIndex = 0;
    expect(p.exec("a".repeat(40000))?.[0].length).toBe(40000);
  });

  it("refuses lookaround and backreferences with a usage error", () => {
    for (const source of ["a(?=b)", "(a)\\1", "(?<!x)y"]) {
      expect(() => compileGrepPattern(source, false)).toThrow(/linear-time \(RE2\)/);
    }
  });
});
