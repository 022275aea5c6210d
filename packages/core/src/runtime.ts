/**
 * `@spool/core/runtime`: everything `@spool/core` exports except the zod schemas of
 * `receipt.ts`, so a capture can start without loading zod (~50 ms of every `spool run`).
 * Receipt types are still inferred from the schema (type-only imports cost nothing).
 * The capture's internal modules (its state record, journal, live publisher, storage
 * opener, drain) are not exported; of the receipt builder, only what assembles a receipt
 * from parts (`assembleReceipt`, `receiptParts`, `skeletonReceipt`), for stores that
 * recover a crashed capture. Use `@spool/core` unless start-up
 * time matters (a CLI, a worker); the two narrow entries are plumbing of the same kind:
 * `@spool/core/errors` (errors alone, for the file writer's worker thread) and
 * `@spool/core/process-group` (process identities, for job control). Everything they
 * export is also exported here.
 *
 * @example
 * ```ts
 * import { STREAM_NAMES } from "@spool/core/runtime";
 * STREAM_NAMES.length; // 2
 * ```
 */
export type {
  Capture,
  CaptureCommonOptions,
  CaptureEvent,
  CaptureHandle,
  CaptureOptions,
  CaptureProducer,
  CaptureResult,
  CaptureSourceOptions,
  PreviewTap,
  ProcessCaptureReceipt,
  ResolvedCaptureOptions,
  SourceCapture,
  SourceCaptureReceipt,
  SourceCaptureResult,
  Spool,
  StreamPlan,
} from "./capture.js";
export type { CaptureEvents } from "./capture-events.js";
export {
  assembleReceipt,
  type ReceiptParts,
  receiptParts,
  type StreamParts,
  skeletonReceipt,
} from "./capture-receipt.js";
export {
  type ChildEvents,
  type ChildHandle,
  type SpawnChild,
  type SpawnError,
  type SpawnRequest,
  spawnChild,
} from "./child-spawn.js";
export {
  type Clock,
  systemClock,
} from "./clock.js";
export { createDisabledSpool } from "./disabled-spool.js";
export {
  isSpoolError,
  redactPath,
  SPOOL_ERROR_CODES,
  SpoolError,
  type SpoolErrorCode,
  type SpoolErrorOptions,
  type StorageFailure,
  storageFailureOf,
} from "./errors.js";
export { exitStatusOf } from "./exit-status.js";
export {
  CALL_ID_PATTERN,
  CAPTURE_ID_PATTERN,
  isCaptureId,
  newCaptureId,
} from "./ids.js";
export {
  createLedger,
  type Ledger,
  type LedgerSnapshot,
  ledgerBalances,
  type RawCounts,
} from "./ledger.js";
export {
  createLogger,
  type Logger,
  type LoggerOptions,
} from "./logger.js";
export { countNewlines } from "./newline-count.js";
export {
  cutUtf8,
  DEFAULT_PREVIEW_BUDGET,
  needsEscape,
  type PreviewBudget,
  type PreviewSnapshot,
  previewLayoutBytes,
  type RenderContext,
  type RenderedPreview,
  renderPreview,
} from "./preview.js";
export { printable, UNSAFE_CHARACTERS, writtenOut } from "./printable.js";
export {
  emptiedWithin,
  type GroupTermination,
  groupAlive,
  groupMembers,
  hasProcfs,
  liveGroupIds,
  type ProcessGroup,
  type ProcStat,
  processAlive,
  processStart,
  readProcStat,
  signalGroup,
  terminateGroup,
} from "./process-group.js";
export {
  type ProcessRun,
  type ProcessRunOptions,
  runProcess,
} from "./process-runner.js";
export type {
  CaptureReceipt,
  PreviewReceipt,
  ProcessReceipt,
  Provenance,
  Receipt,
  SourceReceipt,
  StreamReceipt,
} from "./receipt.js";
export {
  type ProducerView,
  producerOf,
  receiptExitStatus,
} from "./receipt-producer.js";
export {
  type ReceiptPlace,
  rewriteReceipt,
  type StreamPlace,
} from "./receipt-rewrite.js";
export {
  CAPTURE_REASONS,
  CAPTURE_STATES,
  type CaptureReason,
  type CaptureState,
  PROCESS_STATES,
  type ProcessState,
  REPRESENTATIONS,
  type Representation,
  SOURCE_DECLARATIONS,
  SOURCE_KINDS,
  type SourceDeclaration,
  type SourceKind,
  STREAM_NAMES,
  type StreamName,
} from "./receipt-vocabulary.js";
export {
  type ByteSource,
  runSource,
  type SourceRun,
  type SourceRunOptions,
} from "./source-runner.js";
export {
  keepsInline,
  outgrowsPreview,
  type StreamSize,
} from "./spill-policy.js";
export type {
  CaptureSpool,
  OfferResult,
  SpillInfo,
  SpoolContext,
  SpoolFactory,
  StreamFinal,
  StreamWriter,
  WriterListener,
  WriterState,
} from "./spool.js";
export {
  type Batch,
  batchBytes,
  composeStages,
  type NamedCounters,
  runStage,
  type Stage,
  type StageCounters,
  sumCounters,
} from "./stage.js";
export {
  COUNTER_NAME,
  MAX_COUNTED_STAGES,
  MAX_STAGE_COUNTERS,
  MAX_STAGE_NAME,
  namedCountersProblem,
  type StageCountersEntry,
  stageCountersOf,
} from "./stage-counters.js";
export {
  type ByteSpan,
  type CaptureCondition,
  type CaptureJob,
  type CaptureOwner,
  type CaptureStore,
  type CaptureUsage,
  type CompletionBook,
  CURSOR_NAME_PATTERN,
  type CursorBook,
  type ReconciledCapture,
  type RecoveryReport,
  type StoredCapture,
  type StoredStream,
  type StoreRef,
  type StreamOrder,
  type StreamSlice,
  type WatchOptions,
} from "./store.js";
export {
  createStreamPipeline,
  type PumpEnd,
  pumpStream,
  type StageFailure,
  type StreamPipeline,
  type StreamPipelineOptions,
  type StreamPump,
} from "./stream-pipeline.js";
