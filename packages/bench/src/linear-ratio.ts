/**
 * Time at 2n bytes over time at n bytes of one input unit repeated: the linear-time check
 * of `spool bench redact --adversarial` and `scripts/redact-ratio.mjs`.
 *
 * What makes the figure honest on a shared machine (each measured, see docs/benchmarks.md):
 *
 * - **CPU seconds of the process**, not wall time: other processes' load counts only
 *   through caches. Run the measuring process with `--single-threaded` so V8's compiler
 *   and GC helper threads do their work on the main thread, inside the run that causes it.
 * - **Sized by time, not bytes**: n grows until a run at n takes at least `minSeconds`. A
 *   run of a few milliseconds is dominated by JIT tiering and by whether a scavenge lands in
 *   it (a fast probe finished 2 MiB in 20 ms, where one scavenge more is 10%).
 * - **A young-generation GC before every run** (`--expose-gc`): each run starts with an
 *   empty nursery instead of the previous run's, so no run pays for another's garbage. Only
 *   a minor GC: a full `gc()` threw the redactor's optimised code away (the next run at
 *   16 KiB took 72 ms instead of 2 ms).
 * - **Warm**: the sizing runs come first, on the same input shape, and then one run at 2n,
 *   none of them counted: the first run at a new size pays once for growing the heap to it
 *   (`Authorization="` repeated read 2.21–2.25 at every n from 64 KiB to 16 MiB, its first
 *   round 3.2 where the others were 1.7–2.2).
 * - **Interleaved rounds, totals compared**: each round times n and 2n back to back (in
 *   alternating order), and the ratio is the CPU time of all runs at 2n over that of all
 *   runs at n. A full GC lands in whichever run crosses the old generation's limit: on
 *   `pw="` repeated at 1 MiB, every run at 2n had one and half the runs at n none, so a
 *   ratio per round (or the least time of each size) read 2.2 where the totals share the
 *   collections out as the allocation does.
 *
 * @example
 * ```ts
 * import { linearRatio } from "./linear-ratio.js";
 * const r = linearRatio((input) => void input.toString("latin1"), "abc", { minSeconds: 0.05, rounds: 3 });
 * r.ratio; // ≈ 2 for linear work
 * ```
 */
import { median } from "./measure.js";

export interface LinearRatioOptions {
  /** Least CPU seconds of one run at n. */
  readonly minSeconds: number;
  /** Rounds of (n, 2n); the ratio is of their totals. */
  readonly rounds: number;
  /** Smallest n (bytes). @default 65536 */
  readonly minBytes?: number;
  /** Largest n (bytes): a probe this fast is timed at it even if shorter than `minSeconds`. @default 32 MiB */
  readonly maxBytes?: number;
}

export interface LinearRatio {
  /** Total CPU seconds at 2n over total CPU seconds at n, over the rounds. */
  readonly ratio: number;
  /** The n timed (bytes). */
  readonly bytes: number;
  /** Median CPU seconds at n. */
  readonly seconds: number;
  /** Each round's ratio, in order. */
  readonly rounds: readonly number[];
}

/** Time `work` on `unit` repeated to n and to 2n bytes (see the file's comment). */
export function linearRatio(
  work: (input: Buffer) => void,
  unit: string,
  options: LinearRatioOptions,
): LinearRatio {
  const { minSeconds, rounds } = options;
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  let n = Math.min(options.minBytes ?? 65536, maxBytes);
  let input = repeated(unit, n);
  let t = Math.min(timed(work, input), timed(work, input));
  while (t < minSeconds && n < maxBytes) {
    // Aim past the target (the next run is warmer), at most 16× in one step.
    const factor = Math.min(16, 2 ** Math.ceil(Math.log2((minSeconds * 1.1) / Math.max(t, 1e-5))));
    n = Math.min(maxBytes, n * Math.max(2, factor));
    input = repeated(unit, n);
    t = timed(work, input);
  }
  const double = repeated(unit, 2 * n);
  timed(work, double);
  const ratios: number[] = [];
  const atN: number[] = [];
  let totalN = 0;
  let total2N = 0;
  for (let r = 0; r < rounds; r++) {
    let a: number;
    let b: number;
    if (r % 2 === 0) {
      a = timed(work, input);
      b = timed(work, double);
    } else {
      b = timed(work, double);
      a = timed(work, input);
    }
    atN.push(a);
    ratios.push(b / Math.max(a, 1e-6));
    totalN += a;
    total2N += b;
  }
  return {
    ratio: total2N / Math.max(totalN, 1e-6),
    bytes: n,
    seconds: median(atN),
    rounds: ratios,
  };
}

/** `unit` repeated to exactly `bytes` bytes (latin1). */
export function repeated(unit: string, bytes: number): Buffer {
  return Buffer.alloc(bytes).fill(unit, "latin1");
}

/** CPU seconds of `work(input)` after a minor GC (when `--expose-gc` made `gc` available). */
function timed(work: (input: Buffer) => void, input: Buffer): number {
  minorGc?.({ type: "minor" });
  const t0 = process.cpuUsage();
  work(input);
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / 1e6;
}

const minorGc = (globalThis as { gc?: (options: { type: "minor" }) => void }).gc;
