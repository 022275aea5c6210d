/**
 * `spool bench throughput [--size 1GiB] [--rounds 3] [--report DIR]`: the same child
 * (mixed log-like text from `log-generator`) captured by each variant below, interleaved
 * round by round so machine noise falls on all of them alike. Per variant: MiB/s (median
 * wall time), ratio to the direct-to-file baseline, CPU seconds of the whole process tree
 * (the generator included, the same for all), peak RSS of the capturing process.
 */
import { rmSync } from "node:fs";
import * as path from "node:path";
import { ReceiptSchema } from "@spool/core";
import {
  type BenchContext,
  type BenchIo,
  type BenchOptions,
  benchContext,
  MiB,
  sh,
} from "./context.js";
import { BENCH_SECRET_ENV, benchSecretEnv } from "./log-generator.js";
import { measure, median, type RssTarget } from "./measure.js";
import {
  type BenchReport,
  type Cell,
  emitReport,
  machine,
  type ReportTable,
  type TargetResult,
} from "./report.js";
import { stageCpuBreakdown } from "./stage-cpu.js";

interface Scratch {
  readonly out: string;
  readonly root: string;
  readonly gen: readonly string[];
  /** The generator of log lines of which one in a hundred carries a credential. */
  readonly quietGen: readonly string[];
  /** `--max-bytes` and `--root-quota` for spool: room for every byte (the defaults are 32/128 MiB). */
  readonly storeBytes: number;
}

/** One way of capturing the child's output. Adding a variant is adding an entry. */
export interface ThroughputVariant {
  readonly id: string;
  readonly label: string;
  readonly argv: (c: BenchContext, s: Scratch) => string[];
  readonly rssOf: RssTarget;
  /** `spool run --json`: the receipt is checked (complete, every byte committed). */
  readonly receipt?: boolean;
}

const spoolRun =
  (extra: readonly string[], quiet = false) =>
  (c: BenchContext, s: Scratch) => [
    c.node,
    c.spool,
    "run",
    "--root",
    s.root,
    "--json",
    "--max-bytes",
    String(s.storeBytes),
    "--root-quota",
    String(s.storeBytes),
    ...extra,
    "--",
    ...(quiet ? s.quietGen : s.gen),
  ];

export const THROUGHPUT_VARIANTS: readonly ThroughputVariant[] = [
  {
    id: "direct",
    label: "child → file (no Node)",
    argv: (_, s) => ["sh", "-c", `${s.gen.map(sh).join(" ")} > ${sh(s.out)}`],
    rssOf: null,
  },
  {
    id: "tee",
    label: "child | tee file >/dev/null",
    argv: (_, s) => ["sh", "-c", `${s.gen.map(sh).join(" ")} | tee ${sh(s.out)} >/dev/null`],
    rssOf: { name: "tee" },
  },
  {
    id: "node-plain",
    label: "Node spawn → pipeline → file",
    argv: (c, s) => [c.node, c.nodeCapture, s.out, "--", ...s.gen],
    rssOf: "command",
  },
  {
    id: "node-read",
    label: "Node spawn → read and drop (no file)",
    argv: (c, s) => [c.node, c.nodeCapture, "--discard", "--", ...s.gen],
    rssOf: "command",
  },
  {
    id: "node-sha256",
    label: "Node spawn → pipeline → sha256 → file",
    argv: (c, s) => [c.node, c.nodeCapture, s.out, "--sha256", "--", ...s.gen],
    rssOf: "command",
  },
  {
    id: "node-replacestream",
    label: "Node + replacestream (10 literals)",
    argv: (c, s) => [
      c.node,
      c.nodeCapture,
      s.out,
      ...BENCH_SECRET_ENV.flatMap((name) => ["--replace", name]),
      "--",
      ...s.gen,
    ],
    rssOf: "command",
  },
  {
    id: "spool-redact",
    label: "spool run, default redaction + 10 known secrets",
    argv: spoolRun(BENCH_SECRET_ENV.flatMap((n) => ["--redact-env", n])),
    rssOf: "command",
    receipt: true,
  },
  {
    id: "spool-run",
    label: "spool run (defaults)",
    argv: spoolRun([]),
    rssOf: "command",
    receipt: true,
  },
  {
    id: "spool-no-redact",
    label: "spool run --no-redact",
    argv: spoolRun(["--no-redact"]),
    rssOf: "command",
    receipt: true,
  },
  {
    id: "spool-run-quiet",
    label: "spool run (defaults), 1% credential lines",
    argv: spoolRun([], true),
    rssOf: "command",
    receipt: true,
  },
  {
    id: "spool-no-redact-quiet",
    label: "spool run --no-redact, 1% credential lines",
    argv: spoolRun(["--no-redact"], true),
    rssOf: "command",
    receipt: true,
  },
  {
    id: "cat-pty",
    label: "child | cat → a terminal (pty of script)",
    argv: (_, s) => ["script", "-qfec", `${s.gen.map(sh).join(" ")} | cat`, "/dev/null"],
    rssOf: null,
  },
  {
    id: "spool-live-pty",
    label: "spool run --live → the same terminal",
    argv: (c, s) => [
      "script",
      "-qfec",
      spoolRun(["--live"])(c, s)
        .filter((a) => a !== "--json")
        .map(sh)
        .join(" "),
      "/dev/null",
    ],
    rssOf: null,
  },
];

