/**
 * One stream's path from source bytes to its writer: stages (decoder, ANSI strip,
 * redactor, preview tap…) then the bounded writer queue, with the framework keeping the
 * byte ledger. The pipeline is synchronous per batch; the pump that feeds it from a
 * Node stream pauses the source only while the writer asks it to wait.
 *
 * @example
 * ```ts
 * import { createStreamPipeline } from "@spool/core";
 * declare const writer: import("@spool/core").StreamWriter;
 * const pipeline = createStreamPipeline({ name: "stdout", stages: [], writer });
 * pipeline.write(Buffer.from("hello\n"));
 * pipeline.end();
 * pipeline.ledger.snapshot().produced; // 6
 * ```
 */
import type { Readable } from "node:stream";
import type { SpoolError } from "./errors.js";
import { createLedger, type Ledger } from "./ledger.js";
import type { CaptureReason, StreamName } from "./receipt-vocabulary.js";
import type { OfferResult, StreamWriter } from "./spool.js";
import { batchBytes, composeStages, type Stage } from "./stage.js";

/**
 * What {@link createStreamPipeline} takes.
 *
 * @category stages
 * @example
 * ```ts
 * import type { StreamPipelineOptions } from "@spool/core";
 * import { createMemoryWriter } from "@spool/core/testing";
 * const options: StreamPipelineOptions = {
 *   name: "stdout",
 *   stages: [],
 *   writer: createMemoryWriter(),
 *   onStageError: (stream, error) => console.error(stream, error),
 * };
 * ```
 */
export interface StreamPipelineOptions {
  /** The stream this pipeline carries (names it in callbacks and errors). */
  readonly name: StreamName;
  /** Stages in order; the last is usually the preview tap. Empty: bytes pass as they are. */
  readonly stages: readonly Stage[];
  /** Where produced bytes go (a spool's writer, or `createMemoryWriter()` in tests). */
  readonly writer: StreamWriter;
  /**
   * Called after each batch that produced bytes, with the writer's answer (the capture
   * decides when to spill: a writer that says "wait" before storage is open drains only
   * into storage).
   */
  readonly onProduced?: (name: StreamName, answer: OfferResult) => void;
  /** Called once if a stage throws; later bytes are discarded and counted. */
  readonly onStageError?: (name: StreamName, error: unknown) => void;
  /** Called once if the writer stops persistence (its one report of why, and the storage error). */
  readonly onStop?: (name: StreamName, reason: CaptureReason, error?: SpoolError) => void;
}

/**
 * One stream's path from source bytes to its writer, with the ledger kept on the way
 * ({@link createStreamPipeline}). Feed it with `write`, or from a Node stream with
 * {@link pumpStream}.
 *
 * @category stages
 * @example
 * ```ts
 * import type { StreamPipeline } from "@spool/core";
 * declare const pipeline: StreamPipeline;
 * if (pipeline.write(Buffer.from("chunk")) === "wait") await pipeline.ready();
 * pipeline.end();
 * pipeline.ledger.snapshot().produced;
 * ```
 */
export interface StreamPipeline {
  readonly name: StreamName;
  readonly ledger: Ledger;
  readonly stages: readonly Stage[];
  /** The first stage error, if any. */
  readonly error: unknown;
  /** Source bytes in; returns the writer's answer for what came out. */
  write(chunk: Uint8Array, held?: boolean): OfferResult;
  /** Source bytes read but held back (pending) until `write(chunk, true)` or `discard(n, true)`. */
  hold(n: number): void;
  /** Source bytes read but dropped untransformed (after the pipeline gave up). */
  discard(n: number, held?: boolean): void;
  /** Resolves when the writer takes bytes again (or has stopped). */
  ready(): Promise<void>;
  /** End of input: flush every stage into the writer. Idempotent. */
  end(): void;
  readonly ended: boolean;
}

