/**
 * The read-side storage contract, beside `CaptureSpool` (the write side, `spool.ts`): how
 * anything outside a capture's owner finds a capture, learns where it stands, reads its
 * committed bytes, keeps per-consumer cursors, takes its completion notice once and
 * reconciles crash leftovers. Every reader (`spool status|wait|read|tail|grep|ls|recover|kill`,
 * and the HTTP and MCP servers that come next) is built on this contract only, never on
 * a storage layout.
 *
 * `@spool/sinks` implements it for the file layout (`createFileStore({ root })`) and for
 * the memory spool (`createMemorySpool().store`); `checkStoreContract` in
 * `@spool/sinks/testing` is the suite every implementation passes.
 *
 * Every method is asynchronous so that a store may live elsewhere (another process, a
 * remote root); errors are `SpoolError`s with the codes named on each member.
 *
 * @example
 * ```ts
 * import type { CaptureStore } from "@spool/core";
 * declare const store: CaptureStore;
 * const { captureId } = await store.resolve("tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/stdout.txt");
 * const state = await store.state(captureId);
 * const stream = await store.openStream(state, "stdout");
 * try {
 *   const { bytes, nextOffset } = await stream.read(0, 4096);
 * } finally {
 *   await stream.close();
 * }
 * ```
 */
import type { Receipt } from "./receipt.js";
import type { StreamName } from "./receipt-vocabulary.js";

/**
 * How a capture stands, by one rule for every reader:
 *
 * - `final`: its final receipt is published (by its owner, or by recovery);
 * - `live`: its owner still runs (more bytes may become readable, even after the child
 *   exited); reported from its latest live receipt;
 * - `crashed`: its owner is gone and published nothing; reported `partial` with reason
 *   `crash` (never `complete`), its committed bytes being the bytes that were stored.
 *
 * @category storage
 * @example
 * ```ts
 * import type { CaptureStore } from "@spool/core";
 * declare const store: CaptureStore;
 * const { condition } = await store.state("AAAAAAAAAAAAAAAAAAAAAAAA");
 * if (condition === "crashed") await store.reconcile("AAAAAAAAAAAAAAAAAAAAAAAA");
 * ```
 */
export type CaptureCondition = "final" | "live" | "crashed";

/**
 * The process that owns (or owned) a capture: the one that opened its storage.
 *
 * @category storage
 * @example
 * ```ts
 * import type { StoredCapture } from "@spool/core";
 * declare const capture: StoredCapture;
 * if (capture.owner !== null) console.log(`owned by pid ${capture.owner.pid}`);
 * ```
 */
export interface CaptureOwner {
  readonly pid: number;
  /** The owner's process start time (an identity with the pid), or null if unknown. */
  readonly start: string | null;
  /** When the owner's capture started (ISO 8601), if it said. */
  readonly startedAt?: string | undefined;
}

/**
 * The record a background job's supervisor leaves so that other processes can reach it.
 *
 * @category storage
 * @example
 * ```ts
 * import type { StoredCapture } from "@spool/core";
 * declare const capture: StoredCapture;
 * if (capture.job?.mode === "start") console.log(`job pid ${capture.job.pid}`);
 * ```
 */
export interface CaptureJob {
  /**
   * How the job began: `spool start`, or a `spool run` or a `spool capture` (of its stdin)
   * promoted with `--background-after`.
   */
  readonly mode: "start" | "run" | "capture";
  readonly supervisorPid: number;
  /** The job's pid, also its process group id; null if it never spawned (or reads stdin). */
  readonly pid: number | null;
  readonly pgid: number | null;
}

/**
 * One consistent look at a capture: its condition, receipt, owner and job record.
 *
 * @category storage
 * @example
 * ```ts
 * import type { CaptureStore } from "@spool/core";
 * declare const store: CaptureStore;
 * for (const capture of await store.list()) console.log(capture.captureId, capture.condition, capture.receipt.capture.state);
 * ```
 */
export interface StoredCapture {
  /** The capture's id. */
  readonly captureId: string;
  /** Where it stands: final, live or crashed. */
  readonly condition: CaptureCondition;
  /** The final receipt, the latest live one, or the crash receipt recovery would publish. */
  readonly receipt: Receipt;
  /** Who owns (or owned) the capture; null when the store does not know. */
  readonly owner: CaptureOwner | null;
  /** The job record, or null for a capture that is not a background job. */
  readonly job: CaptureJob | null;
}

/**
 * What a REF names ({@link CaptureStore.resolve}): the capture, and the stream when the
 * ref names a stream file.
 *
 * @category storage
 * @example
 * ```ts
 * import type { CaptureStore } from "@spool/core";
 * declare const store: CaptureStore;
 * const { captureId, stream } = await store.resolve("tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/stderr.txt"); // stream: "stderr"
 * ```
 */
