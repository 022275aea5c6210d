/**
 * `@spool/core/runtime`: everything `@spool/core` exports except the zod schemas of
 * `receipt.ts`, so a capture can start without loading zod (~50 ms of every `spool run`).
 * Receipt types are still inferred from the schema (type-only imports cost nothing).
 * The capture's internal modules (its state record, receipt builder, journal, live
 * publisher, storage opener, drain) are not exported.
 *
 * @example
 * ```ts
 * import { startCapture, STREAM_NAMES } from "@spool/core/runtime";
 * STREAM_NAMES.length; // 2
 * ```
 */
export * from "./capture.js";
export * from "./child-spawn.js";
export * from "./clock.js";
export * from "./disabled-spool.js";
export * from "./errors.js";
export * from "./exit-status.js";
export * from "./ids.js";
export * from "./ledger.js";
export * from "./log-file.js";
export * from "./logger.js";
export * from "./newline-count.js";
export * from "./preview.js";
export * from "./printable.js";
export * from "./process-group.js";
export * from "./process-runner.js";
export type {
  CaptureReceipt,
  PreviewReceipt,
  ProcessReceipt,
  Receipt,
  SourceReceipt,
  StreamReceipt,
} from "./receipt.js";
export * from "./receipt-producer.js";
export * from "./receipt-vocabulary.js";
export * from "./source-runner.js";
export * from "./spill-policy.js";
export * from "./spool.js";
export * from "./stage.js";
export * from "./store.js";
export * from "./stream-pipeline.js";