/**
 * One stream's pipeline: stages into `writer`, with the ledger kept on the way.
 *
 * @category stages
 * @example
 * ```ts
 * import { createStreamPipeline } from "@spool/core";
 * import { createMemoryWriter } from "@spool/core/testing";
 * const writer = createMemoryWriter();
 * const pipeline = createStreamPipeline({ name: "stdout", stages: [], writer });
 * pipeline.write(Buffer.from("hi\n"));
 * pipeline.end();
 * writer.bytes().toString(); // "hi\n"
 * ```
 */
export function createStreamPipeline(options: StreamPipelineOptions): StreamPipeline {
  const { name, writer } = options;
  const ledger = createLedger();
  const chain = options.stages.length > 0 ? composeStages(options.stages) : null;
  let failure: unknown;
  let failed = false;
  let ended = false;
  // The writer's acknowledgements are the ledger's `committed`: one source of truth.
  writer.watch({
    committed: (total) => ledger.commit(total),
    stopped: (reason, error) => options.onStop?.(name, reason, error),
  });

  const emit = (out: Uint8Array[]): OfferResult => {
    if (out.length === 0 || batchBytes(out) === 0)
      return writer.state.stopped ? "stopped" : "accepted";
    ledger.produce(out);
    const result = writer.offer(out);
    options.onProduced?.(name, result);
    return result;
  };

  const fail = (error: unknown) => {
    failed = true;
    failure = error;
    options.onStageError?.(name, error);
  };

  return {
    name,
    ledger,
    stages: options.stages,
    get error() {
      return failure;
    },
    get ended() {
      return ended;
    },
    write(chunk, held = false) {
      const n = chunk.byteLength;
      if (!held) ledger.observe(n);
      if (failed || ended) {
        ledger.discard(n);
        return "stopped";
      }
      ledger.accept(n);
      if (!chain) return emit([chunk]);
      let out: Uint8Array[];
      try {
        out = chain.push([chunk]);
      } catch (error) {
        fail(error);
        return "stopped";
      }
      return emit(out);
    },
    ready: () => writer.ready(),
    hold: (n) => ledger.observe(n),
    discard(n, held = false) {
      if (!held) ledger.observe(n);
      ledger.discard(n);
    },
    end() {
      if (ended) return;
      ended = true;
      if (!chain || failed) return;
      try {
        emit(chain.end());
      } catch (error) {
        fail(error);
      }
    },
  };
}

/**
 * Feed `pipeline` from a Node `Readable`: what the source has buffered is taken in batches
 * of up to 64 KiB (one `read()` each, however small the source's chunks), and nothing is
 * read while the writer says "wait" (the writer bounds that stall; the source's own buffer
 * fills and it stops reading its pipe); resolves at end of stream, on a read error, or
 * when `stop()` is called (the drain window ran out). The pipeline is ended at end of
 * stream.
 *
 * @category stages
 * @example
 * ```ts
 * import { Readable } from "node:stream";
 * import { createStreamPipeline, pumpStream } from "@spool/core";
 * import { createMemoryWriter } from "@spool/core/testing";
 * const writer = createMemoryWriter();
 * const pump = pumpStream(Readable.from([Buffer.from("a"), Buffer.from("b")]), createStreamPipeline({ name: "stdout", stages: [], writer }));
 * await pump.done; // "eof"
 * writer.bytes().toString(); // "ab"
 * ```
 */
