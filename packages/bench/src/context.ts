/**
 * What every benchmark needs: the programs it runs (this Node, the `spool` binary, the
 * log generator, the Node baselines), a private scratch directory, and its options.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { LOG_GENERATOR, NODE_CAPTURE, SPOOL_BIN } from "./programs.js";

/** The options of `spool bench NAME` (parsed and range-checked by the CLI). */
export interface BenchOptions {
  /** Bytes of generated output. @default each bench's own */
  readonly size: number | undefined;
  /** Interleaved rounds (≥ 1). @default each bench's own */
  readonly rounds: number | undefined;
  /** Also write bench.json, bench.md and bench.svg there. @default none */
  readonly report: string | undefined;
  /** Parent of the scratch directory. @default the system temp dir */
  readonly work: string | undefined;
  /** `bench redact`: the labelled corpus instead of throughput. @default false */
  readonly corpus: boolean;
  /** `bench redact`: the linear-time checks on adversarial inputs. @default false */
  readonly adversarial: boolean;
  /** `bench serve`: bytes the job writes during the load phase. @default 64 MiB */
  readonly "load-size": number | undefined;
}

/** Where a bench prints: the report on stdout, progress on stderr. */
export interface BenchIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

export interface BenchContext {
  readonly node: string;
  readonly spool: string;
  readonly generator: string;
  readonly nodeCapture: string;
  /** Private scratch directory, removed by `dispose`. */
  readonly work: string;
  /** A size option, or `fallback`. */
  size(fallback: number): number;
  /** The number of interleaved rounds, or `fallback`. */
  rounds(fallback: number): number;
  readonly reportDir: string | null;
  dispose(): void;
}

export function benchContext(options: BenchOptions): BenchContext {
  const work = mkdtempSync(path.join(options.work ?? tmpdir(), "spool-bench-"));
  return {
    node: process.execPath,
    spool: SPOOL_BIN,
    generator: LOG_GENERATOR,
    nodeCapture: NODE_CAPTURE,
    work,
    size: (fallback) => options.size ?? fallback,
    rounds: (fallback) => options.rounds ?? fallback,
    reportDir: options.report ?? null,
    dispose: () => rmSync(work, { recursive: true, force: true }),
  };
}

/** Quote for `sh -c`. */
export function sh(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export const MiB = 1024 * 1024;
