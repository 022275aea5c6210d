/**
 * The persistence contract between a capture and its storage. The capture pushes each
 * stream's representation bytes into a {@link StreamWriter} (the bounded writer queue)
 * from the first byte; nothing reaches storage until {@link CaptureSpool.spill} (the
 * small-result path writes nothing), and then the bytes held so far flow first.
 *
 * `@spool/sinks` provides the file spool; tests and users may provide their own, and
 * `testSpool` in `@spool/sinks` is the contract suite every implementation passes.
 *
 * @example
 * ```ts
 * import type { SpoolFactory } from "@spool/core";
 * declare const factory: SpoolFactory;
 * const spool = factory({ captureId: "AAAAAAAAAAAAAAAAAAAAAAAA", root: "/tmp/r", startedAt: Date.now() });
 * spool.streams.stdout.offer([Buffer.from("hi\n")]);
 * ```
 */
import type { SpoolError } from "./errors.js";
import type { Receipt } from "./receipt.js";
import type { CaptureReason, StreamName } from "./receipt-vocabulary.js";
import type { Batch } from "./stage.js";

/**
 * What {@link StreamWriter.offer} tells the caller.
 *
 * @category storage
 * @example
 * ```ts
 * import type { StreamWriter } from "@spool/core";
 * declare const writer: StreamWriter;
 * if (writer.offer([Buffer.from("line\n")]) === "wait") await writer.ready();
 * ```
 */
export type OfferResult =
  /** Taken; keep going. */
  | "accepted"
  /** Taken, but the queue is at its budget: stop reading until {@link StreamWriter.ready}. */
  | "wait"
  /** Persistence has stopped (see `stopped`); the bytes were not kept. */
  | "stopped";

/**
 * Where a {@link StreamWriter} stands, in representation bytes.
 *
 * @category storage
 * @example
 * ```ts
 * import type { StreamWriter } from "@spool/core";
 * declare const writer: StreamWriter;
 * const { committed, queued, stopped } = writer.state;
 * if (stopped !== null) console.warn(`persistence stopped (${stopped}) after ${committed} bytes`);
 * ```
 */
export interface WriterState {
  /** Representation bytes durably written (acknowledged by the writer). */
  committed: number;
  /** Bytes accepted but not yet committed (queued or in flight). */
  queued: number;
  /** Why persistence stopped, or null while it goes on. */
  stopped: CaptureReason | null;
}

/**
 * Where one stream's representation bytes go: a bounded queue in front of storage.
 * `offer` never blocks; its answer says when to wait ({@link OfferResult}). A spool gives
 * one per stream; `createMemoryWriter` in `@spool/core/testing` is one for tests.
 *
 * @category storage
 * @example
 * ```ts
 * import type { StreamWriter } from "@spool/core";
 * declare const writer: StreamWriter;
 * writer.watch({ committed: (total) => console.log(total), stopped: (reason) => console.warn(reason) });
 * writer.offer([Buffer.from("hello\n")]);
 * await writer.flushed();
 * ```
 */
export interface StreamWriter {
  /** Take a batch of representation bytes; never blocks (see {@link OfferResult}). */
  offer(batch: Batch): OfferResult;
  /** Resolves once the queue is under budget again, or persistence stopped (a stall is bounded). */
  ready(): Promise<void>;
  /** Resolves once everything accepted is committed, or persistence stopped (bounded by the stall budget). */
  flushed(): Promise<void>;
  /**
   * Stop persistence for `reason`; what was queued is dropped, `committed` stays. `error`
   * is the storage failure behind it, if one was (its `storage` names errno, call and path).
   */
  stop(reason: CaptureReason, error?: SpoolError): void;
  /**
   * Register the writer's one listener (the capture's). What already happened is told at
   * once, so registering late loses nothing.
   */
  watch(listener: WriterListener): void;
  /** Where the writer stands now. */
  readonly state: Readonly<WriterState>;
}

/**
 * How a {@link StreamWriter} tells its owner about progress, instead of being polled.
 *
 * @category storage
 * @example
 * ```ts
 * import type { WriterListener } from "@spool/core";
 * const listener: WriterListener = {
 *   committed: (total) => console.log(`${total} bytes durable`),
 *   stopped: (reason) => console.warn(`stopped: ${reason}`),
 * };
 * ```
 */
export interface WriterListener {
  /** The writer acknowledged `total` representation bytes durable in all (monotonic). */
  committed(total: number): void;
  /** Persistence stopped for `reason` (and `error`, when storage failed); told once. */
  stopped(reason: CaptureReason, error?: SpoolError): void;
}

/**
 * What {@link CaptureSpool.finish} reports of one stream once it is stored for good.
 *
 * @category storage
 * @example
 * ```ts
 * import type { CaptureSpool } from "@spool/core";
 * declare const spool: CaptureSpool;
 * const { stdout } = await spool.finish();
 * console.log(stdout.ref, stdout.sha256, stdout.committed);
 * ```
 */