export function pumpStream(source: Readable, pipeline: StreamPipeline): StreamPump {
  let settle: (how: PumpEnd) => void = () => {};
  const done = new Promise<PumpEnd>((resolve) => {
    settle = resolve;
  });
  let waiting = false;
  let ended = false;
  let finished = false;
  let scheduled = false;
  const take = createBatchReader(source);

  // Reads that arrive within one turn of the event loop wait in the source's buffer and
  // go on as one batch: the drain runs once per turn, after the turn's I/O.
  const schedule = () => {
    if (scheduled || waiting || finished) return;
    scheduled = true;
    setImmediate(drain);
  };
  /** Hand on what is buffered until the writer says "wait" (or nothing is left). */
  const handOn = () => {
    while (!waiting) {
      const batch = take();
      if (batch === null) return;
      if (pipeline.write(batch) === "wait") {
        waiting = true;
        void pipeline.ready().then(release);
      }
    }
  };
  const drain = () => {
    scheduled = false;
    if (finished) return;
    handOn();
    if (ended && !waiting) finish("eof");
  };
  const release = () => {
    waiting = false;
    if (!finished) drain();
  };
  const finish = (how: PumpEnd) => {
    if (finished) return;
    // What the source read from the producer is the pipeline's however the pump ends:
    // handed on while the writer takes it, counted as dropped past that.
    handOn();
    for (let batch = take(); batch !== null; batch = take()) pipeline.discard(batch.byteLength);
    finished = true;
    source.off("readable", schedule);
    source.off("end", onEnd);
    source.off("error", onError);
    settle(how);
  };
  const onEnd = () => {
    ended = true;
    if (!waiting && !scheduled) finish("eof");
  };
  const onError = () => finish("error");
  // A `readable` listener also keeps Node from resuming a child's stdio by itself when the
  // child exits (flushStdio), so nothing arrives unasked while the writer waits.
  source.on("readable", schedule);
  source.once("end", onEnd);
  source.once("error", onError);
  return {
    done,
    get waiting() {
      return waiting;
    },
    get pending() {
      return !finished && (scheduled || source.readableLength > 0);
    },
    stop() {
      // Destroyed first: reading what it buffered then asks the source for nothing more
      // (a source that refills as fast as it is read would never run dry).
      source.destroy();
      finish("stopped");
    },
  };
}

/**
 * One batch of what `source` has buffered, at most {@link GATHER_BYTES} (a single larger
 * object-mode chunk goes whole), or null when nothing is buffered. A byte stream gives it
 * in one `read()`; object-mode chunks are joined here.
 */
function createBatchReader(source: Readable): () => Buffer | null {
  if (!source.readableObjectMode) {
    return () => {
      const n = Math.min(source.readableLength, GATHER_BYTES);
      // read(0) when nothing is buffered: null, and asks the source for more.
      return (source.read(n) as Buffer | null) ?? null;
    };
  }
  let carry: Buffer | null = null;
  return () => {
    const pieces: Buffer[] = [];
    let bytes = 0;
    for (;;) {
      const chunk: Buffer | null = carry ?? (source.read() as Buffer | null);
      carry = null;
      if (chunk === null) break;
      if (bytes > 0 && bytes + chunk.byteLength > GATHER_BYTES) {
        carry = chunk;
        break;
      }
      pieces.push(chunk);
      bytes += chunk.byteLength;
      if (bytes >= GATHER_BYTES) break;
    }
    if (pieces.length === 0) return null;
    return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, bytes);
  };
}

/** Reads gathered into one batch at most (one pipe read is at most 64 KiB). */
const GATHER_BYTES = 64 * 1024;

/**
 * How a {@link StreamPump} ended: end of stream, stopped by the caller, or a read error.
 *
 * @category stages
 * @example
 * ```ts
 * import type { PumpEnd, StreamPump } from "@spool/core";
 * declare const pump: StreamPump;
 * const end: PumpEnd = await pump.done;
 * if (end === "error") console.warn("the source failed");
 * ```
 */
export type PumpEnd = "eof" | "stopped" | "error";

/**
 * A running {@link pumpStream}: when it is done, whether it waits for the writer, and how
 * to stop it.
 *
 * @category stages
 * @example
 * ```ts
 * import type { StreamPump } from "@spool/core";
 * declare const pump: StreamPump;
 * setTimeout(() => pump.stop(), 1000); // drain window
 * await pump.done;
 * ```
 */
export interface StreamPump {
  /** How the pump ended: end of stream, stopped, or a read error. */
  readonly done: Promise<PumpEnd>;
  /** Paused because the writer asked to wait (backpressure, itself bounded by the stall budget). */
  readonly waiting: boolean;
  /** The source has bytes buffered that are not handed on yet (or their hand-on is scheduled). */
  readonly pending: boolean;
  /** Stop reading now (the drain window ran out); the source is destroyed. */
  stop(): void;
}
