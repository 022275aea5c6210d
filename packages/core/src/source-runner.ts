/**
 * The source side of `captureSource`: turn a Node `Readable`, a web `ReadableStream` or an
 * `AsyncIterable<Uint8Array>` into the readable the pump reads, know when every stream of
 * the source ended, keep the first error's message, and settle what the source declared of
 * its own completeness. Bytes are not its business: it hands the readables on.
 *
 * @example
 * ```ts
 * import { Readable } from "node:stream";
 * import { runSource, systemClock } from "@spool/core";
 * const run = runSource({
 *   stdout: Readable.from([Buffer.from("body")]), declared: "complete", label: "GET /",
 *   startedAt: Date.now(), clock: systemClock,
 * });
 * await run.ended;
 * run.block(); // { source: { kind: "node-readable", state: "ended", declared: "complete", ... } }
 * ```
 */
import { Readable } from "node:stream";
import type { CaptureProducer } from "./capture-producer.js";
import type { Clock } from "./clock.js";
import { SpoolError } from "./errors.js";
import type { SourceReceipt } from "./receipt.js";
import type { CaptureReason, SourceDeclaration, SourceKind } from "./receipt-vocabulary.js";

/**
 * Anything `captureSource` reads bytes from: a Node `Readable`, a web
 * `ReadableStream<Uint8Array>` (e.g. a `fetch` body) or any `AsyncIterable<Uint8Array>`.
 *
 * @category capture
 * @example
 * ```ts
 * import type { ByteSource } from "@spool/core";
 * async function* lines(): AsyncGenerator<Uint8Array> {
 *   yield Buffer.from("one\n");
 *   yield Buffer.from("two\n");
 * }
 * const source: ByteSource = lines();
 * ```
 */
export type ByteSource = Readable | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/**
 * What {@link runSource} takes ({@link captureSource} builds these from its options).
 *
 * @category capture
 * @example
 * ```ts
 * import { Readable } from "node:stream";
 * import { systemClock, type SourceRunOptions } from "@spool/core";
 * const options: SourceRunOptions = {
 *   stdout: Readable.from([Buffer.from("body")]), declared: "complete", startedAt: Date.now(), clock: systemClock,
 * };
 * ```
 */
export interface SourceRunOptions {
  /** The source read as `stdout`. */
  readonly stdout: ByteSource;
  /** A second source read as `stderr`. @default an empty stream */
  readonly stderr?: ByteSource;
  /**
   * What the source says of its completeness, read when it ends (a function can compare
   * bytes received with a declared length). "truncated" is never a complete capture.
   */
  readonly declared: SourceDeclaration | (() => SourceDeclaration);
  /** The source's label in the receipt (nothing secret). @default null */
  readonly label?: string | null;
  /** Milliseconds since the epoch, reported as `startedAt`. */
  readonly startedAt: number;
  /** Time source of `endedAt`. */
  readonly clock: Clock;
}

/**
 * A source as a capture's producer ({@link runSource}): `ended` is when every stream of
 * it ended; `block()` is its receipt block.
 *
 * @category capture
 * @example
 * ```ts
 * import type { SourceRun } from "@spool/core";
 * declare const run: SourceRun;
 * await run.ended;
 * run.block().source.error; // the first error's message, or null
 * ```
 */
export interface SourceRun extends CaptureProducer {
  block(): { readonly source: SourceReceipt };
}

/**
 * The source side of `captureSource`: turn each {@link ByteSource} into the readable the
 * pump reads, know when every stream ended, keep the first error's message, and settle
 * what the source declared. {@link captureSource} is what most users want instead.
 *
 * @category capture
 * @example
 * ```ts
 * import { Readable } from "node:stream";
 * import { runSource, systemClock } from "@spool/core";
 * const run = runSource({
 *   stdout: Readable.from([Buffer.from("body")]), declared: "complete", label: "GET /",
 *   startedAt: Date.now(), clock: systemClock,
 * });
 * run.stdout.resume();
 * await run.ended;
 * run.block().source.state; // "ended"
 * ```
 */
export function runSource(options: SourceRunOptions): SourceRun {
  const kind = kindOf(options.stdout);
  const stdout = toReadable(options.stdout);
  const stderr = options.stderr === undefined ? Readable.from([]) : toReadable(options.stderr);
  const state: SourceReceipt = {
    kind,
    label: options.label ?? null,
    state: "running",
    declared: "unknown",
    error: null,
    startedAt: new Date(options.startedAt).toISOString(),
    endedAt: null,
  };
  const settleOne = (stream: Readable) =>
    new Promise<void>((resolve) => {
      const onError = (error: unknown) => {
        state.error ??= messageOf(error);
        resolve();
      };
      stream.once("error", onError);
      stream.once("end", resolve);
      stream.once("close", resolve);
    });
  const ended = Promise.all([settleOne(stdout), settleOne(stderr)]).then(() => {
    state.declared = typeof options.declared === "function" ? options.declared() : options.declared;
    state.state = "ended";
    state.endedAt = new Date(options.clock.now()).toISOString();
  });
  return {
    stdout,
    stderr,
    ended,
    block: () => ({ source: { ...state } }),
    running: () => state.state === "running",
    failed: () =>
      state.state === "ended" && (state.error !== null || state.declared === "truncated"),
    reasons() {
      const reasons: CaptureReason[] = [];
      if (state.error !== null) reasons.push("source-error");
      if (state.state === "ended" && state.declared === "truncated")
        reasons.push("source-truncated");
      return reasons;
    },
    // The pumps end with the source (an error is `source-error`); nothing descends from a
    // source to hold a pipe open.
    drainTimeoutCounts: () => false,
    cancel(signal) {
      const error = new SpoolError("SPOOL_E_CANCELLED", "capture-source", `cancelled (${signal})`);
      for (const stream of [stdout, stderr]) if (!stream.destroyed) stream.destroy(error);
    },
  };
}

function kindOf(source: ByteSource): SourceKind {
  if (source instanceof Readable) return "node-readable";
  if (typeof (source as ReadableStream).getReader === "function") return "web-stream";
  if (typeof (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator] === "function")
    return "async-iterable";
  throw new SpoolError(
    "SPOOL_E_USAGE",
    "capture-source",
    "a source is a Node Readable, a web ReadableStream or an AsyncIterable<Uint8Array>",
  );
}

function toReadable(source: ByteSource): Readable {
  const kind = kindOf(source);
  if (kind === "node-readable") return source as Readable;
  if (kind === "web-stream") {
    return Readable.fromWeb(source as import("node:stream/web").ReadableStream<Uint8Array>);
  }
  return Readable.from(source as AsyncIterable<Uint8Array>, { objectMode: false });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
