/**
 * `spool bench redact [--size 256MiB] [--report DIR] [--corpus | --adversarial]`: the redactor alone, with the
 * built-in rules plus 10 and 1,000 known secrets, next to `replacestream` with the same
 * literals and a naive per-line regex, in one run; plus a linearity check (2× input).
 */
import { benchRedact } from "./bench-redact.js";
import { type BenchIo, type BenchOptions, benchContext } from "./context.js";
import { type BenchReport, emitReport, machine, type TargetResult } from "./report.js";

export async function benchRedactCommand(options: BenchOptions, io: BenchIo): Promise<number> {
  if (options.corpus || options.adversarial)
    return (await import("./redact-corpus.js")).benchRedactCorpus(options, io);
  const c = benchContext(options);
  try {
    const sizeBytes = c.size(256 * 1024 * 1024);
    const result = await benchRedact({
      sizeBytes,
      peerSizeBytes: Math.min(sizeBytes, 32 * 1024 * 1024),
    });
    const rows = result.cases.map((k) => ({
      secrets: k.secrets,
      spool: k.spool.mbPerSecond,
      replacestream: k.replacestream.available ? k.replacestream.mbPerSecond : null,
      perLine: k.perLineRegex.mbPerSecond,
      ratio: k.ratioToFasterPeer,
      linearity: k.linearity.ratio,
      compileS: k.compileSeconds,
    }));
    const report: BenchReport = {
      bench: "redact",
      title: "spool bench redact: redactor MB/s next to replacestream and a per-line regex",
      machine: machine(),
      params: { sizeBytes, peerSizeBytes: result.peerSizeBytes, chunkBytes: result.chunkBytes },
      columns: [
        { key: "secrets", label: "known secrets" },
        { key: "spool", label: "spool MB/s" },
        { key: "replacestream", label: "replacestream MB/s" },
        { key: "perLine", label: "per-line regex MB/s" },
        { key: "ratio", label: "× faster peer" },
        { key: "linearity", label: "time at 2× input" },
        { key: "compileS", label: "compile s" },
      ],
      rows,
      targets: [
        ...rows.map((r) => ({
          name: `${r.secrets} secrets: spool vs the faster peer`,
          target: "≥ 2×",
          value: `${r.ratio.toFixed(2)}×`,
          met: r.ratio >= 2,
        })),
        ...rows.map((r) => ({
          name: `${r.secrets} secrets: time at 2× input`,
          target: "≤ 2.2×",
          value: `${r.linearity.toFixed(2)}×`,
          met: r.linearity <= 2.2,
        })),
        ...secretCountTarget(rows),
      ],
      chart: {
        title: "Redaction throughput (MB/s, higher is better)",
        unit: "MB/s",
        bars: rows.flatMap((r) => [
          { label: `spool, ${r.secrets} secrets`, value: r.spool, note: "" },
          { label: `replacestream, ${r.secrets}`, value: r.replacestream ?? 0, note: "" },
          { label: `per-line regex, ${r.secrets}`, value: r.perLine, note: "" },
        ]),
      },
      runs: [],
      notes: ["Peers run on at most 32 MiB: at 1,000 literals they manage a few MB/s."],
    };
    return emitReport(io, c.reportDir, report);
  } finally {
    c.dispose();
  }
}

/**
 * The cost of many known secrets: the redactor's MB/s with the most of them against the
 * fewest, measured in the same run (they share one automaton, so it should hardly move).
 */
function secretCountTarget(rows: readonly { secrets: number; spool: number }[]): TargetResult[] {
  const fewest = rows[0];
  const most = rows[rows.length - 1];
  if (fewest === undefined || most === undefined || most.secrets <= fewest.secrets) return [];
  const ratio = most.spool / fewest.spool;
  return [
    {
      name: `${most.secrets} secrets: spool MB/s vs ${fewest.secrets} secrets`,
      target: "≥ 0.9× (within 10%)",
      value: `${ratio.toFixed(2)}×`,
      met: ratio >= 0.9,
    },
  ];
}
