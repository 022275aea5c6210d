/**
 * `spool bench binary [--size 40MB] [--rounds 3] [--report DIR]`: CPU seconds (all threads,
 * as `spool` reports itself) of capturing SIZE random bytes with the default `--binary
 * text` next to `--binary keep`, interleaved, best of the rounds each. Text mode decodes
 * (every invalid sequence becomes the three bytes of U+FFFD), strips ANSI and redacts
 * about 1.8× the bytes; the target is at most 2× the CPU of keeping them raw.
 */
import { randomFillSync } from "node:crypto";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { type BenchIo, type BenchOptions, benchContext } from "./context.js";
import { measure } from "./measure.js";
import { type BenchReport, type Cell, emitReport, machine } from "./report.js";

const MODES = ["keep", "text"] as const;

export async function benchBinary(options: BenchOptions, io: BenchIo): Promise<number> {
  const c = benchContext(options);
  try {
    const size = c.size(40_000_000);
    const rounds = c.rounds(3);
    const input = path.join(c.work, "random.bin");
    writeFileSync(input, randomFillSync(Buffer.alloc(size)));
    const runs: Record<string, Cell>[] = [];
    for (let round = 1; round <= rounds; round++) {
      for (const mode of MODES) {
        const root = path.join(c.work, `root-${mode}-${round}`);
        const argv = [
          c.node,
          c.spool,
          "run",
          "--root",
          root,
          "--binary",
          mode,
          "--stall-ms",
          "60000",
        ];
        const limits = ["--max-bytes", "4GiB", "--root-quota", "8GiB", "--", "cat", input];
        const m = await measure([...argv, ...limits], { rssOf: "command" });
        io.stderr(`round ${round} ${mode}: ${m.self?.cpuMs.toFixed(0)} ms CPU\n`);
        runs.push({
          round,
          mode,
          cpuS: (m.self?.cpuMs ?? Number.NaN) / 1000,
          exitCode: m.exitCode,
        });
      }
    }
    const best = (mode: string) =>
      Math.min(...runs.filter((r) => r.mode === mode).map((r) => r.cpuS as number));
    const rows = MODES.map((mode) => ({ mode: `--binary ${mode}`, bestCpuS: best(mode) }));
    const ratio = best("text") / best("keep");
    const report: BenchReport = {
      bench: "binary",
      title: `spool bench binary: ${size} random bytes, CPU s best of ${rounds} interleaved`,
      machine: machine(),
      params: { size, rounds },
      columns: [
        { key: "mode", label: "mode" },
        { key: "bestCpuS", label: "CPU s (best)" },
      ],
      rows,
      targets: [
        {
          name: "--binary text over --binary keep (CPU)",
          target: "≤ 2×",
          value: `${ratio.toFixed(2)}×`,
          met: ratio <= 2,
        },
      ],
      chart: {
        title: "CPU seconds on random bytes (best of rounds, lower is better)",
        unit: "s",
        bars: rows.map((r) => ({ label: r.mode, value: r.bestCpuS, note: "" })),
      },
      runs,
      notes: [],
    };
    return emitReport(io, c.reportDir, report);
  } finally {
    c.dispose();
  }
}
