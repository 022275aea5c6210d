/**
 * `spool bench redact --adversarial`: linear time on hostile input, for every anchor of the
 * built-in catalogue and for user rules of each kind (literal, pattern, matcher) and known
 * values.
 *
 * Each anchor is fed in four shapes: the anchor repeated (`AAAA`), repeated with an
 * assignment separator (`A=A=`), repeated with an unterminated quote (`A="A="`), and the
 * anchor followed by a run longer than any rule's hold (`A` + 600 × `x`, repeated), so
 * repeated, unterminated, overlapping and maximal-length candidates are all exercised.
 * Every (anchor, shape) is timed at n and 2n bytes in CPU seconds of this process (the
 * machine's load counts less than in wall time), the least of interleaved rounds; a ratio above 2.1 is measured again at
 * 8× the size with more rounds, and one still above it at 64× (2 MiB), before it counts,
 * so a noisy small sample cannot fail alone and a real quadratic (4×) cannot pass. A handful of named inputs (the ones from
 * the issue that found quadratic assignments) are timed at 1 MiB as well.
 */
import {
  BUILTIN_RULES,
  type CompiledRedaction,
  compileRedaction,
  createRedactor,
  type RedactionRule,
  Verdict,
} from "@spool/transforms";
import { type BenchReport, machine } from "./report.js";

/** The limit: time at 2n over time at n. */
const LINEAR = 2.1;
/** Screening size (bytes) of each (anchor, shape). */
const SCREEN_BYTES = 32 * 1024;
/** Confirmation size for a screened ratio above the limit. */
const CONFIRM_BYTES = 256 * 1024;
/**
 * Final size for a ratio still above the limit at CONFIRM_BYTES: at 256 KiB a run lasts
 * ~0.1 s, where JIT warm-up and one GC can still add 30% (`authorization="` repeated read
 * 2.78× there and 1.95–2.07× from 1 to 4 MiB).
 */
const FINAL_BYTES = 2 * 1024 * 1024;

const SHAPES: readonly (readonly [string, (anchor: string) => string])[] = [
  ["repeated", (a) => a],
  ["A=", (a) => `${a}=`],
  ['A="', (a) => `${a}="`],
  ["A + long run", (a) => `${a}${"x".repeat(600)}`],
];

const NAMED: readonly (readonly [string, string])[] = [
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
];

