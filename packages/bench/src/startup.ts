/**
 * `spool bench startup [--rounds 15] [--report DIR]`: median wall time of
 * `spool run -- true` next to `node -e 0`, interleaved (the small-result path: no
 * directory, no worker), and of `spool run --redact-file F -- true` with a 1 MiB file of
 * 111,000 values (the largest `--redact-file` takes), with its peak RSS.
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { seededRandom } from "@spool/transforms";
import { type BenchIo, type BenchOptions, benchContext } from "./context.js";
import { measure, median } from "./measure.js";
import { type BenchReport, type Cell, emitReport, machine } from "./report.js";

export async function benchStartup(options: BenchOptions, io: BenchIo): Promise<number> {
  const c = benchContext(options);
  try {
    const rounds = c.rounds(15);
    const cases = startupCases(c.node, c.spool, c.work);
    const runs: Record<string, Cell>[] = [];
    for (let round = 1; round <= rounds; round++) {
      for (const k of cases) {
        const m = await measure(k.argv, { rssOf: "command" });
        runs.push({
          round,
          case: k.id,
          wallMs: m.wallMs,
          peakRssMiB: m.peakRssKiB === null ? null : m.peakRssKiB / 1024,
          exitCode: m.exitCode,
        });
      }
    }
    const rows = cases.map((k) => {
      const mine = runs.filter((r) => r.case === k.id);
      return {
        id: k.id,
        label: k.label,
        medianMs: median(mine.map((r) => r.wallMs as number)),
        minMs: Math.min(...mine.map((r) => r.wallMs as number)),
        peakRssMiB: Math.max(...mine.map((r) => (r.peakRssMiB as number | null) ?? Number.NaN)),
      };
    });
    const over = rows[1]!.medianMs - rows[0]!.medianMs;
    const large = rows[2]!;
    const report: BenchReport = {
      bench: "startup",
      title: `spool bench startup: median of ${rounds} interleaved runs`,
      machine: machine(),
      params: { rounds },
      columns: [
        { key: "label", label: "command" },
        { key: "medianMs", label: "median ms" },
        { key: "minMs", label: "min ms" },
        { key: "peakRssMiB", label: "peak RSS MiB (most of any round)" },
      ],
      rows,
      targets: [
        {
          name: "spool run -- true over node -e 0",
          target: "≤ 60 ms",
          value: `${over.toFixed(0)} ms`,
          met: over <= 60,
        },
        {
          name: "spool run --redact-file (1 MiB) -- true",
          target: "≤ 1 s, ≤ 256 MiB",
          value: `${large.medianMs.toFixed(0)} ms, ${large.peakRssMiB.toFixed(0)} MiB`,
          met: large.medianMs <= 1000 && large.peakRssMiB <= 256,
        },
      ],
      chart: {
        title: "Startup wall time (median, lower is better)",
        unit: "ms",
        bars: rows.map((r) => ({ label: r.label, value: r.medianMs, note: "" })),
      },
      runs,
      notes: [],
    };
    return emitReport(io, c.reportDir, report);
  } finally {
    c.dispose();
  }
}

/** The commands timed: bare Node, `spool run -- true`, and the same with a 1 MiB `--redact-file`. */
function startupCases(node: string, spool: string, work: string) {
  const root = path.join(work, "root");
  const redactFile = path.join(work, "values.txt");
  writeFileSync(redactFile, knownValuesText(111_000));
  return [
    { id: "node", label: "node -e 0", argv: [node, "-e", "0"] },
    {
      id: "spool",
      label: "spool run -- true",
      argv: [node, spool, "run", "--root", root, "--", "true"],
    },
    {
      id: "redact-file",
      label: "spool run --redact-file (1 MiB, 111,000 values) -- true",
      argv: [node, spool, "run", "--root", root, "--redact-file", redactFile, "--", "true"],
    },
  ];
}

/** `count` random values of 8 or 9 characters, one per line: 111,000 of them are just under 1 MiB. */
function knownValuesText(count: number): string {
  const random = seededRandom(1);
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    let value = "";
    const length = random() < 0.6 ? 8 : 9;
    for (let j = 0; j < length; j++) value += alphabet[Math.floor(random() * alphabet.length)];
    lines.push(value);
  }
  return `${lines.join("\n")}\n`;
}
