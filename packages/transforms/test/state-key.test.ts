import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CompiledAnchor, compileRedaction } from "../src/compile-redaction.js";
import { createRedactor } from "../src/redactor.js";
import type { Candidate } from "../src/rule.js";
import { byteAtATime, splitAt } from "../src/testing.js";

// Anchors repeated back to back, overlapping and unterminated: the inputs where one
// candidate per occurrence would be quadratic, and where dropping a candidate whose state
// key equals an older one's must change nothing.
const ANCHORS = [
  "password=",
  "PASSWORD=",
  "DB_PASSWORD=",
  "secret_key=",
  "token=",
  'token="',
  "secret=",
  "api_key=",
  "apikey:",
  "Authorization: ",
  'Authorization: "',
  "xoxb-",
  "ghp_",
  "eyJhbGciOi.eyJ",
  "-----BEGIN PRIVATE KEY-----",
  "-----END",
  "https://u:p",
  "pat_",
  "\\",
  "a",
  "=",
  " ",
  "\n",
  '"',
];
const arbText = fc
  .array(
    fc
      .tuple(fc.constantFrom(...ANCHORS), fc.integer({ min: 1, max: 40 }))
      .map(([a, n]) => a.repeat(n)),
    { minLength: 1, maxLength: 12 },
  )
  .map((parts) => Buffer.from(parts.join(""), "latin1"));

const PATTERN = {
  kind: "pattern" as const,
  name: "pat",
  anchors: ["pat_"],
  pattern: /pat_(?<secret>[a-z_0-9A-Z]{6,})/,
  maxLength: 40,
};

/** The same candidate without `stateKey`: the redactor then keeps every candidate. */
function keyless(cand: Candidate): Candidate {
  return {
    get from() {
      return cand.from;
    },
    get to() {
      return cand.to;
    },
    next: (byte) => cand.next(byte),
    end: () => cand.end(),
    ...(cand.skip === undefined ? {} : { skip: (i, s, e) => cand.skip!(i, s, e) }),
  };
}

const withoutKeys = (anchors: readonly CompiledAnchor[]): CompiledAnchor[] =>
  anchors.map((a) => ({
    ...a,
    start: (match, held, at) => {
      const cand = a.start(match, held, at);
      return cand === undefined ? undefined : keyless(cand);
    },
  }));

describe("state keys", () => {
  const variants = [
    compileRedaction({ rules: [PATTERN] }),
    compileRedaction({ window: 4200, rules: [PATTERN] }),
  ];
  const run = (source: ReturnType<typeof compileRedaction>, chunks: readonly Uint8Array[]) => {
    const redactor = createRedactor(source);
    const out: Uint8Array[] = [];
    for (const chunk of chunks) out.push(...redactor.push([chunk]));
    out.push(...redactor.end());
    return { text: Buffer.concat(out).toString("latin1"), ...redactor.counters };
  };

  it("keeping one candidate per key changes no output under any chunking", () => {
    fc.assert(
      fc.property(
        fc.nat({ max: variants.length - 1 }),
        arbText,
        fc.array(fc.nat({ max: 3000 }), { maxLength: 16 }),
        (which, text, cuts) => {
          const source = variants[which]!;
          const reference = run(
            {
              ...source,
              exactAnchors: withoutKeys(source.exactAnchors),
              foldedAnchors: withoutKeys(source.foldedAnchors),
            },
            [text],
          );
          expect(run(source, [text])).toEqual(reference);
          expect(run(source, splitAt(text, cuts))).toEqual(reference);
          if (text.length <= 1500) expect(run(source, byteAtATime(text))).toEqual(reference);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("redacts a run of repeated anchors whole", () => {
    const text = `${"password=".repeat(5000)}\nok`;
    expect(run(variants[0]!, [Buffer.from(text)]).text).toBe(
      "password=[REDACTED:secret-assignment]\nok",
    );
  });
});