export interface StoreRef {
  readonly captureId: string;
  /** The stream a ref to a stream file names (`tool-outputs/<id>/stdout.live` → stdout), else null. */
  readonly stream: StreamName | null;
}

/**
 * A byte range `[start, end)` of a stream.
 *
 * @category storage
 * @example
 * ```ts
 * import type { StoredStream } from "@spool/core";
 * declare const stream: StoredStream;
 * const { start, end } = await stream.lineRange(1, 10); // the first ten lines
 * ```
 */
export interface ByteSpan {
  /** First byte of the range. */
  readonly start: number;
  /** One past the last byte of the range. */
  readonly end: number;
}

/**
 * Bytes read from a stream ({@link StoredStream.read}), and where the next read continues.
 *
 * @category storage
 * @example
 * ```ts
 * import type { StoredStream } from "@spool/core";
 * declare const stream: StoredStream;
 * const { bytes, nextOffset } = await stream.read(0, 4096);
 * process.stdout.write(bytes);
 * ```
 */
export interface StreamSlice {
  /** The bytes read (never past the readable length, never a split character of text). */
  readonly bytes: Buffer;
  /** Where the slice starts (a requested offset inside a character moves back to its start). */
  readonly offset: number;
  /** `offset + bytes.length`: where the next read continues. */
  readonly nextOffset: number;
}

/**
 * One stream of one capture, opened for bounded reads against a fixed readable length
 * ({@link StoredStream.committed}: committed bytes within what was retained, as the state
 * it was opened with advertises). No method ever returns a byte at or past it. For a
 * text representation (anything but `binary`) no span or read splits a UTF-8 character:
 * a start inside a character moves back to its start, an end inside one moves back
 * before it (or, when less than one character was asked for, forward past it if that
 * character is wholly committed).
 *
 * @category storage
 * @example
 * ```ts
 * import type { StoredStream } from "@spool/core";
 * declare const stream: StoredStream;
 * const from = await stream.tailStart(20);
 * for await (const chunk of stream.chunks(from, stream.committed)) process.stdout.write(chunk);
 * await stream.close();
 * ```
 */
export interface StoredStream {
  readonly captureId: string;
  readonly stream: StreamName;
  /** The readable length: no byte at or past it is returned. */
  readonly committed: number;
  /** The stream keeps raw bytes (`binary`): spans are not moved to character boundaries. */
  readonly binary: boolean;
  /** `[offset, offset + length) ∩ [0, committed)`, both ends moved to character boundaries. */
  span(offset: number, length: number): Promise<ByteSpan>;
  /** The bytes of {@link StoredStream.span}; they are held in memory, so keep `length` modest. */
  read(offset: number, length: number): Promise<StreamSlice>;
  /**
   * The byte range of lines `first`..`last` (1-based, inclusive; `last` may exceed the
   * line count), found through the store's sparse line index: a seek, then a scan of a
   * bounded number of lines, never a scan from the start.
   */
  lineRange(first: number, last: number): Promise<ByteSpan>;
  /** Where the last `n` lines begin (a final newline ends the last line; it starts none). */
  tailStart(n: number): Promise<number>;
  /**
   * The bytes of `[start, end) ∩ [0, committed)` in order, in chunks of bounded size
   * (the implementation's read chunk), for streaming any length in bounded memory.
   * Ends early when the consumer stops iterating. Callers pass a range from
   * {@link StoredStream.span} to keep characters whole.
   */
  chunks(start: number, end: number): AsyncIterable<Buffer>;
  /**
   * Copy the bytes at `[position, position + target.length) ∩ [0, committed)` into
   * `target` and say how many there were (0 at or past `committed`): raw bytes, so pass
   * positions from {@link StoredStream.span}. For streaming a long range through a few
   * buffers the caller reuses (no allocation per chunk), as `spool serve` does.
   */
  readInto(position: number, target: Uint8Array): Promise<number>;
  /** Release what the stream holds. Idempotent. */
  close(): Promise<void>;
}

/**
 * Options of {@link CaptureStore.watch}.
 *
 * @category storage
 * @example
 * ```ts
 * import type { CaptureStore } from "@spool/core";
 * declare const store: CaptureStore;
 * for await (const state of store.watch("AAAAAAAAAAAAAAAAAAAAAAAA", { signal: AbortSignal.timeout(60_000) })) {
 *   console.log(state.receipt.streams.stdout.committed);
 * }
 * ```
 */
export interface WatchOptions {
  /** Stops the watch: the iteration ends (without throwing) soon after it aborts. */
  readonly signal?: AbortSignal;
}

