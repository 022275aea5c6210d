/**
 * `spool bench redact --adversarial`: linear time on hostile input, for every anchor of the
 * built-in catalogue and for user rules of each kind (literal, pattern, matcher) and known
 * values (the inputs: `adversarial-probes.ts`).
 *
 * The timing runs in a child process (`redact-ratio-child.ts`) started with
 * `--expose-gc --single-threaded`, which `linear-ratio.ts` needs for an honest figure: CPU
 * seconds with V8's helper threads' work inside the run that causes it, a minor GC before
 * every run, n sized so a run lasts long enough, interleaved rounds and the ratio of
 * their totals.
 * Every (anchor, shape) is screened with runs of ≥ 4 ms; a ratio above 2.1 is measured
 * again with runs of ≥ 30 ms, then ≥ 200 ms, then ≥ 1 s before it counts. The named inputs
 * start at ≥ 100 ms and go on the same way.
 */
import { spawn } from "node:child_process";
import { BUILTIN_RULES } from "@spool/transforms";
import { distinctAnchors, LINEAR, NAMED_STAGES, SHAPES, STAGES } from "./adversarial-probes.js";
import { REDACT_RATIO_CHILD } from "./programs.js";
import { type ChildLine, ChildLineSchema, type StageFigure } from "./redact-ratio-lines.js";
import { type BenchReport, machine } from "./report.js";

/** What to measure: everything (the bench), or a few probes briefly (a smoke test). */
export interface AdversarialOptions {
  /** Only the first `limit` probes and named inputs. @default all */
  readonly limit?: number;
  /** Runs of a millisecond, one round: checks the plumbing, measures nothing. @default false */
  readonly quick?: boolean;
}

type ProbeLine = Extract<ChildLine, { kind: "probe" }>;
type NamedLine = Extract<ChildLine, { kind: "named" }>;

/** The adversarial report (see the file's comment). */
export async function adversarialReport(options: AdversarialOptions = {}): Promise<BenchReport> {
  const lines = await runChild(options);
  const probes = lines.filter((l): l is ProbeLine => l.kind === "probe");
  const byRule = new Map<string, { probes: number; worst: number; at: string }>();
  for (const probe of probes) {
    const { ratio } = last(probe);
    const entry = byRule.get(probe.rule) ?? { probes: 0, worst: 0, at: "" };
    entry.probes++;
    if (ratio > entry.worst) {
      entry.worst = ratio;
      entry.at = probeName(probe);
    }
    byRule.set(probe.rule, entry);
  }
  const namedLines = lines.filter((l): l is NamedLine => l.kind === "named");
  const named = namedLines.map((l) => ({
    input: l.input,
    mbPerSecond: mbPerSecond(l.stages[0]!),
    ratio: last(l).ratio,
  }));
  const ruleRows = [...byRule].map(([rule, e]) => ({
    input: `${rule}: ${e.probes} probes, worst at ${e.at}`,
    mbPerSecond: null,
    ratio: e.worst,
  }));
  const rows = [...named, ...ruleRows];
  const worst = Math.max(...rows.map((r) => r.ratio));
  const remeasured = probes.filter((p) => p.stages.length > 1);
  return {
    bench: "redact-adversarial",
    title: "spool bench redact --adversarial: time at 2× input for hostile inputs (linear ≤ 2.1×)",
    machine: machine(),
    params: {
      stages: STAGES.map((s) => `≥${s.minSeconds}s×${s.rounds}`).join(" → "),
      named: NAMED_STAGES.map((s) => `≥${s.minSeconds}s×${s.rounds}`).join(" → "),
      quick: options.quick ?? false,
    },
    columns: [
      { key: "input", label: "input" },
      { key: "mbPerSecond", label: "MB/s at n (CPU)" },
      { key: "ratio", label: "CPU time at 2n / at n" },
    ],
    rows,
    tables: [slowestTable(probes)],
    targets: [
      { name: "worst ratio", target: `≤ ${LINEAR}×`, value: `${worst}×`, met: worst <= LINEAR },
      anchorsTarget(probes),
    ],
    chart: {
      title: "CPU time at 2× input (lower is better, 2 = linear)",
      unit: "×",
      bars: rows.map((r) => ({ label: r.input.slice(0, 40), value: r.ratio, note: "" })),
    },
    runs: [
      ...namedLines.map((l) => [l.input, l] as const),
      ...remeasured.map((p) => [probeName(p), p] as const),
    ]
      .filter(([, l]) => l.stages.length > 1)
      .map(([probe, l]) => ({
        probe,
        ratios: l.stages.map((s) => s.ratio).join(" → "),
        bytes: l.stages.map((s) => s.bytes).join(" → "),
      })),
    notes: [
      `${probes.length} probes (every built-in anchor × ${SHAPES.length} shapes, user rules, a known value); ${remeasured.length} screened above ${LINEAR} and measured again with longer runs, ${remeasured.filter((p) => p.stages.length > 2).length} of them more than once (each in the report's runs, with the named inputs measured again).`,
      "CPU seconds of a child process run with --expose-gc --single-threaded: n sized so a run lasts the stage's time, a minor GC before each run, interleaved rounds (n, 2n), total CPU at 2n over total at n; 64 KiB chunks; built-in rules plus a pattern, a literal and a matcher rule and a known value.",
    ],
  };
}

/** Spawn the measuring child and collect its lines. */
function runChild(options: AdversarialOptions): Promise<ChildLine[]> {
  const args = ["--expose-gc", "--single-threaded", REDACT_RATIO_CHILD, JSON.stringify(options)];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  let text = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (data: string) => {
    text += data;
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code !== 0) {
        reject(
          new Error(`bench redact --adversarial: the measuring child ended with ${signal ?? code}`),
        );
        return;
      }
      resolve(
        text
          .split("\n")
          .flatMap((line) => (line === "" ? [] : [ChildLineSchema.parse(JSON.parse(line))])),
      );
    });
  });
}

/** The slowest probes by MB/s at n (screening figure): linear, but where the time goes. */
function slowestTable(probes: readonly ProbeLine[]) {
  const rows = probes
    .map((p) => ({
      probe: probeName(p),
      mbPerSecond: mbPerSecond(p.stages[0]!),
      ratio: last(p).ratio,
    }))
    .sort((a, b) => a.mbPerSecond - b.mbPerSecond)
    .slice(0, 8);
  return {
    title: "Slowest probes (MB/s of CPU at n, screening)",
    columns: [
      { key: "probe", label: "probe" },
      { key: "mbPerSecond", label: "MB/s at n (CPU)" },
      { key: "ratio", label: "CPU time at 2n / at n" },
    ],
    rows,
  };
}

function anchorsTarget(probes: readonly ProbeLine[]) {
  const anchors = BUILTIN_RULES.reduce((n, r) => n + ("anchors" in r ? r.anchors.length : 0), 0);
  const probed = new Set(probes.filter((p) => p.rule !== "user").map((p) => p.anchor)).size;
  return {
    name: "built-in anchors probed",
    target: `all ${anchors} (distinct: ${distinctAnchors()})`,
    value: `${probed} distinct`,
    met: probed === distinctAnchors(),
  };
}

function last(line: { readonly stages: readonly StageFigure[] }): StageFigure {
  return line.stages[line.stages.length - 1]!;
}

function probeName(probe: ProbeLine): string {
  return `${JSON.stringify(probe.anchor)} ${probe.shape}`;
}

function mbPerSecond(f: StageFigure): number {
  return Math.round((f.bytes / 1e6 / Math.max(f.seconds, 1e-6)) * 10) / 10;
}
