import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileRedaction, type HeldText } from "../src/compile-redaction.js";
import { createRedactor, type TraceSegment } from "../src/redactor.js";
import { Verdict } from "../src/rule.js";
import { byteAtATime, splitAt } from "../src/testing.js";

// Pieces of credentials and of what ends them, so random texts run through every phase of
// every built-in rule (names, separators, quotes, escapes, alphabets, limits).
const FRAGMENTS = [
  "Authorization: Bearer ",
  'authorization="',
  "Proxy-Authorization: Basic ",
  "Token ",
  "eyJ",
  "eyJhbGciOiJIUzI1NiJ9.",
  ".",
  "AKIA",
  "ghp_",
  "github_pat_",
  "glpat-",
  "xoxb-",
  "sk-",
  "sk-ant-",
  "AIza",
  "npm_",
  // A token whose rule claims the 14 bytes before it, and a bare AWS secret key's shape.
  ".atlasv1.",
  "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  "token=",
  "TOKEN: ",
  "api_key",
  '"password": "',
  "passwd := ",
  "secret=>",
  "aws_secret_access_key = ",
  "://",
  "https://user:pw@host/",
  // A keyword as a URL's user: its password ends at the `@`, however long (past the bytes
  // a value is judged on).
  "https://x-access-token:",
  "https://x-access-token:aB3Xk9mP2qL8vR4tW6yZaB3Xk9mP2qL8vR4tW6yZaB3Xk9mP2qL8vR4tW6yZ@github.com/o/r",
  "@github.com/o/r",
  // A URL query's value: a `&` or the fragment's `#` ends it.
  "?token=",
  "#",
  "pat_",
  "-----BEGIN RSA PRIVATE KEY-----\n",
  "-----END RSA PRIVATE KEY-----",
  // Contexts and escapes: percent-encoded bodies, XML values, connection and query
  // strings, a keyword and a space, crypt hashes, curl's user.
  "%2F",
  "%3D",
  "%",
  "bedrock-api-key-",
  "<aToken>",
  "</aToken>",
  ";Password=",
  "&user=",
  "password ",
  "$2b$12$",
  "curl -u ",
  "\\u0022",
  "\\n",
  '\\"',
  "\\",
  "'",
  '"',
  " ",
  "\n",
  "\t",
  "=",
  ":",
  "@",
  "/",
  "-",
  "_",
  ",",
  ";",
  // Comparisons, doubled separators, C arrays, a statement's argument, a vendor's name and
  // a word after it, Bundler's settings.
  " == ",
  "!==",
  " ||= ",
  "??=",
  "[64]",
  "[]",
  '";',
  "secret ",
  "aws key ",
  "SONAR_LOGIN",
  "BUNDLE_GEMS__X__COM",
  "tokens",
  "Tokenizer",
  "é",
  "日本",
  // Separators that end an unquoted value as a blank does (two and three bytes).
  "\u00a0",
  "。",
  "、",
];
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const run = fc
  .array(fc.constantFrom(...ALNUM.split("")), { minLength: 1, maxLength: 90 })
  .map((cs) => cs.join(""));
const arbText = fc
  .array(fc.oneof(fc.constantFrom(...FRAGMENTS), run, fc.constant("x".repeat(600))), {
    minLength: 1,
    maxLength: 30,
  })
  .map((parts) => Buffer.from(parts.join(""), "utf8"));

const PATTERN = {
  kind: "pattern" as const,
  name: "pat",
  anchors: ["pat_"],
  pattern: /pat_(?<secret>[a-z0-9A-Z]{6,})/,
  maxLength: 40,
};

describe("skip fast path: candidates", () => {
  const compiled = compileRedaction({ rules: [PATTERN] });

  it("consumes exactly the bytes `next` would give the last verdict, leaving the same state", () => {
    fc.assert(
      fc.property(
        fc.nat({ max: compiled.exactAnchors.length - 1 }),
        arbText,
        fc.array(fc.nat({ max: 200 }), { maxLength: 64 }),
        (which, tail, limits) => {
          const anchor = compiled.exactAnchors[which]!;
          const input = Buffer.concat([Buffer.from(anchor.anchor, "utf8"), tail]);
          const length = Buffer.byteLength(anchor.anchor);
          const held: HeldText = { latin1: (s, e) => input.toString("latin1", s, e) };
          const match = { anchor: anchor.anchor, length, before: -1 };
          const slow = anchor.start(match, held, 0);
          const fast = anchor.start(match, held, 0);
          if (slow === undefined || fast === undefined) {
            expect(fast).toBe(slow);
            return;
          }
          let i = length;
          let last = -1;
          let k = 0;
          while (i < input.length) {
            if (last >= 0 && fast.skip !== undefined) {
              const end = Math.min(
                input.length,
                i + (limits[k++ % Math.max(1, limits.length)] ?? 0),
              );
              let from = fast.from;
              const j = fast.skip(input, i, end);
              expect(j).toBeGreaterThanOrEqual(i);
              expect(j).toBeLessThanOrEqual(end);
              for (; i < j; i++) {
                expect(slow.next(input[i]!)).toBe(last);
                expect(slow.from).toBeGreaterThanOrEqual(from);
                from = slow.from;
              }
              expect(fast.from).toBe(slow.from);
              if (i >= input.length) break;
            }
            const a = slow.next(input[i]!);
            const b = fast.next(input[i]!);
            expect(b).toBe(a);
            expect(fast.from).toBe(slow.from);
            if (a === Verdict.Close) expect(fast.to).toBe(slow.to);
            i++;
            last = a;
            if (a !== Verdict.Hold && a !== Verdict.Redact) return;
          }
          expect(fast.end()).toBe(slow.end());
          expect(fast.from).toBe(slow.from);
        },
      ),
      { numRuns: 600 },
    );
  });
});

describe("skip fast path: redactor", () => {
  const variants = [
    compileRedaction({ rules: [PATTERN] }),
    compileRedaction({ window: 4200, knownValues: ["hunter2-hunter2", "Xk9Xk9Q2"] }),
    compileRedaction({ window: 64, builtins: false, rules: [PATTERN] }),
  ];
  const trace = (
    source: (typeof variants)[number],
    chunks: readonly Uint8Array[],
    skip: boolean,
  ) => {
    // Raw segments split where chunks were flushed: merge neighbours.
    const segments: TraceSegment[] = [];
    const add = (s: TraceSegment) => {
      const prev = segments[segments.length - 1];
      if (prev?.kind === "raw" && s.kind === "raw" && prev.end === s.start)
        segments[segments.length - 1] = { kind: "raw", start: prev.start, end: s.end };
      else segments.push(s);
    };
    const redactor = createRedactor(source, { skip, trace: add });
    const out: Uint8Array[] = [];
    for (const chunk of chunks) out.push(...redactor.push([chunk]));
    out.push(...redactor.end());
    return { text: Buffer.concat(out).toString("latin1"), segments, ...redactor.counters };
  };

  it("gives the same output, spans and counters as feeding candidates byte by byte", () => {
    fc.assert(
      fc.property(
        fc.nat({ max: variants.length - 1 }),
        arbText,
        fc.array(fc.nat({ max: 4000 }), { maxLength: 24 }),
        (which, text, cuts) => {
          const source = variants[which]!;
          const slow = trace(source, [text], false);
          expect(trace(source, [text], true)).toEqual(slow);
          expect(trace(source, splitAt(text, cuts), true)).toEqual(slow);
          if (text.length <= 2000) expect(trace(source, byteAtATime(text), true)).toEqual(slow);
        },
      ),
      { numRuns: 400 },
    );
  });
});