export async function benchThroughput(options: BenchOptions, io: BenchIo): Promise<number> {
  const c = benchContext(options);
  try {
    const report = await runThroughput(c, THROUGHPUT_VARIANTS, (line) => io.stderr(`${line}\n`));
    return emitReport(io, c.reportDir, report);
  } finally {
    c.dispose();
  }
}

export async function runThroughput(
  c: BenchContext,
  variants: readonly ThroughputVariant[],
  progress: (line: string) => void,
): Promise<BenchReport> {
  const size = c.size(1024 * MiB);
  const rounds = c.rounds(3);
  const env = { ...process.env, ...benchSecretEnv() };
  const scratch: Scratch = {
    out: path.join(c.work, "out.txt"),
    root: path.join(c.work, "root"),
    gen: [c.node, c.generator, String(size)],
    quietGen: [c.node, c.generator, String(size), "--quiet"],
    storeBytes: 2 * size,
  };
  const runs: Record<string, Cell>[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const v of variants) {
      const run = await measureVariant(v, round, c, scratch, size, env);
      runs.push(run);
      const wallS = run.wallS as number;
      const mibs = run.mibPerS as number;
      progress(
        `round ${round}/${rounds} ${v.id.padEnd(20)} ${mibs.toFixed(0).padStart(6)} MiB/s  ${wallS.toFixed(2)} s${run.complete === false ? "  INCOMPLETE CAPTURE" : ""}`,
      );
    }
  }
  const rows = throughputRows(variants, runs, size);
  progress(`per-stage CPU over ${fmtSize(Math.min(size, STAGE_BYTES))} in this process`);
  const stages = stageTable(c, size, rounds);
  const rate = (id: string) => rows.find((r) => r.id === id)?.mibPerS ?? null;
  const direct = rate("direct");
  for (const row of rows) row.ratioToDirect = direct ? row.mibPerS / direct : null;
  return {
    bench: "throughput",
    title: `spool bench throughput: ${fmtSize(size)} of mixed log text, ${rounds} interleaved rounds`,
    machine: machine(),
    params: { size, rounds },
    columns: [
      { key: "label", label: "variant" },
      { key: "mibPerS", label: "MiB/s (median)" },
      { key: "ratioToDirect", label: "× direct" },
      { key: "wallS", label: "wall s" },
      { key: "cpuS", label: "CPU s (tree)" },
      { key: "ownCpuSPerGiB", label: "own CPU s/GiB (capturer)" },
      { key: "peakRssMiB", label: "peak RSS MiB (capturer)" },
      { key: "complete", label: "receipt complete" },
    ],
    rows,
    tables: [stages],
    targets: throughputTargets(rate, (id) => rows.find((r) => r.id === id)?.ownCpuSPerGiB ?? null),
    chart: {
      title: `Capture throughput, ${fmtSize(size)} mixed log text (higher is better)`,
      unit: "MiB/s",
      bars: rows.map((r) => ({
        label: String(r.label),
        value: r.mibPerS,
        note: r.ratioToDirect === null ? "" : `${(r.ratioToDirect as number).toFixed(2)}× direct`,
      })),
    },
    runs,
    notes: [
      floorNote((id) => rows.find((r) => r.id === id)?.ownCpuSPerGiB ?? null),
      "CPU seconds are user+system of the whole process tree (GNU time), the generator included; own CPU is what the capturing process (spool, or the Node baseline) reports of itself at exit (user+system of all its threads, start-up and the kernel's copies included, no child), per GiB captured; peak RSS is VmHWM of the capturing process (none for direct; tee for tee; the node process otherwise).",
      "spool-redact passes the 10 known secrets with --redact-env on top of the default rules; spool-run uses the default rules only.",
      "Per-stage CPU: each part of the byte path run alone in the bench process over the recorded output of the part before it (the writer's parts over 256 KiB messages, as the queue sends them); minimum over the rounds, in CPU seconds per GiB of log text. The stages of one capture share one thread; the writer's parts run in its worker thread. The redactor also runs on two other texts: log lines of which one in a hundred carries a credential, and lines that each carry one (the bench's log text has about one in seven).",
    ],
  };
}

