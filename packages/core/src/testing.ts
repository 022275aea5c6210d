/**
 * `@spool/core/testing`: test doubles and checks for code built on `@spool/core`, with no
 * dependency beyond core itself (the property runner that needs fast-check is in
 * `@spool/transforms/testing`).
 *
 * - {@link createMemoryWriter}: a {@link StreamWriter} that keeps what it is offered in
 *   memory, commits at once and can be told to stop at a byte count.
 * - {@link checkLedger}: the byte ledger's invariants, and optionally the counts you expect.
 * - {@link runThroughPipeline}: push chunks through stages into a memory writer, as a
 *   capture would, and check the ledger on the way.
 * - {@link createManualClock}: a clock that moves only when told to.
 *
 * @example
 * ```ts
 * import { checkLedger, runThroughPipeline } from "@spool/core/testing";
 * const run = runThroughPipeline([], [Buffer.from("hi "), Buffer.from("there\n")]);
 * run.output.toString(); // "hi there\n"
 * checkLedger(run.ledger, { observed: 9, produced: 9, committed: 9 });
 * ```
 */
import { SpoolError } from "./errors.js";
import { type LedgerSnapshot, ledgerBalances } from "./ledger.js";
import type { CaptureReason } from "./receipt-vocabulary.js";
import type { OfferResult, StreamWriter, WriterListener, WriterState } from "./spool.js";
import type { Batch, Stage } from "./stage.js";
import { createStreamPipeline } from "./stream-pipeline.js";

export { createManualClock, type ManualClock } from "./clock.js";

/**
 * Options of {@link createMemoryWriter}.
 *
 * @category testing
 * @example
 * ```ts
 * import { createMemoryWriter, type MemoryWriterOptions } from "@spool/core/testing";
 * const options: MemoryWriterOptions = { stopAt: 1024, stopReason: "no-space" };
 * createMemoryWriter(options);
 * ```
 */
export interface MemoryWriterOptions {
  /**
   * Stop persistence (with `stopReason`) when a batch would take `committed` past this.
   * @default Infinity
   */
  readonly stopAt?: number;
  /** The reason reported when `stopAt` is reached. @default "quota" */
  readonly stopReason?: CaptureReason;
}

/**
 * A {@link StreamWriter} that keeps its bytes in memory (see {@link createMemoryWriter}).
 *
 * @category testing
 * @example
 * ```ts
 * import { createMemoryWriter } from "@spool/core/testing";
 * const writer = createMemoryWriter();
 * writer.offer([Buffer.from("x")]);
 * writer.bytes().toString(); // "x"
 * ```
 */
export interface MemoryWriter extends StreamWriter {
  /** Every byte committed so far, in order. */
  bytes(): Buffer;
}

/**
 * An in-memory {@link StreamWriter}: every batch offered is committed at once (and told to
 * the listener), `ready()`/`flushed()` resolve at once, and it stops at `stopAt` bytes like
 * a quota would: the batch that does not fit is refused whole.
 *
 * @category testing
 * @example
 * ```ts
 * import { createMemoryWriter } from "@spool/core/testing";
 * const writer = createMemoryWriter({ stopAt: 4 });
 * writer.offer([Buffer.from("abc")]); // "accepted"
 * writer.offer([Buffer.from("de")]); // "stopped"
 * writer.bytes().toString(); // "abc"
 * writer.state.stopped; // "quota"
 * ```
 */
export function createMemoryWriter(options: MemoryWriterOptions = {}): MemoryWriter {
  const stopAt = options.stopAt ?? Number.POSITIVE_INFINITY;
  const chunks: Buffer[] = [];
  const state: WriterState = { committed: 0, queued: 0, stopped: null };
  let listener: WriterListener | null = null;
  let stopError: SpoolError | undefined;
  const writer: MemoryWriter = {
    offer(batch: Batch): OfferResult {
      if (state.stopped !== null) return "stopped";
      let size = 0;
      for (const chunk of batch) size += chunk.byteLength;
      if (state.committed + size > stopAt) {
        writer.stop(options.stopReason ?? "quota");
        return "stopped";
      }
      for (const chunk of batch) if (chunk.byteLength > 0) chunks.push(Buffer.from(chunk));
      state.committed += size;
      if (size > 0) listener?.committed(state.committed);
      return "accepted";
    },
    ready: () => Promise.resolve(),
    flushed: () => Promise.resolve(),
    stop(reason, error) {
      if (state.stopped !== null) return;
      state.stopped = reason;
      stopError = error;
      listener?.stopped(reason, error);
    },
    watch(l) {
      listener = l;
      if (state.committed > 0) l.committed(state.committed);
      if (state.stopped !== null) l.stopped(state.stopped, stopError);
    },
    get state() {
      return state;
    },
    bytes: () => Buffer.concat(chunks),
  };
  return writer;
}