/**
 * Per-consumer read positions: each named consumer of a stream keeps its own offset,
 * and advancing one never moves another. Names match {@link CURSOR_NAME_PATTERN}; any
 * other name is refused with `SPOOL_E_REF_INVALID`.
 *
 * @category storage
 * @example
 * ```ts
 * import type { CaptureStore } from "@spool/core";
 * declare const store: CaptureStore;
 * const id = "AAAAAAAAAAAAAAAAAAAAAAAA";
 * const from = await store.cursors.get(id, "stdout", "my-agent");
 * await store.cursors.advance(id, "stdout", "my-agent", from + 4096);
 * ```
 */
export interface CursorBook {
  /** The saved offset of cursor `name` on `stream`, or 0 if it has never read. */
  get(captureId: string, stream: StreamName, name: string): Promise<number>;
  /** Record that cursor `name` has consumed `stream` up to `offset` (replaced atomically). */
  advance(captureId: string, stream: StreamName, name: string, offset: number): Promise<void>;
}

/**
 * The completion notice of a capture (its final receipt), delivered once: a marker
 * recorded apart from any reading, so reading or tailing never swallows it, and
 * concurrent takers never both get it.
 *
 * @category storage
 * @example
 * ```ts
 * import type { CaptureStore } from "@spool/core";
 * declare const store: CaptureStore;
 * if (await store.completion.take("AAAAAAAAAAAAAAAAAAAAAAAA")) console.log("finished (told once)");
 * ```
 */
export interface CompletionBook {
  /** Whether the notice has been delivered. */
  seen(captureId: string): Promise<boolean>;
  /**
   * Mark the notice delivered: true if this call delivered it, false if it had been
   * before (exactly one of any number of concurrent calls gets true). Any other failure
   * throws (`SPOOL_E_STORAGE`, `SPOOL_E_UNSAFE_PATH`): then it is not delivered.
   */
  take(captureId: string): Promise<boolean>;
}

/**
 * What {@link CaptureStore.recover} did, by captureId.
 *
 * @category storage
 * @example
 * ```ts
 * import type { CaptureStore } from "@spool/core";
 * declare const store: CaptureStore;
 * const report = await store.recover();
 * console.log(`${report.recovered.length} crashed captures settled`, report.errors);
 * ```
 */
export interface RecoveryReport {
  /** Crashed captures whose crash receipt this call published. */
  readonly recovered: string[];
  /** Captures whose owner runs: untouched. */
  readonly live: string[];
  /** Captures that were final already (or were recovered by a concurrent call). */
  readonly final: string[];
  /** Captures that could not be looked at, with why (nothing secret, no stack). */
  readonly errors: Array<{ captureId: string; message: string }>;
}

/**
 * A capture's state after {@link CaptureStore.reconcile}.
 *
 * @category storage
 * @example
 * ```ts
 * import type { CaptureStore } from "@spool/core";
 * declare const store: CaptureStore;
 * const after = await store.reconcile("AAAAAAAAAAAAAAAAAAAAAAAA");
 * if (after.recovered) console.log("published its crash receipt");
 * ```
 */
export interface ReconciledCapture extends StoredCapture {
  /** This call published the crash receipt. */
  readonly recovered: boolean;
}

/**
 * Bytes a capture takes in the store ({@link CaptureStore.usage}).
 *
 * @category storage
 * @example
 * ```ts
 * import type { CaptureStore } from "@spool/core";
 * declare const store: CaptureStore;
 * const { bytes, streams } = await store.usage("AAAAAAAAAAAAAAAAAAAAAAAA");
 * console.log(`${bytes} bytes, ${streams.stdout} of them stdout`);
 * ```
 */
export interface CaptureUsage {
  readonly captureId: string;
  /** Every byte the capture holds (stream files, receipts, index, cursors, markers). */
  readonly bytes: number;
  /** Bytes of each stream's stored data. */
  readonly streams: Record<StreamName, number>;
}

/**
 * The read side of a storage root: find a capture, learn where it stands, read its
 * committed bytes, keep cursors, take its completion notice, reconcile crash leftovers,
 * measure and remove it. Every member has one meaning for every implementation; what is
 * specific to a layout (directories, file names, links, ownership) stays behind it.
 * `createFileStore({ root })` in `@spool/sinks` is the file implementation.
 *
 * @category storage
 * @example
 * ```ts
 * import type { CaptureStore } from "@spool/core";
 * declare const store: CaptureStore;
 * const { captureId } = await store.resolve("my-call-id");
 * const state = await store.state(captureId);
 * const stdout = await store.openStream(state, "stdout");
 * const { bytes } = await stdout.read(0, 4096);
 * await stdout.close();
 * ```
 */