/**
 * What the work every capture must do costs a plain Node process in this run: reading the
 * pipe, and reading, hashing (the receipt's `sha256`) and writing the file. Spool's own CPU
 * cannot go below the second; a CPU bar below it is out of reach of any Node capture here.
 */
function floorNote(ownCpu: (id: string) => number | null): string {
  const s = (id: string) => {
    const v = ownCpu(id);
    return v === null ? "–" : `${v.toFixed(2)} s`;
  };
  return `Floor in this run, own CPU per GiB of a plain Node process: reading the pipe and dropping the bytes ${s("node-read")}; reading and writing them to a file ${s("node-plain")}; reading, hashing (SHA-256, as every receipt does) and writing ${s("node-sha256")}.`;
}

/** The per-stage figures are taken over at most this much text (held in memory, with every stage's output). */
const STAGE_BYTES = 64 * MiB;

function stageTable(c: BenchContext, size: number, rounds: number): ReportTable {
  const rows = stageCpuBreakdown({
    bytes: Math.min(size, STAGE_BYTES),
    rounds: Math.max(rounds, 3),
    dir: c.work,
  });
  return {
    title: "CPU per stage (this process, CPU s per GiB of log text, minimum over the rounds)",
    columns: [
      { key: "stage", label: "stage" },
      { key: "pieces", label: "pieces in" },
      { key: "cpuSPerGiB", label: "CPU s/GiB" },
      { key: "filterStops", label: "filter stops/MiB" },
      { key: "anchorStarts", label: "candidate starts/MiB" },
    ],
    rows: rows.map((r) => ({
      stage: r.stage,
      pieces: r.pieces,
      cpuSPerGiB: r.cpuSPerGiB,
      filterStops: r.filterStopsPerMiB === undefined ? "" : Math.round(r.filterStopsPerMiB),
      anchorStarts: r.anchorStartsPerMiB === undefined ? "" : Math.round(r.anchorStartsPerMiB),
    })),
  };
}

/** One run of one variant, its scratch output removed afterwards. */
async function measureVariant(
  v: ThroughputVariant,
  round: number,
  c: BenchContext,
  scratch: Scratch,
  size: number,
  env: NodeJS.ProcessEnv,
): Promise<Record<string, Cell>> {
  const m = await measure(v.argv(c, scratch), {
    rssOf: v.rssOf,
    env,
    output: v.receipt ? "pipe" : "ignore",
  });
  const complete = v.receipt ? receiptComplete(m.stdout, size) : null;
  rmSync(scratch.out, { force: true });
  rmSync(scratch.root, { recursive: true, force: true });
  const wallS = m.wallMs / 1000;
  return {
    round,
    variant: v.id,
    wallS,
    mibPerS: size / MiB / wallS,
    cpuS: seconds(m.cpuMs),
    ownCpuSPerGiB: m.self ? m.self.cpuMs / 1000 / (size / (1024 * MiB)) : null,
    peakRssMiB: mib(m.peakRssKiB),
    treeMaxRssMiB: mib(m.treeMaxRssKiB),
    exitCode: m.exitCode,
    complete,
  };
}

/** Whether `spool run --json` printed a complete receipt with every one of `size` bytes committed. */
function receiptComplete(stdout: Buffer, size: number): boolean {
  const parsed = ReceiptSchema.safeParse(JSON.parse(stdout.toString("utf8")));
  if (!parsed.success) return false;
  const receipt = parsed.data;
  const out = receipt.streams.stdout;
  return (
    receipt.capture.state === "complete" &&
    out.raw.observed === size &&
    out.committed === out.produced
  );
}

