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
import type { CaptureReason } from "@spool/core/runtime";
import { createFaultyFs, type FsLayer, nodeFs } from "./fs-layer.js";
import { createLineIndexer, type LineIndexer } from "./line-index.js";
import { currentOwner, OWNER_FILE } from "./owner-identity.js";
import type {
  FinishedStream,
  FinishRequest,
  FromWriter,
  LiveRequest,
  OpenRequest,
  ReceiptRequest,
  ToWriter,
  WriteRequest,
  WriterTask,
} from "./protocol.js";
import {
  createExclusive,
  ensurePrivateDir,
  errnoOf,
  publishAtomic,
  renameExclusive,
  syncDir,
  TOOL_OUTPUTS,
  writeFully,
  writeSome,
} from "./storage.js";

interface OpenStream {
  fd: number | null;
  live: string;
  committed: number;
  hash: Hash;
  error: CaptureReason | null;
  /** The sparse line index beside the data file; null once it cannot be written. */
  index: { fd: number; indexer: LineIndexer; bytes: number } | null;
}

/** One capture's writer: its directory, its streams, and how to answer. */
interface Writer {
  /** The capture directory's real path (what receipts name). */
  dir: string;
  /**
   * How the writer names the directory for its own operations: on Linux through its open
   * descriptor (`/proc/self/fd/<fd>/.`), so a directory swapped for a link while the
   * capture runs is never followed (Node has no `openat`); else `dir`.
   */
  at: string;
  dirFd: number | null;
  fsl: FsLayer;
  streams: OpenStream[];
  send(message: FromWriter, transfer?: ArrayBuffer[]): void;
}

export default function fileWriterTask({ port }: WriterTask): Promise<void> {
  return new Promise<void>((resolve) => {
    const writer: Writer = {
      dir: "",
      at: "",
      dirFd: null,
      fsl: nodeFs,
      streams: [],
      send: (message, transfer = []) => port.postMessage(message, transfer),
    };
    const done = () => {
      for (const s of writer.streams) closeQuietly(s, writer.fsl);
      if (writer.dirFd !== null) fs.closeSync(writer.dirFd);
      writer.dirFd = null;
      port.close();
      resolve();
    };
    port.on("message", (message: ToWriter) => {
      switch (message.op) {
        case "open":
          if (!open(writer, message)) done();
          return;
        case "write":
          write(writer, message);
          return;
        case "live":
          replaceLive(writer, message);
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

/** Create the capture directory, `owner.json` first, then the `.live` files. */
function open(w: Writer, message: OpenRequest): boolean {
  try {
    w.fsl = message.faults.length > 0 ? createFaultyFs(nodeFs, message.faults) : nodeFs;
    const outputs = ensurePrivateDir(path.join(message.root, TOOL_OUTPUTS), { fs: w.fsl });
    w.dir = ensurePrivateDir(path.join(outputs, message.captureId), { exclusive: true, fs: w.fsl });
    pinDir(w);
    // First in the directory: who is writing it, so recovery leaves it alone.
    const owner = {
      ...currentOwner(),
      captureId: message.captureId,
      startedAt: new Date(message.startedAt).toISOString(),
    };
    publishAtomic(w.at, OWNER_FILE, Buffer.from(`${JSON.stringify(owner)}\n`), { fs: w.fsl });
    w.streams = message.files.map((name) => {
      const live = path.join(w.at, name);
      const stem = name.replace(/\.live$/, "");
      return {
        fd: createExclusive(live, w.fsl),
        live,
        committed: 0,
        hash: createHash("sha256"),
        error: null,
        index: {
          fd: createExclusive(path.join(w.at, `${stem}.idx`), w.fsl),
          indexer: createLineIndexer(),
          bytes: 0,
        },
      };
    });
    syncDir(outputs, w.fsl);
    w.send({ op: "opened", re: message.id, dir: w.dir });
    return true;
  } catch (error) {
    fail(w, message.id, "open", error);
    return false;
  }
}

/** Append a whole message, or stop the stream at the last byte written. */
function write(w: Writer, message: WriteRequest): void {
  const s = w.streams[message.stream];
  if (!s || s.fd === null || s.error) return;
  const outcome = writeSome(s.fd, message.data, w.fsl);
  const written = message.data.subarray(0, outcome.written);
  s.hash.update(written);
  s.committed += outcome.written;
  indexLines(s, written);
  if (outcome.error === null) {
    // The buffer goes back to the queue for reuse (see WriterQueue.recycle).
    const buffer = message.data.buffer as ArrayBuffer;
    const { id: re, stream } = message;
    w.send({ op: "ack", re, stream, committed: s.committed, buffer }, [buffer]);
    return;
  }
  const code = errnoOf(outcome.error);
  s.error = code === "ENOSPC" || code === "EDQUOT" ? "no-space" : "write-error";
  // Keep the file at the last whole byte written: a known boundary.
  try {
    w.fsl.ftruncateSync(s.fd, s.committed);
  } catch {
    // the boundary is still `committed`; a torn tail past it is not reported
  }
  w.send({
    op: "stream-error",
    re: message.id,
    stream: message.stream,
    reason: s.error,
    committed: s.committed,
    code,
  });
}

function replaceLive(w: Writer, message: LiveRequest): void {
  let ok = true;
  try {
    publishAtomic(w.at, "live.json", Buffer.from(message.json), { replace: true, fs: w.fsl });
  } catch {
    ok = false; // a missed live snapshot is superseded by the next one, or by receipt.json
  }
  w.send({ op: "live-replaced", re: message.id, ok });
}

/** Sync, close and rename each stream to its final name; a stream that cannot keeps `.live`. */
function finish(w: Writer, message: FinishRequest): void {
  const results = w.streams.map((s, i): FinishedStream => {
    let file: string | null = null;
    try {
      if (s.fd !== null) {
        const fd = s.fd;
        s.fd = null;
        try {
          w.fsl.fsyncSync(fd);
        } finally {
          w.fsl.closeSync(fd);
        }
      }
      closeIndex(s);
      const finalPath = path.join(w.at, message.finalNames[i]!);
      renameExclusive(s.live, finalPath, w.fsl);
      file = path.join(w.dir, message.finalNames[i]!); // the real path, not the descriptor's
    } catch (error) {
      const code = errnoOf((error as { cause?: unknown }).cause ?? error);
      s.error ??= code === "ENOSPC" || code === "EDQUOT" ? "no-space" : "write-error";
      file = null;
    }
    return { committed: s.committed, sha256: s.hash.digest("hex"), file, error: s.error };
  }) as [FinishedStream, FinishedStream];
  try {
    syncDir(w.at, w.fsl);
  } catch {
    // reported through the receipt publish that follows
  }
  w.send({ op: "finished", re: message.id, streams: results });
}

function publishReceipt(w: Writer, message: ReceiptRequest): void {
  try {
    publishAtomic(w.at, "receipt.json", Buffer.from(message.json), { fs: w.fsl });
    w.send({ op: "published", re: message.id });
  } catch (error) {
    fail(w, message.id, "receipt", error);
  }
}

function fail(w: Writer, re: number, stage: string, error: unknown): void {
  const e = error as NodeJS.ErrnoException & { code?: string };
  w.send({ op: "failed", re, stage, code: e.code ?? "EIO", message: e.message ?? String(error) });
}

/** Append index entries after the data they point into; an index failure only drops the index. */
function indexLines(s: OpenStream, data: Uint8Array) {
  if (!s.index) return;
  const entries = s.index.indexer.scan(data);
  if (!entries) return;
  try {
    writeFully(s.index.fd, entries);
    s.index.bytes += entries.byteLength;
  } catch {
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
