import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { byteBefore, mayReadNonAlnum } from "../src/candidate-set.js";
import { compileRedaction } from "../src/compile-redaction.js";
import { createRedactor, type TraceSegment } from "../src/redactor.js";
import type { MatcherRule, RedactionRule } from "../src/rule.js";
import { Verdict } from "../src/rule.js";
import { buildStartFilter, filterHit, sampleHit } from "../src/start-filter.js";
import { byteAtATime, splitAt } from "../src/testing.js";

const key = (text: string) => {
  const b = Buffer.from(text, "latin1");
  return (b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]! | 0;
};

describe("the byte before a word, as the filter sees it", () => {
  it("may read as no letter or digit wherever byteBefore reads one so, from its two bytes", () => {
    const byte = fc.oneof(
      fc.constantFrom(...'\\%unrtbf/0aF9gz"'.split("").map((c) => c.charCodeAt(0))),
      fc.nat({ max: 255 }),
    );
    fc.assert(
      fc.property(fc.array(byte, { minLength: 1, maxLength: 8 }), (before) => {
        const at = before.length;
        const read = byteBefore({ byteAt: (i) => before[i]! }, at);
        const alnum = /[A-Za-z0-9]/.test(String.fromCharCode(read));
        if (!alnum) expect(mayReadNonAlnum(before[at - 2] ?? 0, before[at - 1]!)).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });
});

describe("the byte before a word after a terminal's escape sequence", () => {
  const before = (text: string) => {
    const bytes = Buffer.from(text, "latin1");
    return byteBefore({ byteAt: (i) => bytes[i]! }, bytes.length);
  };

  it("reads the sequence as its ESC, raw or as a string writes it", () => {
    for (const esc of ["\x1b", "\\u001b", "\\u001B", "\\x1b", "\\033", "\\e", "\\u{1b}"])
      for (const sequence of ["[m", "[0m", "[1;32m", "[38;2;255;255;255m", "[2K"])
        expect(before(`log ${esc}${sequence}`)).toBe(0x1b);
    // No introducer, or one too far back to read: the letter.
    expect(before("[32m")).toBe(0x6d);
    expect(before("x\\u001c[32m")).toBe(0x6d);
    expect(before(`\\u001b[${"1;".repeat(12)}m`)).toBe(0x6d);
  });

  it("is one the filter stops for, from the two bytes before a two-byte needle", () => {
    const introducer = fc.constantFrom("\x1b", "\\u001b", "\\x1B", "\\033", "\\e", "\\u{1b}", "x");
    const parameters = fc
      .array(fc.constantFrom(..."0123456789;:<=>? !/".split("")), { maxLength: 12 })
      .map((cs) => cs.join(""));
    const final = fc.integer({ min: 0x40, max: 0x7e }).map((c) => String.fromCharCode(c));
    fc.assert(
      fc.property(fc.string({ maxLength: 4 }), introducer, parameters, final, (lead, esc, p, f) => {
        const text = Buffer.from(`${lead}${esc}[${p}${f}`, "latin1");
        const read = byteBefore({ byteAt: (i) => text[i]! }, text.length);
        if (!/[A-Za-z0-9]/.test(String.fromCharCode(read)))
          expect(mayReadNonAlnum(text[text.length - 2]!, text[text.length - 1]!)).toBe(true);
      }),
      { numRuns: 5_000 },
    );
  });
});

describe("start filter tables", () => {
  const needle = (text: string, anchor = 0) => ({ bytes: Buffer.from(text), literal: -1, anchor });

  it("stops at a key's fourth byte and at a short needle's last", () => {
    const filter = buildStartFilter([needle("token"), needle("pw", 1), needle("a b c", 2)], []);
    expect(filterHit(filter, key("toke"))).toBe(true);
    expect(filterHit(filter, key("tokx"))).toBe(false);
    expect(filterHit(filter, key("\0\0pw"))).toBe(true);
    // A whitespace run in the first symbols ends the key: any whitespace byte there.
    expect(filterHit(filter, key("\0a\t\t"))).toBe(false);
    expect(filterHit(filter, key("\0\0a\n"))).toBe(true);
    // The looks next to a stop: a key's first three bytes, a short needle and a byte.
    expect(sampleHit(filter, key("\0tok"))).toBe(true);
    expect(sampleHit(filter, key("\0pwz"))).toBe(true);
    expect(sampleHit(filter, key("\0zzz"))).toBe(false);
  });

  it("passes a two-byte needle ruled out inside a word where the bytes before are a word's", () => {
    const filter = buildStartFilter([{ ...needle("s."), boundary: true }, needle("pw", 1)], []);
    expect(filterHit(filter, key("tes."))).toBe(false); // routes.js
    expect(filterHit(filter, key("xAs."))).toBe(false);
    expect(filterHit(filter, key("t s."))).toBe(true);
    expect(filterHit(filter, key("\0\0s."))).toBe(true); // the start of the stream
    // Through an escape or percent-encoding the byte before may read as no letter.
    expect(filterHit(filter, key("\\ns."))).toBe(true);
    expect(filterHit(filter, key("22s."))).toBe(true); // %22, \u0022
    expect(filterHit(filter, key("tepw"))).toBe(true); // not ruled out: stops anywhere
  });

  it("folds ASCII case for case-insensitive needles only", () => {
    const filter = buildStartFilter([needle("Secret")], [needle("apikey")]);
    expect(filterHit(filter, key("APIK"))).toBe(true);
    expect(filterHit(filter, key("apIk"))).toBe(true);
    expect(filterHit(filter, key("Secr"))).toBe(true);
    expect(filterHit(filter, key("secr"))).toBe(false);
  });
});

// Needles and text over a few bytes, so needles overlap, repeat, nest and sit at every
// distance from each other and from chunk ends: short anchors (one to three bytes),
// case-insensitive ones, whitespace runs inside literals and known values.
const ALPHABET = ["a", "b", "A", "B", "c", " ", "\n", "\t", "-", "é"];
const word = (min: number, max: number) =>
  fc
    .array(fc.constantFrom(...ALPHABET), { minLength: min, maxLength: max })
    .map((cs) => cs.join(""));
const bare = (min: number, max: number) =>
  word(min, max).filter((w) => w.trim() === w && w.trim().length > 0);

/** Eight to eleven symbols without whitespace: needles longer than the filter's keys. */
const unbroken = fc
  .array(fc.constantFrom("a", "b", "A", "B", "c", "-", "é"), { minLength: 8, maxLength: 11 })
  .map((cs) => cs.join(""));

/** A matcher that redacts its anchor and the `b`/`B` bytes after it, up to a space. */
function matcher(name: string, anchors: string[], ignoreCase: boolean): MatcherRule {
  return {
    kind: "matcher",
    name,
    anchors,
    ignoreCase,
    maxLength: 24,
    start: (match) => {
      let n = 0;
      return {
        from: 0,
        next: (byte) => {
          if (byte === 0x62 || byte === 0x42) return ++n >= 2 ? Verdict.Redact : Verdict.Hold;
          return n >= 2 ? Verdict.Close : match.length > 2 ? Verdict.Close : Verdict.Reject;
        },
        end: () => (n >= 2 || match.length > 2 ? Verdict.Close : Verdict.Reject),
      };
    },
  };
}

const arbRules = fc
  .record({
    exact: fc.array(bare(1, 5), { minLength: 1, maxLength: 4 }),
    folded: fc.array(bare(1, 5), { maxLength: 3 }),
    literals: fc.array(bare(1, 9), { maxLength: 3 }),
    known: fc.array(bare(8, 14), { maxLength: 2 }),
    // Eight symbols or more, put into the text whole or cut short below.
    long: fc.array(unbroken, { maxLength: 2 }),
    longFolded: fc.array(unbroken, { maxLength: 2 }),
  })
  .map(({ exact, folded, literals, known, long, longFolded }) => {
    const rules: RedactionRule[] = [matcher("ex", [...exact, ...long], false)];
    if (folded.length + longFolded.length > 0)
      rules.push(matcher("fo", [...folded, ...longFolded], true));
    if (literals.length > 0) rules.push({ kind: "literal", name: "lit", values: literals });
    return { builtins: false, window: 64, rules, knownValues: known, decodeBase64: false };
  });

function run(
  compiled: ReturnType<typeof compileRedaction>,
  chunks: readonly Uint8Array[],
  startFilter: boolean,
) {
  const segments: TraceSegment[] = [];
  const add = (s: TraceSegment) => {
    // Raw segments split where chunks were flushed: merge neighbours.
    const prev = segments[segments.length - 1];
    if (prev?.kind === "raw" && s.kind === "raw" && prev.end === s.start)
      segments[segments.length - 1] = { kind: "raw", start: prev.start, end: s.end };
    else segments.push(s);
  };
  const redactor = createRedactor(compiled, { startFilter, trace: add, decodeBase64: false });
  const out: Uint8Array[] = [];
  for (const chunk of chunks) out.push(...redactor.push([chunk]));
  out.push(...redactor.end());
  return { text: Buffer.concat(out).toString("latin1"), segments, ...redactor.counters };
}

describe("start filter: redactor", () => {
  it("gives the output, spans and counters of walking the automata over every byte, for every chunking", () => {
    fc.assert(
      fc.property(
        arbRules,
        word(0, 160),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 11 }), fc.nat({ max: 160 })), { maxLength: 4 }),
        fc.array(fc.nat({ max: 200 }), { maxLength: 12 }),
        (options, random, inserts, cuts) => {
          // The longer needles, whole or cut short, put into the text (random text seldom
          // holds eight symbols of one).
          const longer = options.rules.flatMap((r) => (r.kind === "matcher" ? r.anchors : []));
          const pieces = longer.filter((a) => a.length >= 8);
          let text = random;
          for (const [which, keep, at] of inserts)
            if (pieces.length > 0) {
              const piece = pieces[which % pieces.length]!;
              text = text.slice(0, at) + piece.slice(0, Math.max(4, keep)) + text.slice(at);
            }
          const { decodeBase64: _, ...redaction } = options;
          const compiled = compileRedaction(redaction);
          const input = Buffer.from(text, "utf8");
          const slow = run(compiled, [input], false);
          expect(run(compiled, [input], true)).toEqual(slow);
          expect(run(compiled, splitAt(input, cuts), true)).toEqual(slow);
          expect(run(compiled, byteAtATime(input), true)).toEqual(slow);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("gives the same output with the built-in rules on credential-shaped text", () => {
    const compiled = compileRedaction({ knownValues: ["hunter2 hunter2", "Xk9Xk9Q2-secret"] });
    const pieces = [
      "pw=",
      "PW:",
      "s.",
      "aws",
      "AKIA",
      "://u:p@h",
      "eyJ",
      "ghp_",
      "token=",
      // Three-byte needles whose look before them stops the scan (`-u`, `pa`, `ci`).
      "-us",
      "0123456789abcdef0123456789abcdef-us12",
      "pat",
      "cio",
      "\\n",
      "%2",
      "\\u002",
      "s.0123456789abcdefABCDEFGH",
      // Longer needles read ahead for, and words that begin as they do.
      "contentful",
      "content",
      "SOURCEGRAPH",
      "sources",
      "requirepass ",
      "require",
      " ",
      "\n",
    ];
    // Escapes and percent-encoding before a short anchor: its byte before reads through them.
    const filler = fc.array(fc.constantFrom(..."aAbz09=:/._-\\%enu".split("")), {
      maxLength: 40,
    });
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constantFrom(...pieces),
            filler.map((c) => c.join("")),
          ),
          {
            maxLength: 24,
          },
        ),
        fc.array(fc.nat({ max: 400 }), { maxLength: 8 }),
        (parts, cuts) => {
          const input = Buffer.from(parts.join(""), "utf8");
          const slow = run(compiled, [input], false);
          expect(run(compiled, splitAt(input, cuts), true)).toEqual(slow);
        },
      ),
      { numRuns: 500 },
    );
  });
});
