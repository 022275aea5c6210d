/**
 * The file writer, run as one long-lived piscina task per capture inside a worker
 * thread: it owns every file descriptor of the capture, so the reader on the main thread
 * never does a file write, and a writer stuck in the kernel stalls only this worker.
 * It is fed through a MessagePort; each write is acknowledged with the committed total,
 * which is the credit the main thread spends.
 *
 * It keeps every byte it is sent (retention limits are applied before the queue, by
 * `withQuotas`); a storage fault cuts the stream at an exact byte (`committed`), the
 * file is truncated back to it, and the stream stops with the reason (`no-space`,
 * `write-error`) while the reader drains on. Every reply names its request (`re`).
 *
 * Its imports are budgeted (test/worker-imports.test.ts): node built-ins, storage, the
 * line index and `@spool/core/errors` only; no zod, pino, rxjs or `@spool/core/runtime`.
 */
import { createHash, type Hash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { MessagePort } from "node:worker_threads";
import type { CaptureReason } from "@spool/core/runtime";
import {
  createFaultyFs,
  type FaultSpec,
  type FsLayer,
  fsyncInBackground,
  nodeFs,
} from "../file/fs-layer.js";
import {
  createExclusive,
  ensurePrivateDir,
  errnoOf,
  publishAtomic,
  renameExclusive,
  syncDir,
  TOOL_OUTPUTS,
  tryUnlink,
  writeFully,
  writeSome,
} from "../file/storage.js";
import { currentOwner, OWNER_FILE } from "../lock/owner-identity.js";
import { createLineIndexer, type LineIndexer } from "../store/line-index.js";
import {
  closeFinalRecords,
  dropReserve,
  EXIT_FILE,
  type FinalRecords,
  publishReserved,
  RECEIPT_RESERVE,
  recordExit,
  reserveFinalRecords,
} from "./final-records.js";
import { appendOrder, closeOrder, createOrderFile, type OrderFile } from "./order-journal.js";
import type {
  ExitRequest,
  FinishedStream,
  FinishRequest,
  FromWriter,
  LiveRequest,
  OpenRequest,
  ReceiptRequest,
  SystemFailure,
  ToWriter,
  WriteRequest,
  WriterTask,
} from "./protocol.js";
import { createSyncClock, DEFAULT_SYNC_CADENCE, type SyncClock } from "./sync-cadence.js";

interface OpenStream {
  fd: number | null;
  live: string;
  /** The `.live` file's real path (what errors name; `live` may go through `/proc/self/fd`). */
  file: string;
  /** Bytes written, acknowledged (readable). */
  committed: number;
  /** Bytes an fsync has made durable (≤ committed); all a stream stopped by an I/O error claims. */
  synced: number;
  sync: SyncClock;
  /** An fsync of the stream runs on the thread pool ({@link startSync}). */
  syncing: boolean;
  hash: Hash;
  /** Bytes the hash covers: the sha256 is claimed only while it equals `committed`. */
  hashed: number;
  error: CaptureReason | null;
  /** The first system call that failed on the stream (errno, call, real path). */
  failure: SystemFailure | null;
  /** Whether the stop was told to the main thread (a stop by the sync timer is told later). */
  told: boolean;
  /** The write that cost the stream its line index (the data goes on; readers scan). */
  indexFailure: SystemFailure | null;
  /** Counts the lines of every byte written, and makes the index's entries (kept when the index is dropped: the receipt's `lines`). */
  indexer: LineIndexer;
  /** The sparse line index beside the data file; null once it cannot be written. */
  index: { fd: number; bytes: number } | null;
}

/** One capture's writer: its directory, its streams, and how to answer. */
interface Writer {
  /** The capture directory's real path (what receipts name). */
  dir: string;
  root: string;
  captureId: string;
  /**
   * How the writer names the directory for its own operations: on Linux through its open
   * descriptor (`/proc/self/fd/<fd>/.`), so a directory swapped for a link while the
   * capture runs is never followed (Node has no `openat`); else `dir`.
   */
  at: string;
  dirFd: number | null;
  fsl: FsLayer;
  streams: OpenStream[];
  /** The reserved `receipt.json` space and `exit.json` (final-records.ts). */
  records: FinalRecords | null;
  /** The child's fate as last recorded, and whether the receipt failed to publish. */
  exit: { process: unknown; reasons: string[] | null; receiptError: string | null } | null;
  /** The pending age-based sync (sync-cadence.ts). */
  syncTimer: ReturnType<typeof setTimeout> | null;
  /** A finish that waits for the streams' background fsyncs to end (their errors count). */
  pendingFinish: FinishRequest | null;
  /** `order.jnl`, the stream-switch journal (order-journal.ts). */
  order: OrderFile;
  send(message: FromWriter, transfer?: ArrayBuffer[]): void;
}

export default function fileWriterTask({ port }: WriterTask): Promise<void> {
  return runWriter(port, (faults) => (faults.length > 0 ? createFaultyFs(nodeFs, faults) : nodeFs));
}

/**
 * The writer's loop over `port`, on the file-system layer `layerFor` makes of the open
 * request's faults. Tests run it in-process with a layer of their own (one that holds an
 * fsync until told, say); the task above uses the real one.
 */
export function runWriter(
  port: MessagePort,
  layerFor: (faults: readonly FaultSpec[]) => FsLayer,
): Promise<void> {
  return new Promise<void>((resolve) => {
    const writer: Writer = {
      dir: "",
      root: "",
      captureId: "",
      at: "",
      dirFd: null,
      fsl: nodeFs,
      streams: [],
      records: null,
      exit: null,
      syncTimer: null,
      pendingFinish: null,
      order: createOrderFile(),
      send: (message, transfer = []) => port.postMessage(message, transfer),
    };
    const done = () => {
      if (writer.syncTimer) clearTimeout(writer.syncTimer);
      writer.syncTimer = null;
      writer.pendingFinish = null;
      for (const s of writer.streams) closeQuietly(s, writer.fsl);
      if (writer.records) closeFinalRecords(writer.records, writer.fsl);
      closeOrder(writer.order, writer.fsl);
      if (writer.dirFd !== null) fs.closeSync(writer.dirFd);
      writer.dirFd = null;
      port.close();
      resolve();
    };
    port.on("message", (message: ToWriter) => {
      switch (message.op) {
        case "open":
          if (!open(writer, message, layerFor)) done();
          return;
        case "write":
          write(writer, message);
          return;
        case "live":
          replaceLive(writer, message);
          return;
        case "exit":
          exited(writer, message);
          return;
        case "finish":
          finish(writer, message);
          return;
        case "receipt":
          publishReceipt(writer, message);
          done();
          return;
        case "close":
          done();
          return;
      }
    });
  });
}

/**
 * Create the capture directory, `owner.json` first, then the reserves for its last words
 * (final-records.ts), then the `.live` files. If any of it fails, what was made is
 * removed again, so no ownerless directory is left to look "being set up".
 */
function open(
  w: Writer,
  message: OpenRequest,
  layerFor: (faults: readonly FaultSpec[]) => FsLayer,
): boolean {
  let outputs = "";
  try {
    w.fsl = layerFor(message.faults);
    w.root = message.root;
    w.captureId = message.captureId;
    outputs = ensurePrivateDir(path.join(message.root, TOOL_OUTPUTS), { fs: w.fsl });
    w.dir = ensurePrivateDir(path.join(outputs, message.captureId), { exclusive: true, fs: w.fsl });
    pinDir(w);
    // First in the directory: who is writing it, so recovery leaves it alone.
    const owner = {
      ...currentOwner(),
      captureId: message.captureId,
      startedAt: new Date(message.startedAt).toISOString(),
    };
    publishAtomic(w.at, OWNER_FILE, Buffer.from(`${JSON.stringify(owner)}\n`), { fs: w.fsl });
    w.records = reserveFinalRecords(w.at, w.fsl);
    w.streams = message.files.map((name) => openStream(w, name));
    syncDir(outputs, w.fsl);
    w.send({ op: "opened", re: message.id, dir: w.dir });
    return true;
  } catch (error) {
    abandon(w, message.files);
    replyFailed(w, message.id, "open", error);
    return false;
  }
}

function openStream(w: Writer, name: string): OpenStream {
  const live = path.join(w.at, name);
  const stem = name.replace(/\.live$/, "");
  return {
    fd: createExclusive(live, w.fsl),
    live,
    file: path.join(w.dir, name),
    committed: 0,
    synced: 0,
    sync: createSyncClock(DEFAULT_SYNC_CADENCE, Date.now),
    syncing: false,
    hash: createHash("sha256"),
    hashed: 0,
    error: null,
    failure: null,
    told: false,
    indexFailure: null,
    indexer: createLineIndexer(),
    index: { fd: createExclusive(path.join(w.at, `${stem}.idx`), w.fsl), bytes: 0 },
  };
}

/** Opening failed: remove whatever of the new capture directory was made (best effort). */
function abandon(w: Writer, files: readonly string[]): void {
  for (const s of w.streams) closeQuietly(s, w.fsl);
  w.streams = [];
  if (w.records) closeFinalRecords(w.records, w.fsl);
  w.records = null;
  if (!w.dir) return;
  const stems = files.map((f) => f.replace(/\.live$/, ""));
  const names = [OWNER_FILE, RECEIPT_RESERVE, EXIT_FILE, ...files, ...stems.map((f) => `${f}.idx`)];
  for (const name of names) tryUnlink(path.join(w.at || w.dir, name), w.fsl);
  try {
    for (const name of w.fsl.readdirSync(w.at || w.dir)) {
      if (/^\.[A-Za-z0-9._-]+\.tmp$/.test(name)) tryUnlink(path.join(w.at || w.dir, name), w.fsl);
    }
    fs.rmdirSync(w.dir);
  } catch {
    // read-only, or not empty: readers see no owner and, after a short grace, a crash
  }
}

/**
 * Append a whole message, or stop the stream at the last durable byte. A stream stopped
 * by the sync timer is told with the next write; later writes are answered by nothing.
 */
function write(w: Writer, message: WriteRequest): void {
  const s = w.streams[message.stream];
  if (!s || s.fd === null) return;
  if (s.error) {
    if (!s.told) tellStopped(w, s, message);
    return;
  }
  const outcome = writeSome(s.fd, message.data, w.fsl);
  const written = message.data.subarray(0, outcome.written);
  s.hash.update(written);
  s.hashed += outcome.written;
  s.committed += outcome.written;
  s.sync.wrote(outcome.written);
  indexLines(w, s, written);
  const syncError = outcome.error === null ? keepSyncing(w, s) : null;
  if (outcome.error === null && syncError === null) {
    // The buffer goes back to the queue for reuse (see WriterQueue.recycle).
    const buffer = message.data.buffer as ArrayBuffer;
    const { id: re, stream } = message;
    w.send({ op: "ack", re, stream, committed: s.committed, buffer }, [buffer]);
    armSyncTimer(w);
    return;
  }
  stopStream(
    s,
    failureOf(w, outcome.error ?? syncError, outcome.error ? "write" : "fsync", s.file),
    w.fsl,
  );
  tellStopped(w, s, message);
}

function tellStopped(w: Writer, s: OpenStream, message: WriteRequest): void {
  const failure = s.failure ?? { code: "EIO", syscall: "write", path: s.file };
  s.told = true;
  w.send({
    op: "stream-error",
    re: message.id,
    stream: message.stream,
    reason: s.error ?? "write-error",
    committed: s.committed,
    code: failure.code,
    failure,
  });
}

/**
 * Sync by the cadence without stalling the writes: a due fsync starts on the thread pool
 * and the writes go on while the disk catches up (an fsync in line stalled the whole
 * pipeline, and left all of the last stretch to the final sync). Only when another cadence
 * of bytes is due while one runs does the writer wait for a synchronous fsync, so the bytes
 * a crash of the machine can take stay bounded (at most twice the cadence past the last
 * completed sync). The error of that synchronous fsync, else null.
 */
function keepSyncing(w: Writer, s: OpenStream): unknown {
  if (!s.sync.due()) return null;
  if (!s.syncing) {
    startSync(w, s);
    return null;
  }
  return s.sync.unsynced >= DEFAULT_SYNC_CADENCE.bytes ? syncStream(s, w.fsl) : null;
}

/**
 * fsync a stream on the thread pool: what was committed when it started is durable when it
 * succeeds; a failure stops the stream as a failing synchronous fsync would (told with the
 * next write or at finish). A finish waiting for it runs when the last one ends.
 */
function startSync(w: Writer, s: OpenStream): void {
  if (s.fd === null) return;
  const target = s.committed;
  s.syncing = true;
  s.sync.synced();
  fsyncInBackground(w.fsl, s.fd, (error) => {
    s.syncing = false;
    if (s.fd !== null && !s.error) {
      if (error === null) s.synced = Math.max(s.synced, target);
      else stopStream(s, failureOf(w, error, "fsync", s.file), w.fsl);
    }
    const waiting = w.pendingFinish;
    if (waiting === null) armSyncTimer(w);
    else if (!w.streams.some((t) => t.syncing)) {
      w.pendingFinish = null;
      finish(w, waiting);
    }
  });
}

/** fsync one stream; the error (nothing more is synced) if the fsync fails, else null. */
function syncStream(s: OpenStream, fsl: FsLayer): unknown {
  if (s.fd === null) return Object.assign(new Error("the stream is closed"), { code: "EBADF" });
  try {
    fsl.fsyncSync(s.fd);
  } catch (error) {
    return error ?? new Error("fsync failed");
  }
  s.synced = s.committed;
  s.sync.synced();
  return null;
}

/**
 * A stream hit a storage error (`failure`, the first one is kept): it keeps what is
 * durable. One more fsync is tried (a full disk still syncs what was written); if that
 * fails too, `committed` falls back to the last synced byte and the file is cut there when
 * it can be.
 */
function stopStream(s: OpenStream, failure: SystemFailure, fsl: FsLayer): void {
  s.failure ??= failure;
  s.error ??= reasonOf(failure.code);
  if (syncStream(s, fsl) !== null) s.committed = s.synced;
  try {
    if (s.fd !== null) fsl.ftruncateSync(s.fd, s.committed);
  } catch {
    // the boundary is still `committed`; a torn tail past it is not claimed
  }
}

/** Sync streams whose oldest unsynced byte is due by age; re-arm while any is unsynced. */
function armSyncTimer(w: Writer): void {
  if (w.syncTimer) return;
  const waits = w.streams.map((s) =>
    s.fd === null || s.error || s.syncing ? null : s.sync.msUntilDue(),
  );
  const next = Math.min(...waits.filter((ms): ms is number => ms !== null));
  if (!Number.isFinite(next)) return;
  w.syncTimer = setTimeout(() => {
    w.syncTimer = null;
    for (const s of w.streams) {
      if (s.fd === null || s.error || s.syncing || !s.sync.due()) continue;
      startSync(w, s);
    }
    armSyncTimer(w);
  }, next);
}

function replaceLive(w: Writer, message: LiveRequest): void {
  if (message.order) appendOrder(w.order, w.at, message.order, w.fsl);
  let ok = true;
  try {
    publishAtomic(w.at, "live.json", Buffer.from(message.json), { replace: true, fs: w.fsl });
  } catch {
    ok = false; // a missed live snapshot is superseded by the next one, or by receipt.json
  }
  w.send({ op: "live-replaced", re: message.id, ok });
}

/**
 * Sync, close and rename each stream to its final name; a stream that cannot keeps `.live`.
 * A stream whose last sync fails claims only what an earlier sync made durable (and then
 * no sha256: the hash covers bytes that may be lost). Waits first for the background
 * fsyncs still running: a failure of one is reported once, by it, not by the final sync.
 */
function finish(w: Writer, message: FinishRequest): void {
  if (message.order) appendOrder(w.order, w.at, message.order, w.fsl);
  message.order = undefined; // a finish that waits for fsyncs comes back here
  closeOrder(w.order, w.fsl);
  if (w.syncTimer) clearTimeout(w.syncTimer);
  w.syncTimer = null;
  if (w.streams.some((s) => s.syncing)) {
    w.pendingFinish = message;
    return;
  }
  const results = w.streams.map((s, i): FinishedStream => {
    let file: string | null = null;
    try {
      if (s.fd !== null) {
        const fd = s.fd;
        const syncError = syncStream(s, w.fsl);
        if (syncError !== null) stopStream(s, failureOf(w, syncError, "fsync", s.file), w.fsl);
        s.fd = null;
        w.fsl.closeSync(fd);
        // Not durable: it keeps its `.live` name (a final name promises a whole file).
        if (syncError !== null) throw syncError;
      }
      closeIndex(s);
      const finalPath = path.join(w.at, message.finalNames[i]!);
      renameExclusive(s.live, finalPath, w.fsl);
      file = path.join(w.dir, message.finalNames[i]!); // the real path, not the descriptor's
    } catch (error) {
      const finalPath = path.join(w.dir, message.finalNames[i]!);
      s.failure ??= failureOf(w, error, "rename", finalPath);
      s.error ??= reasonOf(s.failure.code);
      file = null;
    }
    // Counts of exactly the committed bytes, while they are all that was written.
    const whole = s.committed === s.hashed;
    const sha256 = whole ? s.hash.digest("hex") : null;
    const { lines, endsWithNewline } = whole
      ? s.indexer.counted()
      : { lines: null, endsWithNewline: null };
    const { failure, indexFailure } = s;
    const counts = { committed: s.committed, sha256, lines, endsWithNewline };
    return { ...counts, file, error: s.error, failure, indexFailure };
  }) as [FinishedStream, FinishedStream];
  try {
    syncDir(w.at, w.fsl);
  } catch {
    // reported through the receipt publish that follows
  }
  w.send({ op: "finished", re: message.id, streams: results });
}

/** The child's fate is known: record it where `wait` finds it even if no receipt follows. */
function exited(w: Writer, message: ExitRequest): void {
  w.exit = { process: message.process, reasons: message.reasons, receiptError: null };
  writeExitRecord(w);
}

function writeExitRecord(w: Writer): void {
  if (!w.records || !w.exit) return;
  const record = { version: 1, captureId: w.captureId, ...w.exit };
  recordExit(w.records, { root: w.root, captureId: w.captureId }, JSON.stringify(record), w.fsl);
}

function publishReceipt(w: Writer, message: ReceiptRequest): void {
  try {
    const data = Buffer.from(message.json);
    if (w.records) publishReserved(w.at, w.records, data, w.fsl);
    else publishAtomic(w.at, "receipt.json", data, { fs: w.fsl });
    w.send({ op: "published", re: message.id });
  } catch (error) {
    if (w.records) dropReserve(w.at, w.records, w.fsl);
    // The exit record now also says the receipt is missing, and why.
    if (w.exit) {
      w.exit.receiptError = errnoOf((error as { cause?: unknown }).cause ?? error);
      writeExitRecord(w);
    }
    replyFailed(w, message.id, "receipt", error);
  }
}

function replyFailed(w: Writer, re: number, stage: string, error: unknown): void {
  const e = systemErrorOf(error);
  w.send({
    op: "failed",
    re,
    stage,
    code: e.code ?? "EIO",
    message: e.message ?? String(error),
    ...(typeof e.syscall === "string" ? { syscall: e.syscall } : {}),
    ...(typeof e.path === "string" ? { path: realPathOf(w, e.path) } : {}),
  });
}

/** A SpoolError from the storage layer keeps the system error (errno, syscall, path) as its cause. */
function systemErrorOf(error: unknown): Partial<NodeJS.ErrnoException> {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const system =
    (cause as NodeJS.ErrnoException | undefined)?.syscall !== undefined ? cause : error;
  return (system ?? {}) as Partial<NodeJS.ErrnoException>;
}

/** What failed, for the main thread: errno, the call (else `syscall`), the real path (else `file`). */
function failureOf(w: Writer, error: unknown, syscall: string, file: string): SystemFailure {
  const e = systemErrorOf(error);
  return {
    code: typeof e.code === "string" ? e.code : errnoOf(error),
    syscall: typeof e.syscall === "string" ? e.syscall : syscall,
    path: typeof e.path === "string" ? realPathOf(w, e.path) : file,
  };
}

/** A path under the directory's descriptor name (`/proc/self/fd/<fd>/.`), as its real path. */
function realPathOf(w: Writer, p: string): string {
  const at = w.at.replace(/\/\.$/, "");
  if (!at || w.at === w.dir || (p !== at && !p.startsWith(`${at}/`))) return p;
  return path.join(w.dir, p.slice(at.length));
}

function reasonOf(code: string): CaptureReason {
  return code === "ENOSPC" || code === "EDQUOT" ? "no-space" : "write-error";
}

/**
 * Append index entries after the data they point into; an index failure only drops the
 * index (and is reported at finish).
 */
function indexLines(w: Writer, s: OpenStream, data: Uint8Array) {
  const entries = s.indexer.scan(data);
  if (!s.index || !entries) return;
  try {
    writeFully(s.index.fd, entries, w.fsl);
    s.index.bytes += entries.byteLength;
  } catch (error) {
    s.indexFailure ??= failureOf(w, error, "write", s.file.replace(/\.live$/, ".idx"));
    // Never leave a torn entry; readers scan on from the last whole one.
    try {
      fs.ftruncateSync(s.index.fd, s.index.bytes);
    } catch {
      // a torn tail shorter than one entry is ignored by readers
    }
    closeIndex(s);
  }
}

/** Name the directory through an open descriptor where `/proc/self/fd` allows (see `Writer.at`). */
function pinDir(w: Writer): void {
  w.at = w.dir;
  const fd = fs.openSync(
    w.dir,
    fs.constants.O_RDONLY |
      fs.constants.O_DIRECTORY |
      fs.constants.O_NOFOLLOW |
      fs.constants.O_NONBLOCK,
  );
  const st = fs.fstatSync(fd);
  const via = `/proc/self/fd/${fd}/.`;
  let pinned = false;
  try {
    const named = fs.statSync(via);
    pinned = named.ino === st.ino && named.dev === st.dev;
  } catch {
    // no /proc: the path it is
  }
  if (!pinned) {
    fs.closeSync(fd);
    return;
  }
  w.dirFd = fd;
  w.at = via;
}

function closeIndex(s: OpenStream) {
  if (!s.index) return;
  try {
    fs.closeSync(s.index.fd);
  } catch {
    // already closed
  }
  s.index = null;
}

function closeQuietly(s: OpenStream, fsl: FsLayer) {
  closeIndex(s);
  if (s.fd === null) return;
  try {
    fsl.closeSync(s.fd);
  } catch {
    // already closed
  }
  s.fd = null;
}