export interface CaptureStore {
  /** The implementation's name (`file-store`, `memory-store`, …), for logs and errors. */
  readonly name: string;
  /**
   * Resolve what a user passes as `REF`: a captureId, a callId (the newest capture
   * carrying it wins) or a root-relative ref `tool-outputs/<captureId>[/<file>]`. A ref
   * to a stream file names the stream whatever its file is called now (`stdout.live`
   * keeps working after the rename to `stdout.txt`). Looking never changes anything.
   *
   * Throws `SPOOL_E_REF_INVALID` (empty, NUL byte, over-long, malformed id or file
   * name), `SPOOL_E_REF_OUTSIDE_ROOT` (absolute, `..`/`.`/empty segments, outside
   * `tool-outputs`, or through a link) or `SPOOL_E_REF_NOT_FOUND`.
   */
  resolve(ref: string): Promise<StoreRef>;
  /**
   * Where the capture stands now ({@link CaptureCondition}), writing nothing. Throws
   * `SPOOL_E_REF_NOT_FOUND` for an unknown capture, `SPOOL_E_UNSAFE_PATH` for one the
   * store refuses to look into.
   */
  state(captureId: string): Promise<StoredCapture>;
  /** Every capture and where it stands, oldest first (by process start), writing nothing. */
  list(): Promise<StoredCapture[]>;
  /**
   * Open a stream for bounded reads, bounded by what `state` advertises (pass the state
   * the caller decided on, so the bytes and the receipt it reports agree). Throws
   * `SPOOL_E_STORAGE` if committed bytes are missing, `SPOOL_E_REF_OUTSIDE_ROOT` if the
   * stored data is reached through a link.
   */
  openStream(state: StoredCapture, stream: StreamName): Promise<StoredStream>;
  /**
   * Observe a capture without busy polling by each caller: yields its current state at
   * once, then a new state each time what it advertises moves (a stream's committed or
   * retained bytes, the condition, the process state), and ends after yielding a state
   * that is not `live` (final or crashed), or when `signal` aborts. Concurrent watchers
   * of one capture share the store's one look (an implementation may poll underneath,
   * at an interval it documents, or be told by the writer). An SSE follow or `wait` is
   * this iteration plus {@link CaptureStore.openStream}.
   */
  watch(captureId: string, options?: WatchOptions): AsyncIterable<StoredCapture>;
  /** Per-consumer cursors. */
  readonly cursors: CursorBook;
  /** Completion notices, delivered once. */
  readonly completion: CompletionBook;
  /**
   * Reconcile one capture: a crashed one gets its crash receipt published as its final
   * receipt (exclusively: concurrent recoveries agree, and a second call changes
   * nothing); live and final ones are left alone.
   */
  reconcile(captureId: string): Promise<ReconciledCapture>;
  /** Reconcile every capture of the store (and whatever books the store keeps about them). */
  recover(): Promise<RecoveryReport>;
  /** Bytes the capture takes in the store (for `du`, and listings with sizes). */
  usage(captureId: string): Promise<CaptureUsage>;
  /**
   * Delete a capture and everything it holds. A `live` capture is refused
   * (`SPOOL_E_STATE`): its owner still writes. Throws `SPOOL_E_REF_NOT_FOUND` for an
   * unknown capture. The policy of what to delete (age, `--unseen`, quotas) is the
   * caller's (`spool rm`), not the store's.
   */
  remove(captureId: string): Promise<void>;
  /**
   * The order of writes across the capture's streams ({@link StreamOrder}), or null when
   * the store kept none for it (a store without this method keeps none).
   */
  order?(captureId: string): Promise<StreamOrder | null>;
}

/**
 * The order in which a capture took bytes across its two streams: each switch is a
 * stream (0 stdout, 1 stderr) and the offset in that stream where its run starts; a run
 * ends where the same stream's next switch starts, or at its committed end. `full`: the
 * store's bound was reached, so later bytes of each stream follow its last run.
 *
 * @category storage
 * @example
 * ```ts
 * import type { StreamOrder } from "@spool/core";
 * // "out", then "err", then more "out": stdout [0, 4), stderr [0, 4), stdout [4, …)
 * const order: StreamOrder = { switches: [[0, 0], [1, 0], [0, 4]], full: false };
 * ```
 */
export interface StreamOrder {
  readonly switches: readonly (readonly [0 | 1, number])[];
  readonly full: boolean;
}

/**
 * A cursor name: a short plain word, safe as part of a file name.
 *
 * @category storage
 * @example
 * ```ts
 * import { CURSOR_NAME_PATTERN } from "@spool/core";
 * CURSOR_NAME_PATTERN.test("my-agent"); // true
 * CURSOR_NAME_PATTERN.test("../x"); // false
 * ```
 */
export const CURSOR_NAME_PATTERN = /^(?!\.)[A-Za-z0-9._-]{1,64}$/;