/**
 * Counts {@link checkLedger} compares, each only when given.
 *
 * @category testing
 * @example
 * ```ts
 * import { checkLedger, runThroughPipeline, type LedgerExpectation } from "@spool/core/testing";
 * const expected: LedgerExpectation = { observed: 2, produced: 2, lines: 1 };
 * checkLedger(runThroughPipeline([], [Buffer.from("a\n")]).ledger, expected);
 * ```
 */
export interface LedgerExpectation {
  /** Raw bytes read. @default not compared */
  readonly observed?: number;
  /** Raw bytes handed to the stages. @default not compared */
  readonly accepted?: number;
  /** Raw bytes read and not yet handed on. @default not compared */
  readonly pending?: number;
  /** Raw bytes dropped untransformed. @default not compared */
  readonly discarded?: number;
  /** Representation bytes the stages emitted. @default not compared */
  readonly produced?: number;
  /** Representation bytes the writer committed. @default not compared */
  readonly committed?: number;
  /** Lines produced (a final line without a newline counts). @default not compared */
  readonly lines?: number;
}

/**
 * Throw a `SPOOL_E_STATE` error naming the first broken invariant of a ledger snapshot
 * (`observed = accepted + pending + discarded`, nothing negative, `committed ≤ produced`),
 * then the first count that differs from `expect`.
 *
 * @category testing
 * @example
 * ```ts
 * import { createLedger } from "@spool/core";
 * import { checkLedger } from "@spool/core/testing";
 * const ledger = createLedger();
 * ledger.observe(3);
 * ledger.accept(3);
 * checkLedger(ledger.snapshot(), { observed: 3, pending: 0 }); // passes
 * ```
 */
export function checkLedger(
  ledger: LedgerSnapshot | { snapshot(): LedgerSnapshot },
  expect: LedgerExpectation = {},
): void {
  const s = "snapshot" in ledger ? ledger.snapshot() : ledger;
  const fail = (why: string): never => {
    throw new SpoolError("SPOOL_E_STATE", "ledger check", `${why} (${JSON.stringify(s)})`);
  };
  if (!ledgerBalances(s)) {
    const { observed, accepted, pending, discarded } = s.raw;
    if (observed !== accepted + pending + discarded)
      fail(
        `observed ${observed} ≠ accepted ${accepted} + pending ${pending} + discarded ${discarded}`,
      );
    if (s.committed > s.produced) fail(`committed ${s.committed} > produced ${s.produced}`);
    fail("a count is negative");
  }
  const actual: Record<keyof LedgerExpectation, number> = {
    ...s.raw,
    produced: s.produced,
    committed: s.committed,
    lines: s.lines,
  };
  for (const [key, want] of Object.entries(expect) as [keyof LedgerExpectation, number][]) {
    if (want !== undefined && actual[key] !== want)
      fail(`${key} is ${actual[key]}, expected ${want}`);
  }
}

/**
 * What {@link runThroughPipeline} returns: the output, the final ledger and the writer.
 *
 * @category testing
 * @example
 * ```ts
 * import { runThroughPipeline } from "@spool/core/testing";
 * const { output, ledger } = runThroughPipeline([], [Buffer.from("x\n")]);
 * ledger.lines; // 1
 * ```
 */
export interface PipelineRun {
  /** Everything the writer committed. */
  readonly output: Buffer;
  readonly ledger: LedgerSnapshot;
  readonly writer: MemoryWriter;
}

/**
 * Feed `chunks` through `stages` into a memory writer the way a capture does (one ledger,
 * `end()` at the end), check the ledger after every write, and check at the end that every
 * byte read was accepted and every byte produced was committed.
 *
 * @category testing
 * @example
 * ```ts
 * import { runThroughPipeline } from "@spool/core/testing";
 * runThroughPipeline([], [Buffer.from("a"), Buffer.from("b")]).output.toString(); // "ab"
 * ```
 */
export function runThroughPipeline(
  stages: readonly Stage[],
  chunks: Batch,
  writerOptions: MemoryWriterOptions = {},
): PipelineRun {
  const writer = createMemoryWriter(writerOptions);
  const pipeline = createStreamPipeline({ name: "stdout", stages, writer });
  let read = 0;
  for (const chunk of chunks) {
    pipeline.write(chunk);
    read += chunk.byteLength;
    checkLedger(pipeline.ledger, { observed: read });
  }
  pipeline.end();
  if (pipeline.error !== undefined) throw pipeline.error;
  const ledger = pipeline.ledger.snapshot();
  const output = writer.bytes();
  const stopped = writer.state.stopped !== null;
  checkLedger(ledger, {
    observed: read,
    accepted: read,
    pending: 0,
    ...(stopped ? {} : { produced: output.byteLength, committed: output.byteLength }),
  });
  return { output, ledger, writer };
}