export interface StreamFinal {
  /** Bytes durably written; the spool also acknowledges them through its writers. */
  committed: number;
  /** sha256 (hex) of the committed bytes, or null when nothing was stored. */
  sha256: string | null;
  /** Root-relative ref (`tool-outputs/<id>/stdout.txt`), or null when nothing was stored. */
  ref: string | null;
  /** Absolute path of the stored file, or null. */
  path: string | null;
  /** Why persistence stopped, if it did (also told through {@link WriterListener.stopped}). */
  stopped: CaptureReason | null;
  /**
   * Lines of the committed bytes (newlines, plus one for a final partial line), counted by
   * the spool as it stored them; null when it cannot say. A final receipt whose stream was
   * cut (fewer bytes committed than produced) reports this, not the lines produced.
   * Absent: the spool does not count (then a cut stream's `lines` is null).
   */
  lines?: number | null;
  /** Whether the committed bytes end with a newline (null: empty, or unknown), with `lines`. */
  endsWithNewline?: boolean | null;
  /**
   * A storage failure that cost the stream only its line index: every byte is kept,
   * readers scan instead. The capture reports it (event, `capture.storageError`).
   */
  indexError?: SpoolError;
}

/**
 * What {@link CaptureSpool.spill} reports once storage is open: the capture's directory
 * and the refs (and paths) of its live stream files.
 *
 * @category storage
 * @example
 * ```ts
 * import type { CaptureSpool } from "@spool/core";
 * declare const spool: CaptureSpool;
 * const { refs } = await spool.spill();
 * console.log(`follow it with: spool tail -f ${refs.stdout}`);
 * ```
 */
export interface SpillInfo {
  /** Absolute path of the capture's directory. */
  dir: string;
  /** Root-relative refs of the live streams (`tool-outputs/<id>/stdout.live`). */
  refs: Record<StreamName, string>;
  /** Absolute paths of the live files; absent when the spool keeps no files. */
  paths?: Record<StreamName, string>;
}

/**
 * The storage of one capture, as a {@link SpoolFactory} makes it: a writer per stream,
 * then spill, live receipts, finish and the final receipt. A capture drives it; you
 * implement it only to store captures somewhere new (run `checkSpoolContract` from
 * `@spool/sinks/testing` on it).
 *
 * @category storage
 * @example
 * ```ts
 * import type { CaptureSpool } from "@spool/core";
 * declare const spool: CaptureSpool;
 * spool.streams.stdout.offer([Buffer.from("big output\n")]);
 * if (!spool.spilled) await spool.spill();
 * await spool.finish();
 * ```
 */
export interface CaptureSpool {
  /** One writer per stream, taking bytes from the first byte on (held until spill). */
  readonly streams: Record<StreamName, StreamWriter>;
  /** Whether storage has been opened. */
  readonly spilled: boolean;
  /** Open storage (directory, `.live` files) and let held bytes flow. Idempotent. */
  spill(): Promise<SpillInfo>;
  /**
   * Replace `live.json` (no-op before spill); the caller bounds the rate. Resolves true
   * once the live receipt is stored, false when it was not (before spill, a storage
   * error, a writer silent past its timeout); never rejects, so callers may ignore it.
   */
  publishLive(receipt: Receipt): Promise<boolean>;
  /** Flush, sync and rename each stream to its final name; after this no byte is accepted. */
  finish(): Promise<Record<StreamName, StreamFinal>>;
  /** Publish `receipt.json`, last and atomically. */
  publishReceipt(receipt: Receipt): Promise<void>;
  /** Release resources without publishing (the small-result path, or after a failure). */
  close(): Promise<void>;
}

/**
 * What a capture tells its {@link SpoolFactory}: the capture's id, the root it lives
 * under, and when it started (milliseconds since the epoch).
 *
 * @category storage
 * @example
 * ```ts
 * import type { SpoolContext } from "@spool/core";
 * const context: SpoolContext = { captureId: "AAAAAAAAAAAAAAAAAAAAAAAA", root: "/tmp/spools", startedAt: Date.now() };
 * ```
 */
export interface SpoolContext {
  /** The capture's id (its directory name). */
  captureId: string;
  /** The absolute root the capture lives under. */
  root: string;
  /** When the capture started, in milliseconds since the epoch. */
  startedAt: number;
}

/**
 * Makes the {@link CaptureSpool} of one capture; a capture's `spool` option.
 * `createFileSpool(…).factory` and `createMemorySpool().factory` in `@spool/sinks` are two.
 *
 * @category storage
 * @example
 * ```ts
 * import { createDisabledSpool, type SpoolFactory } from "@spool/core";
 * const keepNothing: SpoolFactory = () => createDisabledSpool();
 * ```
 */
export type SpoolFactory = (context: SpoolContext) => CaptureSpool;
