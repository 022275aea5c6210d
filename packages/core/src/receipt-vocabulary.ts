/**
 * The receipt's closed vocabularies (stream names, states, reasons, representations) and
 * their literal types. Zod-free, so the capture path can use them without loading zod;
 * `receipt.ts` builds the schema (the source of truth for the receipt's shape) on them.
 *
 * @example
 * ```ts
 * import { STREAM_NAMES } from "@spool/core";
 * STREAM_NAMES; // ["stdout", "stderr"]
 * ```
 */
export const STREAM_NAMES = ["stdout", "stderr"] as const;
export type StreamName = (typeof STREAM_NAMES)[number];

export const PROCESS_STATES = ["running", "exited", "cancelled", "timeout", "unknown"] as const;
export const CAPTURE_STATES = [
  "pending",
  "complete",
  "partial",
  "failed",
  "disabled",
  "unavailable",
] as const;
export const CAPTURE_REASONS = [
  "quota",
  "root-quota",
  "writer-saturated",
  "write-error",
  "no-space",
  "drain-timeout",
  "crash",
  "storage-unavailable",
  "binary-not-retained",
  "source-error",
  "source-truncated",
] as const;
/** What produced the bytes of a source capture (`captureSource`). */
export const SOURCE_KINDS = ["node-readable", "web-stream", "async-iterable"] as const;
/** What a source said of its own completeness (e.g. an HTTP body against its Content-Length). */
export const SOURCE_DECLARATIONS = ["complete", "truncated", "unknown"] as const;
export const REPRESENTATIONS = ["utf8", "utf8-replaced", "binary"] as const;

export type ProcessState = (typeof PROCESS_STATES)[number];
export type CaptureState = (typeof CAPTURE_STATES)[number];
export type CaptureReason = (typeof CAPTURE_REASONS)[number];
export type Representation = (typeof REPRESENTATIONS)[number];
export type SourceKind = (typeof SOURCE_KINDS)[number];
export type SourceDeclaration = (typeof SOURCE_DECLARATIONS)[number];
