/**
 * The file writer, run as one long-lived piscina task per capture inside a worker
 * thread: it owns every file descriptor of the capture, so the reader on the main thread
 * never does a file write, and a writer stuck in the kernel stalls only this worker.
 * It is fed through a MessagePort; each write is acknowledged with the committed total,
 * which is the credit the main thread spends.
 */
import { createHash, type Hash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { CaptureReason } from "@spool/core";
import { createLineIndexer, type LineIndexer } from "./line-index.js";
import type { FinishedStream, FromWriter, ToWriter, WriterTask } from "./protocol.js";
import {
  createExclusive,
  ensurePrivateDir,
  publishAtomic,
  renameExclusive,
  syncDir,
  TOOL_OUTPUTS,
  writeFully,
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

export default function fileWriterTask({ port }: WriterTask): Promise<void> {
  return new Promise<void>((resolve) => {
    let dir = "";
    let streams: OpenStream[] = [];
    const send = (message: FromWriter) => port.postMessage(message);
    const done = () => {
      for (const s of streams) closeQuietly(s);
      port.close();
      resolve();
    };

    port.on("message", (message: ToWriter) => {
      switch (message.op) {
        case "open": {
          try {
            const outputs = ensurePrivateDir(path.join(message.root, TOOL_OUTPUTS));
            dir = path.join(outputs, message.captureId);
            fs.mkdirSync(dir, { mode: 0o700 }); // exclusive: an existing id is an error
            fs.chmodSync(dir, 0o700);
            ensurePrivateDir(dir);
            streams = message.files.map((name) => {
              const live = path.join(dir, name);
              const stem = name.replace(/\.live$/, "");
              return {
                fd: createExclusive(live),
                live,
                committed: 0,
                hash: createHash("sha256"),
                error: null,
                index: {
                  fd: createExclusive(path.join(dir, `${stem}.idx`)),
                  indexer: createLineIndexer(),
                  bytes: 0,
                },
              };
            });
            syncDir(outputs);
            send({ op: "opened", dir });
          } catch (error) {
            fail("open", error);
            done();
          }
          return;
        }
        case "write": {
          const s = streams[message.stream];
          if (!s || s.fd === null || s.error) return;
          try {
            writeFully(s.fd, message.data);
            s.hash.update(message.data);
            s.committed += message.data.byteLength;
            indexLines(s, message.data);
            send({ op: "ack", stream: message.stream, committed: s.committed });
          } catch (error) {
            const code = (error as NodeJS.ErrnoException).code ?? "EIO";
            s.error = code === "ENOSPC" || code === "EDQUOT" ? "no-space" : "write-error";
            // Keep the file at the last whole write: a known boundary.
            try {
              fs.ftruncateSync(s.fd, s.committed);
            } catch {
              // the boundary is still `committed`; the file may hold a torn tail past it
            }
            send({
              op: "stream-error",
              stream: message.stream,
              reason: s.error,
              committed: s.committed,
              code,
            });
          }
          return;
        }
        case "live": {
          try {
            publishAtomic(dir, "live.json", Buffer.from(message.json));
          } catch {
            // a missed live snapshot is superseded by the next one, or by receipt.json
          }
          return;
        }
        case "finish": {
          const results = streams.map((s, i): FinishedStream => {
            let file: string | null = null;
            try {
              if (s.fd !== null) {
                fs.fsyncSync(s.fd);
                fs.closeSync(s.fd);
                s.fd = null;
              }
              closeIndex(s);
              const finalPath = path.join(dir, message.finalNames[i]!);
              renameExclusive(s.live, finalPath);
              file = finalPath;
            } catch (error) {
              s.error ??=
                (error as NodeJS.ErrnoException).code === "ENOSPC" ? "no-space" : "write-error";
              file = null;
            }
            return { committed: s.committed, sha256: s.hash.digest("hex"), file, error: s.error };
          }) as [FinishedStream, FinishedStream];
          try {
            syncDir(dir);
          } catch {
            // reported through the receipt publish that follows
          }
          send({ op: "finished", streams: results });
          return;
        }
        case "receipt": {
          try {
            publishAtomic(dir, "receipt.json", Buffer.from(message.json));
            send({ op: "published" });
          } catch (error) {
            fail("receipt", error);
          }
          done();
          return;
        }
        case "close":
          done();
          return;
      }
    });

    function fail(stage: string, error: unknown) {
      const e = error as NodeJS.ErrnoException & { code?: string };
      send({ op: "failed", stage, code: e.code ?? "EIO", message: e.message ?? String(error) });
    }
  });
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

function closeIndex(s: OpenStream) {
  if (!s.index) return;
  try {
    fs.closeSync(s.index.fd);
  } catch {
    // already closed
  }
  s.index = null;
}

function closeQuietly(s: OpenStream) {
  closeIndex(s);
  if (s.fd === null) return;
  try {
    fs.closeSync(s.fd);
  } catch {
    // already closed
  }
  s.fd = null;
}