/** A user rule of each kind, and a self-overlapping known value. */
const USER_RULES: readonly RedactionRule[] = [
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
const KNOWN_VALUE = "Xk9Xk9Xk9Xk9Q2";

interface Probe {
  readonly rule: string;
  readonly anchor: string;
  readonly shape: string;
  readonly unit: string;
}

/** The adversarial report (see the file's comment). */
export function adversarialReport(): BenchReport {
  const compiled = compileRedaction({ rules: USER_RULES, knownValues: [KNOWN_VALUE] });
  const probes = allProbes();
  const byRule = new Map<string, { probes: number; worst: number; at: string }>();
  let confirmed = 0;
  let finals = 0;
  for (const probe of probes) {
    let ratio = timeRatio(compiled, probe.unit, SCREEN_BYTES, 3);
    if (ratio > LINEAR) {
      confirmed++;
      ratio = timeRatio(compiled, probe.unit, CONFIRM_BYTES, 5);
      if (ratio > LINEAR) {
        finals++;
        ratio = timeRatio(compiled, probe.unit, FINAL_BYTES, 3);
      }
    }
    const entry = byRule.get(probe.rule) ?? { probes: 0, worst: 0, at: "" };
    entry.probes++;
    if (ratio > entry.worst) {
      entry.worst = ratio;
      entry.at = `${JSON.stringify(probe.anchor)} ${probe.shape}`;
    }
    byRule.set(probe.rule, entry);
  }
  const named = NAMED.map(([input, unit]) => {
    const n = 1024 * 1024;
    const { ratio, seconds } = timed(compiled, unit, n, 5);
    return { input, mbPerSecond: round(n / 1e6 / seconds), ratio };
  });
  const ruleRows = [...byRule].map(([rule, e]) => ({
    input: `${rule}: ${e.probes} probes, worst at ${e.at}`,
    mbPerSecond: null,
    ratio: e.worst,
  }));
  const rows = [...named, ...ruleRows];
  const worst = Math.max(...rows.map((r) => r.ratio));
  const anchors = BUILTIN_RULES.reduce((n, r) => n + ("anchors" in r ? r.anchors.length : 0), 0);
  const probed = new Set(probes.filter((p) => p.rule !== "user").map((p) => p.anchor)).size;
  return {
    bench: "redact-adversarial",
    title: "spool bench redact --adversarial: time at 2× input for hostile inputs (linear ≤ 2.1×)",
    machine: machine(),
    params: {
      screenBytes: SCREEN_BYTES,
      confirmBytes: CONFIRM_BYTES,
      finalBytes: FINAL_BYTES,
      namedBytes: 1024 * 1024,
    },
    columns: [
      { key: "input", label: "input" },
      { key: "mbPerSecond", label: "MB/s at n (CPU)" },
      { key: "ratio", label: "CPU time at 2n / at n" },
    ],
    rows,
    targets: [
      { name: "worst ratio", target: `≤ ${LINEAR}×`, value: `${worst}×`, met: worst <= LINEAR },
      {
        name: "built-in anchors probed",
        target: `all ${anchors} (distinct: ${distinctAnchors()})`,
        value: `${probed} distinct`,
        met: probed === distinctAnchors(),
      },
    ],
    chart: {
      title: "CPU time at 2× input (lower is better, 2 = linear)",
      unit: "×",
      bars: rows.map((r) => ({ label: r.input.slice(0, 40), value: r.ratio, note: "" })),
    },
    runs: [],
    notes: [
      `${probes.length} probes (every built-in anchor × ${SHAPES.length} shapes, user rules, a known value); ${confirmed} screened above ${LINEAR} and measured again at ${CONFIRM_BYTES} bytes, ${finals} of them still above it and measured at ${FINAL_BYTES} bytes.`,
      "CPU seconds of the bench process, least of interleaved rounds, 64 KiB chunks; built-in rules plus a pattern, a literal and a matcher rule and a known value.",
    ],
  };
}

function distinctAnchors(): number {
  return new Set(BUILTIN_RULES.flatMap((r) => ("anchors" in r ? [...r.anchors] : []))).size;
}

function allProbes(): Probe[] {
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

function timeRatio(compiled: CompiledRedaction, unit: string, n: number, rounds: number): number {
  return timed(compiled, unit, n, rounds).ratio;
}

/**
 * Least CPU seconds at n and 2n bytes of `unit` repeated, rounds interleaved: other
 * work on the machine (and this process's GC and compiler threads) only ever adds time,
 * so the least of several rounds is the steadiest estimate of the work itself.
 */
function timed(compiled: CompiledRedaction, unit: string, n: number, rounds: number) {
  const make = (size: number) =>
    Buffer.from(unit.repeat(Math.ceil(size / unit.length)).slice(0, size), "latin1");
  const small = make(n);
  const large = make(2 * n);
  cpuSeconds(compiled, make(n / 4)); // warm up
  const a: number[] = [];
  const b: number[] = [];
  for (let round = 0; round < rounds; round++) {
    a.push(cpuSeconds(compiled, small));
    b.push(cpuSeconds(compiled, large));
  }
  const seconds = Math.min(...a);
  return { seconds, ratio: Math.round((Math.min(...b) / Math.max(seconds, 1e-6)) * 100) / 100 };
}

function cpuSeconds(compiled: CompiledRedaction, text: Buffer): number {
  const t0 = process.cpuUsage();
  const redactor = createRedactor(compiled);
  for (let i = 0; i < text.length; i += 65536) redactor.push([text.subarray(i, i + 65536)]);
  redactor.end();
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / 1e6;
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}
