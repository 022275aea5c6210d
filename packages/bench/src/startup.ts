/**
 * `spool bench startup [--rounds 15] [--report DIR]`: median wall time of
 * `spool run -- true` next to `node -e 0`, interleaved (the small-result path: no
 * directory, no worker).
 */
import * as path from "node:path";
import { type BenchIo, type BenchOptions, benchContext } from "./context.js";
import { measure, median } from "./measure.js";
import { type BenchReport, type Cell, emitReport, machine } from "./report.js";

export async function benchStartup(options: BenchOptions, io: BenchIo): Promise<number> {
  const c = benchContext(options);
  try {
    const rounds = c.rounds(15);
    const cases = [
      { id: "node", label: "node -e 0", argv: [c.node, "-e", "0"] },
      {
        id: "spool",
        label: "spool run -- true",
        argv: [c.node, c.spool, "run", "--root", path.join(c.work, "root"), "--", "true"],
      },
    ];
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
      };
    });
    const over = rows[1]!.medianMs - rows[0]!.medianMs;
    const report: BenchReport = {
      bench: "startup",
      title: `spool bench startup: median of ${rounds} interleaved runs`,
      machine: machine(),
      params: { rounds },
      columns: [
        { key: "label", label: "command" },
        { key: "medianMs", label: "median ms" },
        { key: "minMs", label: "min ms" },
      ],
      rows,
      targets: [
        {
          name: "spool run -- true over node -e 0",
          target: "≤ 60 ms",
          value: `${over.toFixed(0)} ms`,
          met: over <= 60,
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
