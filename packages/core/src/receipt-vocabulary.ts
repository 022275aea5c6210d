/**
 * The receipt's closed vocabularies (stream names, states, reasons, representations) and
 * their literal types. Zod-free, so the capture path can use them without loading zod;
 * `receipt.ts` builds the schema (the source of truth for the receipt's shape) on them.
 *
 * @category receipts
 * @example
 * ```ts
 * import { STREAM_NAMES } from "@spool/core";
 * STREAM_NAMES; // ["stdout", "stderr"]
 * ```
 */
export const STREAM_NAMES = ["stdout", "stderr"] as const;
/**
 * The name of a captured stream: `"stdout"` or `"stderr"` (a source capture uses the
 * same two names).
 *
 * @category receipts
 * @example
 * ```ts
 * import type { Receipt, StreamName } from "@spool/core";
 * declare const receipt: Receipt;
 * const stream: StreamName = "stderr";
 * receipt.streams[stream].committed;
 * ```
 */
export type StreamName = (typeof STREAM_NAMES)[number];

/**
 * Every value of a receipt's `process.state`: `running`, `exited` (on its own),
 * `cancelled` (by a signal from spool), `timeout`, or `unknown` (a crashed owner).
 *
 * @category receipts
 * @example
 * ```ts
 * import { PROCESS_STATES } from "@spool/core";
 * PROCESS_STATES.includes("timeout"); // true
 * ```
 */
export const PROCESS_STATES = ["running", "exited", "cancelled", "timeout", "unknown"] as const;
/**
 * Every value of a receipt's `capture.state`: `pending` while running, `complete` (every
 * byte kept), `partial` (some kept; see `reasons`), `failed` (nothing usable kept),
 * `disabled` (persistence off on purpose) or `unavailable` (storage could not be opened).
 *
 * @category receipts
 * @example
 * ```ts
 * import { CAPTURE_STATES } from "@spool/core";
 * for (const state of CAPTURE_STATES) console.log(state);
 * ```
 */
export const CAPTURE_STATES = [
  "pending",
  "complete",
  "partial",
  "failed",
  "disabled",
  "unavailable",
] as const;
/**
 * Every reason a receipt's `capture.reasons` may give for a capture that is not
 * `complete` (a closed set: match on it, never on message text).
 *
 * @category receipts
 * @example
 * ```ts
 * import { CAPTURE_REASONS } from "@spool/core";
 * CAPTURE_REASONS.includes("no-space"); // true
 * ```
 */
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
  "stage-error",
] as const;
/**
 * What produced the bytes of a source capture (`captureSource`): the receipt's
 * `source.kind`.
 *
 * @category receipts
 * @example
 * ```ts
 * import { SOURCE_KINDS } from "@spool/core";
 * SOURCE_KINDS; // ["node-readable", "web-stream", "async-iterable"]
 * ```
 */
export const SOURCE_KINDS = ["node-readable", "web-stream", "async-iterable"] as const;
/**
 * What a source said of its own completeness (e.g. an HTTP body against its
 * Content-Length): the receipt's `source.declared`. A `truncated` source is never a
 * `complete` capture.
 *
 * @category receipts
 * @example
 * ```ts
 * import { SOURCE_DECLARATIONS } from "@spool/core";
 * SOURCE_DECLARATIONS; // ["complete", "truncated", "unknown"]
 * ```
 */
export const SOURCE_DECLARATIONS = ["complete", "truncated", "unknown"] as const;
/**
 * How a stream's bytes are stored: `utf8` (valid as read), `utf8-replaced` (invalid
 * sequences replaced by U+FFFD) or `binary` (raw bytes kept, `--binary keep`).
 *
 * @category receipts
 * @example
 * ```ts
 * import { REPRESENTATIONS } from "@spool/core";
 * REPRESENTATIONS.includes("binary"); // true
 * ```
 */
export const REPRESENTATIONS = ["utf8", "utf8-replaced", "binary"] as const;

/**
 * One of {@link PROCESS_STATES}.
 *
 * @category receipts
 * @example
 * ```ts
 * import type { ProcessState, Receipt } from "@spool/core";
 * declare const receipt: Receipt;
 * const state: ProcessState | undefined = receipt.process?.state;
 * ```
 */
export type ProcessState = (typeof PROCESS_STATES)[number];
/**
 * One of {@link CAPTURE_STATES}.
 *
 * @category receipts
 * @example
 * ```ts
 * import type { CaptureState, Receipt } from "@spool/core";
 * declare const receipt: Receipt;
 * const state: CaptureState = receipt.capture.state;
 * if (state !== "complete") console.warn(receipt.capture.reasons);
 * ```
 */
export type CaptureState = (typeof CAPTURE_STATES)[number];
/**
 * One of {@link CAPTURE_REASONS}.
 *
 * @category receipts
 * @example
 * ```ts
 * import type { CaptureReason, Receipt } from "@spool/core";
 * declare const receipt: Receipt;
 * const full = receipt.capture.reasons.some((r: CaptureReason) => r === "quota" || r === "root-quota");
 * ```
 */
export type CaptureReason = (typeof CAPTURE_REASONS)[number];
/**
 * One of {@link REPRESENTATIONS}.
 *
 * @category receipts
 * @example
 * ```ts
 * import type { Receipt, Representation } from "@spool/core";
 * declare const receipt: Receipt;
 * const kept: Representation = receipt.streams.stdout.representation;
 * ```
 */
export type Representation = (typeof REPRESENTATIONS)[number];
/**
 * One of {@link SOURCE_KINDS}.
 *
 * @category receipts
 * @example
 * ```ts
 * import type { Receipt, SourceKind } from "@spool/core";
 * declare const receipt: Receipt;
 * const kind: SourceKind | undefined = receipt.source?.kind;
 * ```
 */
export type SourceKind = (typeof SOURCE_KINDS)[number];
/**
 * One of {@link SOURCE_DECLARATIONS}; what `captureSource`'s `declared` returns.
 *
 * @category receipts
 * @example
 * ```ts
 * import type { SourceDeclaration } from "@spool/core";
 * declare const received: number;
 * const expected = 1024; // from Content-Length
 * const declared = (): SourceDeclaration => (received < expected ? "truncated" : "complete");
 * ```
 */
export type SourceDeclaration = (typeof SOURCE_DECLARATIONS)[number];
