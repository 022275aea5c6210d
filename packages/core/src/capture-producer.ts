/**
 * What a capture reads from: the two streams it is the sole reader of, when the producer
 * is done, and the block the receipt reports it with. A child process (`process-runner.ts`)
 * is one kind of producer; any readable source (`source-runner.ts`) is another, so both
 * share the same pipelines, spill, drain, finalisation and receipt.
 *
 * @example
 * ```ts
 * import type { CaptureProducer } from "@spool/core";
 * declare const producer: CaptureProducer;
 * await producer.ended;
 * producer.block(); // { process: {...} } or { source: {...} }
 * ```
 */
import type { Readable } from "node:stream";
import type { ProcessReceipt, SourceReceipt } from "./receipt.js";
import type { CaptureReason } from "./receipt-vocabulary.js";

/**
 * What a capture reads from: the two streams it is the sole reader of, when the producer
 * is done, and the block the receipt reports it with. A child process ({@link runProcess})
 * is one kind of producer; any readable source ({@link runSource}) is another, so both
 * share the same pipelines, spill, drain, finalisation and receipt.
 *
 * @category capture
 * @example
 * ```ts
 * import type { CaptureProducer } from "@spool/core";
 * declare const producer: CaptureProducer;
 * await producer.ended;
 * if (producer.failed()) console.warn(producer.reasons());
 * ```
 */
export interface CaptureProducer {
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** Resolves once the producer is done: the direct child exited, or every source ended. */
  readonly ended: Promise<void>;
  /** The receipt block as of now (a copy): exactly one of `process` and `source`. */
  block(): { readonly process: ProcessReceipt } | { readonly source: SourceReceipt };
  /** Still producing (the preview is not final). */
  running(): boolean;
  /** The preview reports a failure (non-zero exit, source error or truncation). */
  failed(): boolean;
  /** Reasons the producer itself holds against a complete capture (e.g. source-error). */
  reasons(): readonly CaptureReason[];
  /** Whether pipes left open after the producer ended count as `drain-timeout`. */
  drainTimeoutCounts(): boolean;
  /** Stop producing (signal the process group, or destroy the source). */
  cancel(signal: NodeJS.Signals): void;
}
