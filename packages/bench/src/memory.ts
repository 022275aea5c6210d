/**
 * `spool bench memory [--size 1GiB] [--rounds 2] [--report DIR]`: peak RSS of `spool run`
 * capturing 64 MiB (or 1/16 of SIZE if that is less), 1/4 and all of SIZE (64 MiB, 256 MiB,
 * 1 GiB by default; `--size 4GiB`: 64 MiB, 1 GiB, 4 GiB) of mixed log text, interleaved;
 * memory must stay flat whatever the output size. Also `spool run -- sh -c 'yes | head -c
 * SIZE'` next to the same shell writing straight to a file.
 */
import { rmSync } from "node:fs";
import * as path from "node:path";
import {
  type BenchContext,
  type BenchIo,
  type BenchOptions,
  benchContext,
  MiB,
  sh,
} from "./context.js";
import { measure, median } from "./measure.js";
import { type BenchReport, type Cell, emitReport, machine } from "./report.js";
import { fmtSize } from "./throughput.js";

export async function benchMemory(options: BenchOptions, io: BenchIo): Promise<number> {
  const c = benchContext(options);
  try {
    const largest = c.size(1024 * MiB);
    const rounds = c.rounds(2);
    const sizes = [
      Math.max(1, Math.min(64 * MiB, Math.floor(largest / 16))),
      Math.max(1, Math.floor(largest / 4)),
      largest,
    ];
    const scratch = { root: path.join(c.work, "root"), out: path.join(c.work, "out.txt") };
    const cases = memoryCases(c, sizes, largest, scratch);
    const runs = await runRounds(cases, rounds, scratch, io);
    const rows = summarize(cases, runs);
    return emitReport(io, c.reportDir, memoryReport(sizes, largest, rounds, rows, runs));
  } finally {
    c.dispose();
  }
}

/** One command to measure: `rss` says whether its peak RSS is meaningful. */
interface MemoryCase {
  readonly id: string;
  readonly label: string;
  readonly size: number;
  readonly argv: string[];
  readonly rss: boolean;
}

/** Where the cases write; emptied after every run. */
interface Scratch {
  readonly root: string;
  readonly out: string;
}

type MemoryRow = ReturnType<typeof summarize>[number];

function memoryCases(
  c: BenchContext,
  sizes: readonly number[],
  largest: number,
  { root, out }: Scratch,
): MemoryCase[] {
  const yes = `yes | head -c ${largest}`;
  // Room for every byte: the default --max-bytes/--root-quota (32/128 MiB) would stop
  // persisting early and measure a capture that no longer writes.
  const store = ["--max-bytes", String(2 * largest), "--root-quota", String(2 * largest)];
  return [
    ...sizes.map((size) => ({
      id: `spool-${size}`,
      label: `spool run, ${fmtSize(size)} log text`,
      size,
      argv: [
        c.node,
        c.spool,
        "run",
        "--root",
        root,
        ...store,
        "--",
        c.node,
        c.generator,
        String(size),
      ],
      rss: true,
    })),
    {
      id: "yes-direct",
      label: `sh -c '${yes} > file'`,
      size: largest,
      argv: ["sh", "-c", `${yes} > ${sh(out)}`],
      rss: false,
    },
    {
      id: "yes-spool",
      label: `spool run -- sh -c '${yes}'`,
      size: largest,
      argv: [c.node, c.spool, "run", "--root", root, ...store, "--", "sh", "-c", yes],
      rss: true,
    },
  ];
}

/** Every case once per round, interleaved, one progress line each. */
async function runRounds(
  cases: readonly MemoryCase[],
  rounds: number,
  { root, out }: Scratch,
  io: BenchIo,
): Promise<Record<string, Cell>[]> {
  const runs: Record<string, Cell>[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const k of cases) {
      const m = await measure(k.argv, { rssOf: k.rss ? "command" : null });
      rmSync(root, { recursive: true, force: true });
      rmSync(out, { force: true });
      const rssMiB = m.peakRssKiB === null ? null : m.peakRssKiB / 1024;
      runs.push({
        round,
        case: k.id,
        wallS: m.wallMs / 1000,
        peakRssMiB: rssMiB,
        treeMaxRssMiB: m.treeMaxRssKiB === null ? null : m.treeMaxRssKiB / 1024,
        cpuS: m.cpuMs === null ? null : m.cpuMs / 1000,
        exitCode: m.exitCode,
      });
      io.stderr(
        `round ${round}/${rounds} ${k.id.padEnd(18)} ${(m.wallMs / 1000).toFixed(2)} s  peak RSS ${rssMiB === null ? "–" : rssMiB.toFixed(1)} MiB\n`,
      );
    }
  }
  return runs;
}

/** One row per case: the max peak RSS over rounds, median wall and CPU time. */
function summarize(cases: readonly MemoryCase[], runs: readonly Record<string, Cell>[]) {
  return cases.map((k) => {
    const mine = runs.filter((r) => r.case === k.id);
    const rss = k.rss ? Math.max(...mine.map((r) => (r.peakRssMiB as number | null) ?? 0)) : null;
    const wall = median(mine.map((r) => r.wallS as number));
    return {
      id: k.id,
      label: k.label,
      size: k.size,
      wallS: wall,
      mibPerS: k.size / MiB / wall,
      cpuS: median(mine.map((r) => (r.cpuS as number | null) ?? 0)),
      peakRssMiB: rss,
    };
  });
}

function memoryReport(
  sizes: readonly number[],
  largest: number,
  rounds: number,
  rows: MemoryRow[],
  runs: Record<string, Cell>[],
): BenchReport {
  const small = rows[0]!.peakRssMiB!;
  const big = rows[2]!.peakRssMiB!;
  return {
    bench: "memory",
    title: `spool bench memory: peak RSS of spool run at ${sizes.map(fmtSize).join(", ")}`,
    machine: machine(),
    params: { sizes: sizes.join(" "), rounds },
    columns: [
      { key: "label", label: "case" },
      { key: "peakRssMiB", label: "peak RSS MiB (max of rounds)" },
      { key: "wallS", label: "wall s (median)" },
      { key: "mibPerS", label: "MiB/s" },
      { key: "cpuS", label: "CPU s (tree)" },
    ],
    rows,
    targets: [
      {
        name: `peak RSS at ${fmtSize(largest)}`,
        target: "≤ 128 MiB",
        value: `${big.toFixed(1)} MiB`,
        met: big <= 128,
      },
      {
        name: `peak RSS at ${fmtSize(largest)} vs ${fmtSize(sizes[0]!)}`,
        target: "within 5%",
        value: `${(((big - small) / small) * 100).toFixed(1)}% (${small.toFixed(1)} → ${big.toFixed(1)} MiB)`,
        met: Math.abs(big - small) <= small * 0.05,
      },
    ],
    chart: {
      title: "Peak RSS of spool run by output size (flat is the goal)",
      unit: "MiB",
      bars: rows
        .filter((r) => r.peakRssMiB !== null)
        .map((r) => ({ label: r.label, value: r.peakRssMiB!, note: `${r.wallS.toFixed(2)} s` })),
    },
    runs,
    notes: [
      "Peak RSS is VmHWM of the spool process (worker threads included), polled from /proc; the yes-direct row has no capturing process.",
    ],
  };
}