/** One row per variant: median wall and CPU time, max peak RSS, all rounds complete. */
function throughputRows(
  variants: readonly ThroughputVariant[],
  runs: readonly Record<string, Cell>[],
  size: number,
) {
  return variants.map((v) => {
    const mine = runs.filter((r) => r.variant === v.id);
    const wall = median(mine.map((r) => r.wallS as number));
    const cpu = mine.every((r) => r.cpuS !== null)
      ? median(mine.map((r) => r.cpuS as number))
      : null;
    const rss = mine.every((r) => r.peakRssMiB !== null)
      ? Math.max(...mine.map((r) => r.peakRssMiB as number))
      : null;
    const own = mine.every((r) => r.ownCpuSPerGiB !== null)
      ? median(mine.map((r) => r.ownCpuSPerGiB as number))
      : null;
    return {
      id: v.id,
      label: v.label,
      mibPerS: size / MiB / wall,
      wallS: wall,
      cpuS: cpu,
      ownCpuSPerGiB: own,
      peakRssMiB: rss,
      complete: v.receipt ? mine.every((r) => r.complete === true) : null,
    } as Record<string, Cell> & { id: string; mibPerS: number; ownCpuSPerGiB: number | null };
  });
}

/**
 * The bars of the performance issue: wall-time ratios from this run, and spool's own CPU
 * (its threads, not the generator's) per GiB.
 */
function throughputTargets(
  rate: (id: string) => number | null,
  ownCpu: (id: string) => number | null,
): TargetResult[] {
  const ratio = (a: string, b: string) => {
    const x = rate(a);
    const y = rate(b);
    return x !== null && y !== null ? x / y : null;
  };
  const t = (name: string, target: string, value: number | null, min: number): TargetResult => ({
    name,
    target,
    value: value === null ? "–" : `${value.toFixed(2)}×`,
    met: value === null ? null : value >= min,
  });
  const ownRatio = (a: string, b: string) => {
    const x = ownCpu(a);
    const y = ownCpu(b);
    return x !== null && y !== null ? x / y : null;
  };
  const times = (name: string, value: number | null): TargetResult => ({
    name,
    target: "≤ 2.5×",
    value: value === null ? "–" : `${value.toFixed(2)}×`,
    met: value === null ? null : value <= 2.5,
  });
  const cpu = (name: string, value: number | null, max: number): TargetResult => ({
    name,
    target: `≤ ${max.toFixed(1)} s`,
    value: value === null ? "–" : `${value.toFixed(2)} s`,
    met: value === null ? null : value <= max,
  });
  return [
    t("redacting capture vs direct-to-file", "≥ 0.6×", ratio("spool-redact", "direct"), 0.6),
    t(
      "redacting capture vs replacestream capture",
      "≥ 2×",
      ratio("spool-redact", "node-replacestream"),
      2,
    ),
    t(
      "spool run --no-redact vs plain Node capture",
      "≥ 0.9×",
      ratio("spool-no-redact", "node-plain"),
      0.9,
    ),
    cpu(
      "spool's own CPU per GiB, redacting (full catalogue + 10 secrets)",
      ownCpu("spool-redact"),
      2,
    ),
    cpu("spool's own CPU per GiB, --no-redact", ownCpu("spool-no-redact"), 0.5),
    times(
      "spool's own CPU redacting vs --no-redact (defaults)",
      ownRatio("spool-run", "spool-no-redact"),
    ),
    times(
      "the same, on log text with 1% credential lines",
      ownRatio("spool-run-quiet", "spool-no-redact-quiet"),
    ),
    live(ratio("spool-live-pty", "cat-pty")),
  ];
}

/** Live output's cost where a person sees it: a figure to report, no bar. */
function live(value: number | null): TargetResult {
  return {
    name: "spool run --live vs cat, both into a pty (script)",
    target: "reported",
    value: value === null ? "–" : `${value.toFixed(2)}×`,
    met: null,
  };
}

function mib(kib: number | null): number | null {
  return kib === null ? null : Math.round((kib / 1024) * 10) / 10;
}

export function fmtSize(bytes: number): string {
  if (bytes >= 1024 * MiB && bytes % (1024 * MiB) === 0) return `${bytes / (1024 * MiB)} GiB`;
  if (bytes >= MiB) return `${(bytes / MiB).toFixed(bytes % MiB ? 1 : 0)} MiB`;
  return `${bytes} B`;
}

function seconds(ms: number | null): number | null {
  return ms === null ? null : ms / 1000;
}
