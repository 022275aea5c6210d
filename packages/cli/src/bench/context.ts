/**
 * What every benchmark needs: the programs it runs (this Node, the `spool` binary, the
 * log generator, the Node baselines), a private scratch directory, and its options.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { type OptionTable, type Parsed, parseArgs, usageError } from "../args.js";

export const BENCH_OPTIONS: OptionTable = {
  size: { kind: "size" },
  rounds: { kind: "count" },
  report: { kind: "string" },
  work: { kind: "string" },
};

export interface BenchContext {
  readonly node: string;
  readonly spool: string;
  readonly generator: string;
  readonly nodeCapture: string;
  /** Private scratch directory, removed by `dispose`. */
  readonly work: string;
  readonly parsed: Parsed;
  /** A size option, or `fallback`. */
  size(fallback: number): number;
  /** The number of interleaved rounds, or `fallback`. */
  rounds(fallback: number): number;
  readonly reportDir: string | null;
  dispose(): void;
}

const here = path.dirname(fileURLToPath(import.meta.url));

export function benchContext(argv: readonly string[]): BenchContext {
  const parsed = parseArgs(argv, BENCH_OPTIONS);
  if (parsed.positionals.length > 0)
    throw usageError(`unexpected argument "${parsed.positionals[0]}"`);
  const o = parsed.options;
  const base = (o.work as string | undefined) ?? tmpdir();
  const work = mkdtempSync(path.join(base, "spool-bench-"));
  return {
    node: process.execPath,
    spool: path.resolve(here, "../../bin/spool.js"),
    generator: path.join(here, "log-generator.js"),
    nodeCapture: path.join(here, "node-capture.js"),
    work,
    parsed,
    size: (fallback) => (o.size as number | undefined) ?? fallback,
    rounds: (fallback) => {
      const n = (o.rounds as number | undefined) ?? fallback;
      if (n < 1) throw usageError("--rounds must be at least 1");
      return n;
    },
    reportDir: (o.report as string | undefined) ?? null,
    dispose: () => rmSync(work, { recursive: true, force: true }),
  };
}

/** Quote for `sh -c`. */
export function sh(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export const MiB = 1024 * 1024;
