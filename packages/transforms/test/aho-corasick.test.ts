import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildAutomaton, type Needle } from "../src/aho-corasick.js";

/** Length of the longest needle that is a suffix of `text`, with whitespace runs as one symbol. */
function longestSuffixNeedle(text: string, needles: readonly string[]): number {
  const norm = (s: string) => s.replace(/\s+/g, " ").trim();
  const t = text.replace(/\s+/g, " ");
  let best = 0;
  for (const n of needles.map(norm)) if (n.length > best && t.endsWith(n)) best = n.length;
  return best;
}

/** The first needle (lowest index) of `length` symbols that `text` ends with. */
function lowestLiteralEnding(text: string, needles: readonly string[], length: number): number {
  const norm = (s: string) => s.replace(/\s+/g, " ").trim();
  const t = text.replace(/\s+/g, " ");
  return needles.findIndex((n) => norm(n).length === length && t.endsWith(norm(n)));
}

describe("aho-corasick", () => {
  it("reports the longest needle ending at each byte, with dense rows or sparse fallbacks alike", () => {
    const word = fc
      .array(fc.constantFrom("a", "b", "c", " "), { minLength: 1, maxLength: 6 })
      .map((cs) => cs.join(""));
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 8 }),
        fc.array(fc.constantFrom("a", "b", "c", " ", "\n", "d"), { maxLength: 80 }),
        (words, chars) => {
          const values = words.filter((w) => w.trim() !== "");
          fc.pre(values.length > 0);
          const needles: Needle[] = values.map((v, i) => ({
            bytes: Buffer.from(v),
            literal: i,
            anchor: -1,
          }));
          const full = buildAutomaton(needles, { collapseWhitespace: true });
          const sparse = buildAutomaton(needles, { collapseWhitespace: true, denseCells: 1 });
          expect(sparse.denseStates).toBe(1);
          let s1 = 0;
          let s2 = 0;
          let text = "";
          for (const ch of chars) {
            const byte = ch.charCodeAt(0);
            s1 = full.step(s1, full.classOf[byte]!);
            s2 = sparse.step(s2, sparse.classOf[byte]!);
            text += ch;
            const own = full.outState[s1]!;
            const length = full.depthOf(own);
            expect(sparse.depthOf(sparse.outState[s2]!)).toBe(length);
            expect(length).toBe(longestSuffixNeedle(text, values));
            // The lowest literal index among the needles that normalise to that suffix.
            if (length > 0)
              expect(full.literalOf(own)).toBe(lowestLiteralEnding(text, values, length));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("densified() keeps every state number and transition, with a dense row and scan code for each state", () => {
    const word = fc
      .array(fc.constantFrom("a", "b", "c", " "), { minLength: 1, maxLength: 7 })
      .map((cs) => cs.join(""));
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 10 }), fc.nat(3), (words, depth) => {
        const values = words.filter((w) => w.trim() !== "");
        fc.pre(values.length > 0);
        const needles: Needle[] = values.map((v, i) => ({
          bytes: Buffer.from(v),
          literal: i % 2 === 0 ? i : -1,
          anchor: i % 2 === 1 ? i : -1,
        }));
        const a = buildAutomaton(needles, { collapseWhitespace: true, denseDepth: depth });
        const full = a.densified();
        expect(full.densified()).toBe(full);
        expect(full.denseStates).toBe(a.states);
        const { classes } = a;
        for (let s = 0; s < a.states; s++) {
          for (let c = 0; c < classes; c++) {
            const target = a.step(s, c);
            expect(full.step(s, c)).toBe(target);
            expect(full.dense[s * classes + c]).toBe(target);
            // The scan code: the target's row, inverted when the target has events.
            const code = full.code[s * classes + c]!;
            expect(code < 0 ? ~code : code).toBe(target * classes);
            expect(code < 0).toBe(full.flags[target] !== 0);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it("folds ASCII case for case-insensitive anchors and reports every anchor ending at a state", () => {
    const ac = buildAutomaton(
      [
        { bytes: Buffer.from("token"), literal: -1, anchor: 0 },
        { bytes: Buffer.from("auth_token"), literal: -1, anchor: 1 },
      ],
      { foldCase: true },
    );
    let s = 0;
    for (const byte of Buffer.from("AUTH_Token")) s = ac.step(s, ac.classOf[byte]!);
    const ids = Array.from(
      ac.anchorIds.subarray(ac.anchorStart[s]!, ac.anchorStart[s + 1]!),
    ).sort();
    expect(ids).toEqual([0, 1]);
  });
});
