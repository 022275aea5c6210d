/**
 * `@spool/sinks/runtime`: what a capture needs from `@spool/sinks` (`startCapture` and
 * `captureSource`, file and memory spools, the writer queue, storage primitives, root resolution) without the modules that import
 * zod (locks, owners, root quota, recovery, the options schema as a value), so `spool run`
 * starts without loading zod. `@spool/sinks` re-exports all of it: use `@spool/sinks`
 * unless start-up time matters (a CLI, a worker thread).
 *
 * @example
 * ```ts
 * import { createFileSpool } from "@spool/sinks/runtime";
 * const files = createFileSpool({});
 * await files.destroy();
 * ```
 */

export { captureSource, startCapture } from "./capture/capture-entry.js";
export type { FsLayer } from "./file/fs-layer.js";
export {
  defaultRoot,
  type RootChoice,
  resolveRoot,
} from "./file/root.js";
export {
  createExclusive,
  ensurePrivateDir,
  errnoOf,
  lstatIfAny,
  type PrivateDirOptions,
  type PublishOptions,
  publishAtomic,
  renameExclusive,
  syncDir,
  TOOL_OUTPUTS,
  type WriteOutcome,
  writeFully,
  writeSome,
} from "./file/storage.js";
export {
  createMemorySpool,
  MEMORY_SPOOL,
  type MemorySpool,
  type MemorySpoolOptions,
} from "./memory/memory-spool.js";
export {
  createMemoryAllowance,
  MEMORY_ALLOWANCE,
  type MemoryAllowance,
  type MemoryAllowanceOptions,
} from "./quota/memory-allowance.js";
export {
  type Admission,
  type Allowance,
  type AllowanceSource,
  createRetentionLimit,
  DEFAULT_MAX_BYTES,
  DEFAULT_ROOT_QUOTA,
  type RetentionLimit,
  type RetentionLimitOptions,
  rootQuotaAllowance,
} from "./quota/quota.js";
export {
  QUOTA_SPOOL,
  type QuotaOptions,
  withQuotas,
} from "./quota/quota-spool.js";
export {
  type BoundedStreamInfo,
  createBoundedStream,
  READ_CHUNK,
  readableLength,
  type StreamSource,
} from "./store/bounded-stream.js";
export {
  createLineIndexer,
  LINE_INDEX,
  LINE_INDEX_EVERY,
  type LineIndexer,
  type LineSeek,
  lineIndexEntries,
  lineIndexName,
  seekLine,
  seekLineEntries,
} from "./store/line-index.js";
export {
  captureDir,
  MAX_REF_LENGTH,
  type ParsedRef,
  parseRef,
  type ResolvedRef,
  resolveRef,
  streamOfFile,
} from "./store/refs.js";
export {
  createFileSpool,
  FILE_SPOOL,
  type FileSpool,
  type FileSpoolOptions,
  refOf,
} from "./writer/file-spool.js";
export {
  createWriterQueue,
  WRITER_QUEUE,
  type WriterQueue,
  type WriterQueueStats,
  type WriterTransport,
} from "./writer/writer-queue.js";
export {
  FILE_SPOOL_GATHER_MS,
  MIN_WRITER_QUEUE_BUDGET,
  type ResolvedWriterQueueOptions,
  resolveWriterQueueOptions,
  WRITER_QUEUE_DEFAULTS,
  type WriterQueueOptions,
  writerQueueOptionsSchema,
} from "./writer/writer-queue-options.js";
