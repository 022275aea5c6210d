/**
 * The inputs of `spool bench redact --adversarial`: every distinct anchor of the built-in
 * catalogue in four shapes, the named inputs of the issue that found quadratic
 * assignments, and a user rule of each kind (pattern, literal, matcher) with a known value.
 *
 * The shapes: the anchor repeated (`AAAA`), repeated with an assignment separator
 * (`A=A=`), repeated with an unterminated quote (`A="A="`), and the anchor followed by a
 * run longer than any rule's hold (`A` + 600 × `x`, repeated), so repeated, unterminated,
 * overlapping and maximal-length candidates are all exercised.
 */
import {
  BUILTIN_RULES,
  type CompiledRedaction,
  compileRedaction,
  createRedactor,
  type RedactionRule,
  Verdict,
} from "@spool/transforms";

import type { LinearRatioOptions } from "./linear-ratio.js";

/** The limit: time at 2n over time at n. */
export const LINEAR = 2.1;

/** The re-measurements of a ratio still above {@link LINEAR}, each longer than the last. */
const LONGER: readonly LinearRatioOptions[] = [
  { minSeconds: 0.2, rounds: 5 },
  { minSeconds: 1, rounds: 5 },
];
/** Probes: screening, then {@link LONGER}. */
export const STAGES: readonly LinearRatioOptions[] = [
  { minSeconds: 0.004, rounds: 3, minBytes: 32768 },
  { minSeconds: 0.03, rounds: 5 },
  ...LONGER,
];
/** The named inputs: first long enough for their MB/s to mean something, then {@link LONGER}. */
export const NAMED_STAGES: readonly LinearRatioOptions[] = [
  { minSeconds: 0.1, rounds: 3 },
  ...LONGER,
];
/** One input: `unit` repeated, timed at n and 2n bytes. */
export interface Probe {
  /** The rule the anchor belongs to (`user` for the user rules and the known value). */
  readonly rule: string;
  readonly anchor: string;
  readonly shape: string;
  readonly unit: string;
}

export const SHAPES: readonly (readonly [string, (anchor: string) => string])[] = [
  ["repeated", (a) => a],
  ["A=", (a) => `${a}=`],
  ['A="', (a) => `${a}="`],
  ["A + long run", (a) => `${a}${"x".repeat(600)}`],
];

export const NAMED: readonly (readonly [string, string])[] = [
  ["repeated password=", "password="],
  ["repeated DB_PASSWORD=", "DB_PASSWORD="],
  ['repeated token=" (quoted, unterminated)', 'token="'],
  ["repeated Authorization: ", "Authorization: "],
  ["ghp_ + run (overlapping)", "ghp_ghp_"],
  ["eyJ header run (unterminated JWT)", "eyJhbGciOi"],
  ["repeated PEM BEGIN", "-----BEGIN PRIVATE KEY-----"],
  ["tokentoken (name run)", "token"],
  ["base64 run", "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo"],
  // Each run decodes to text, so each is scanned by a nested redactor: the worst case.
  [
    "short base64-of-text runs",
    `${Buffer.from("hello world, this is some text").toString("base64")} `,
  ],
  ["maximal run of one byte", "a"],
  // A value a rule redacts, then its copy on its own: the copy is found as a repeat.
  [
    "a named value and its copy (repeats)",
    "API_KEY=Zq8vLm2xQw9rTy6uIo3pAs Zq8vLm2xQw9rTy6uIo3pAs\n",
  ],
];

/** A user rule of each kind, and a self-overlapping known value. */
export const USER_RULES: readonly RedactionRule[] = [
  {
    kind: "pattern",
    name: "acme-key",
    anchors: ["acme_"],
    pattern: /acme_(?<secret>[A-Za-z0-9_]{8,})/,
    maxLength: 256,
  },
  { kind: "literal", name: "acme-literal", values: ["lit-lit-lit-lit-X"] },
  {
    kind: "matcher",
    name: "acme-digits",
    anchors: ["acme-"],
    maxLength: 32,
    start() {
      let digits = 0;
      return {
        from: 0,
        next(byte: number) {
          if (byte < 0x30 || byte > 0x39) return digits >= 12 ? Verdict.Close : Verdict.Reject;
          digits++;
          return digits >= 12 ? Verdict.Redact : Verdict.Hold;
        },
        end: () => (digits >= 12 ? Verdict.Close : Verdict.Reject),
      };
    },
  },
];
export const KNOWN_VALUE = "Xk9Xk9Xk9Xk9Q2";

/** Distinct anchors of the built-in rules. */
export function distinctAnchors(): number {
  return new Set(BUILTIN_RULES.flatMap((r) => ("anchors" in r ? [...r.anchors] : []))).size;
}

/** Every probe: each distinct anchor once (the first rule that has it), in every shape. */
export function allProbes(): Probe[] {
  const probes: Probe[] = [];
  const seen = new Set<string>();
  const add = (rule: string, anchors: readonly string[]) => {
    for (const anchor of anchors) {
      if (seen.has(anchor)) continue;
      seen.add(anchor);
      for (const [shape, unit] of SHAPES) probes.push({ rule, anchor, shape, unit: unit(anchor) });
    }
  };
  for (const rule of BUILTIN_RULES) if ("anchors" in rule) add(rule.name, rule.anchors);
  for (const rule of USER_RULES) add("user", "anchors" in rule ? rule.anchors : rule.values);
  add("user", [KNOWN_VALUE.slice(0, 9), KNOWN_VALUE.slice(0, 3)]);
  return probes;
}

/** The built-in rules with the user rules and the known value, compiled once. */
export function probeRedaction(): CompiledRedaction {
  return compileRedaction({ rules: USER_RULES, knownValues: [KNOWN_VALUE] });
}

/** The work timed: a fresh redactor over `input` in 64 KiB chunks, output dropped. */
export function redactWork(compiled: CompiledRedaction): (input: Buffer) => void {
  return (input) => {
    const redactor = createRedactor(compiled);
    for (let i = 0; i < input.length; i += 65536) redactor.push([input.subarray(i, i + 65536)]);
    redactor.end();
  };
}
