/**
 * Messages between the file spool (main thread) and its writer task (worker thread),
 * over one MessagePort per capture.
 *
 * Every request carries an `id` (unique per port, increasing) and every reply names the
 * request it answers in `re`, so a reply wakes exactly the request it answers and no
 * other: a `failed` for the receipt cannot be taken for a failed finish. Each request
 * has exactly one reply (`write` is answered by `ack` or `stream-error`, `close` by
 * none: the task's end is its answer). How long the main thread waits for a reply is
 * bounded in one place, `writer-link.ts` (`finishTimeoutMs`).
 *
 * The module holds types only, so the worker loads nothing from it.
 *
 * @example
 * ```ts
 * // internal to @spool/sinks (not exported)
 * import type { ToWriter } from "./protocol.js";
 * const request: ToWriter = { op: "live", id: 7, json: "{}\n" };
 * // answered by { op: "live-replaced", re: 7, ok: true }
 * ```
 */
import type { MessagePort } from "node:worker_threads";
import type { CaptureReason } from "@spool/core/runtime";
import type { FaultSpec } from "../file/fs-layer.js";

/**
 * Open the capture: create `ROOT/tool-outputs/<captureId>/` exclusively, publish
 * `owner.json` first, create the `.live` files and their line indexes.
 * Answered by {@link OpenedReply} or {@link FailedReply}.
 */
export interface OpenRequest {
  op: "open";
  id: number;
  root: string;
  captureId: string;
  /** The live file names, stdout first (`stdout.live`, `stderr.live`). */
  files: [string, string];
  /** When the capture started (ms since the epoch), recorded in `owner.json`. */
  startedAt: number;
  /** Injected storage faults (tests). */
  faults: FaultSpec[];
}

/**
 * Append `data` to one stream's `.live` file. `data`'s buffer is transferred; it comes
 * back with the {@link AckReply} for reuse. Answered by {@link AckReply} when every
 * byte was written, else by {@link StreamErrorReply}; writes after a stream error are
 * answered by nothing (the main thread has stopped that stream).
 */
export interface WriteRequest {
  op: "write";
  id: number;
  stream: 0 | 1;
  data: Uint8Array;
}

/**
 * Replace `live.json` atomically with `json` (the caller bounds the rate).
 * Answered by {@link LiveReplacedReply}, also when the replacement failed (`ok: false`):
 * a missed live snapshot is superseded by the next one, or by `receipt.json`.
 */
export interface LiveRequest {
  op: "live";
  id: number;
  json: string;
  /** New entries of the stream-switch journal (`order-journal.ts`), appended before the snapshot. */
  order?: Uint8Array;
}

/**
 * The child's fate is known (the receipt's process block): recorded in the preallocated
 * `exit.json` (final-records.ts). No reply.
 */
export interface ExitRequest {
  op: "exit";
  id: number;
  process: unknown;
  /** The final receipt's reasons (sent with the final receipt), else null. */
  reasons: string[] | null;
}

/**
 * Fsync and close each `.live` file, rename it to its final name (never overwriting),
 * fsync the directory. Answered by {@link FinishedReply}, once every background fsync the
 * writer started has ended (a failure of one counts).
 */
export interface FinishRequest {
  op: "finish";
  id: number;
  /** Final names, stdout first (`stdout.txt`, `stderr.txt`, or `.bin`). */
  finalNames: [string, string];
  /** The last entries of the stream-switch journal (`order-journal.ts`). */
  order?: Uint8Array | undefined;
}

/**
 * Publish `receipt.json`, last and atomically, then end the task.
 * Answered by {@link PublishedReply} or {@link FailedReply}.
 */
export interface ReceiptRequest {
  op: "receipt";
  id: number;
  json: string;
}

/** Close every descriptor and end the task without publishing; no reply (the task ends). */
export interface CloseRequest {
  op: "close";
  id: number;
}

export type ToWriter =
  | OpenRequest
  | WriteRequest
  | LiveRequest
  | ExitRequest
  | FinishRequest
  | ReceiptRequest
  | CloseRequest;

/** The capture directory exists with its `.live` files; writes may follow. */
export interface OpenedReply {
  op: "opened";
  re: number;
  dir: string;
}

/** A write was kept whole: `committed` is the stream's total; `buffer` is handed back. */
export interface AckReply {
  op: "ack";
  re: number;
  stream: 0 | 1;
  committed: number;
  buffer: ArrayBuffer;
}

/**
 * A system call of the writer that failed: the errno (`ENOSPC`, `EIO`, …), the call
 * (`write`, `fsync`, `link`…) and the real path it was about (never the descriptor's
 * `/proc/self/fd` name); the receiver redacts the path.
 */
export interface SystemFailure {
  code: string;
  syscall: string;
  path: string | null;
}

/**
 * A write (or the sync after it) failed part-way: the file was truncated back to
 * `committed` (a known boundary) and the stream takes no more bytes. `code` is the errno.
 */
export interface StreamErrorReply {
  op: "stream-error";
  re: number;
  stream: 0 | 1;
  reason: CaptureReason;
  committed: number;
  code: string;
  failure: SystemFailure;
}

/** `live.json` was replaced (`ok`), or the replacement failed and was skipped. */
export interface LiveReplacedReply {
  op: "live-replaced";
  re: number;
  ok: boolean;
}

/** How one stream ended: its file's final path, or null when it kept its `.live` name. */
export interface FinishedStream {
  /** Bytes durable in the file (after an I/O error, only what a sync made durable). */
  committed: number;
  /** Of those bytes; null when they are fewer than were written (the hash covers more). */
  sha256: string | null;
  /** Lines of those bytes and whether they end with a newline; null as `sha256` is. */
  lines: number | null;
  endsWithNewline: boolean | null;
  file: string | null;
  error: CaptureReason | null;
  /** The first system call that failed on this stream, when one did. */
  failure: SystemFailure | null;
  /** A write of its line index that failed (the index was dropped, the data kept). */
  indexFailure: SystemFailure | null;
}

/** Both streams are closed and renamed (or kept as `.live`, with `error`). */
export interface FinishedReply {
  op: "finished";
  re: number;
  streams: [FinishedStream, FinishedStream];
}

/** `receipt.json` is published. */
export interface PublishedReply {
  op: "published";
  re: number;
}

/** The request `re` failed at `stage` with errno `code`; `message` names no secret. */
export interface FailedReply {
  op: "failed";
  re: number;
  stage: string;
  code: string;
  message: string;
  /** The system call that failed (`open`, `mkdir`…), when the error names one. */
  syscall?: string;
  /** The path it failed on, when the error names one (redacted by the receiver). */
  path?: string;
}

export type FromWriter =
  | OpenedReply
  | AckReply
  | StreamErrorReply
  | LiveReplacedReply
  | FinishedReply
  | PublishedReply
  | FailedReply;

/** The piscina task's argument: the worker's end of the capture's port. */
export interface WriterTask {
  port: MessagePort;
}
