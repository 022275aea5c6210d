/**
 * The file writer, run as one long-lived piscina task per capture inside a worker
 * thread: it owns every file descriptor of the capture, so the reader on the main thread
 * never does a file write, and a writer stuck in the kernel stalls only this worker.
 * It is fed through a MessagePort; each write is acknowledged with the committed total,
 * which is the credit the main thread spends.
 *
 * Before each write it asks the capture's retention limit how much may be kept; a
 * limit or a storage fault cuts the stream at an exact byte (`committed`), the file is
 * truncated back to it, and the stream stops with the reason (`quota`, `root-quota`,
 * `no-space`, `write-error`) while the reader drains on.
 */
import { createHash, type Hash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { CaptureReason } from "@spool/core/runtime";
import { createFaultyFs, type FsLayer, nodeFs } from "./fs-layer.js";
import { createLineIndexer, type LineIndexer } from "./line-index.js";
import { currentOwner, OWNER_FILE } from "./owner.js";
import type { FinishedStream, FromWriter, ToWriter, WriterTask } from "./protocol.js";
import { createRetentionLimit, type RetentionLimit } from "./quota.js";
import { createRootAllowance } from "./root-quota.js";
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

export default function fileWriterTask({ port }: WriterTask): Promise<void> {
  return new Promise<void>((resolve) => {
    let dir = "";
    let fsl: FsLayer = nodeFs;
    let limit: RetentionLimit = createRetentionLimit({ maxBytes: null, allowance: null });
    let streams: OpenStream[] = [];
    let settled = false;
    const send = (message: FromWriter, transfer: ArrayBuffer[] = []) =>
      port.postMessage(message, transfer);
    const kept = () => streams.reduce((sum, s) => sum + s.committed, 0);
    const settle = () => {
      if (settled) return;
      settled = true;
      try {
        limit.settle(kept());
      } catch {
        // an unsettled reservation is settled from the files by the next reconcile
      }
    };
    const done = () => {
      for (const s of streams) closeQuietly(s, fsl);
      settle();
      port.close();
      resolve();
    };

    port.on("message", (message: ToWriter) => {
      switch (message.op) {
        case "open": {
          try {
            fsl = message.faults.length > 0 ? createFaultyFs(nodeFs, message.faults) : nodeFs;
            const outputs = ensurePrivateDir(path.join(message.root, TOOL_OUTPUTS), { fs: fsl });
            dir = ensurePrivateDir(path.join(outputs, message.captureId), {
              exclusive: true,
              fs: fsl,
            });
            // First in the directory: who is writing it, so recovery leaves it alone.
            const owner = {
              ...currentOwner(),
              captureId: message.captureId,
              startedAt: new Date(message.startedAt).toISOString(),
            };
            publishAtomic(dir, OWNER_FILE, Buffer.from(`${JSON.stringify(owner)}\n`), { fs: fsl });
            limit = createRetentionLimit({
              maxBytes: message.maxBytes,
              allowance:
                message.rootQuota === null
                  ? null
                  : createRootAllowance({
                      root: message.root,
                      limit: message.rootQuota,
                      captureId: message.captureId,
                      fs: fsl,
                    }),
            });
            streams = message.files.map((name) => {
              const live = path.join(dir, name);
              const stem = name.replace(/\.live$/, "");
              return {
                fd: createExclusive(live, fsl),
                live,
                committed: 0,
                hash: createHash("sha256"),
                error: null,
                index: {
                  fd: createExclusive(path.join(dir, `${stem}.idx`), fsl),
                  indexer: createLineIndexer(),
                  bytes: 0,
                },
              };
            });
            syncDir(outputs, fsl);
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
          const { allow, reason } = limit.admit(kept(), message.data.byteLength);
          const data = message.data.subarray(0, allow);
          const outcome = writeSome(s.fd, data, fsl);
          s.hash.update(data.subarray(0, outcome.written));
          s.committed += outcome.written;
          indexLines(s, data.subarray(0, outcome.written));
          if (outcome.error === null && reason === null) {
            // The buffer goes back to the queue for reuse (see WriterQueue.recycle).
            const buffer = message.data.buffer as ArrayBuffer;
            send({ op: "ack", stream: message.stream, committed: s.committed, buffer }, [buffer]);
            return;
          }
          let code = "EQUOTA";
          if (outcome.error) {
            code = errnoOf(outcome.error);
            s.error = code === "ENOSPC" || code === "EDQUOT" ? "no-space" : "write-error";
            // Keep the file at the last whole byte written: a known boundary.
            try {
              fsl.ftruncateSync(s.fd, s.committed);
            } catch {
              // the boundary is still `committed`; a torn tail past it is not reported
            }
          } else s.error = reason;
          send({
            op: "stream-error",
            stream: message.stream,
            reason: s.error!,
            committed: s.committed,
            code,
          });
          return;
        }
        case "live": {
          try {
            publishAtomic(dir, "live.json", Buffer.from(message.json), { replace: true, fs: fsl });
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
                const fd = s.fd;
                s.fd = null;
                try {
                  fsl.fsyncSync(fd);
                } finally {
                  fsl.closeSync(fd);
                }
              }
              closeIndex(s);
              const finalPath = path.join(dir, message.finalNames[i]!);
              renameExclusive(s.live, finalPath, fsl);
              file = finalPath;
            } catch (error) {
              const code = errnoOf((error as { cause?: unknown }).cause ?? error);
              s.error ??= code === "ENOSPC" || code === "EDQUOT" ? "no-space" : "write-error";
              file = null;
            }
            return { committed: s.committed, sha256: s.hash.digest("hex"), file, error: s.error };
          }) as [FinishedStream, FinishedStream];
          try {
            syncDir(dir, fsl);
          } catch {
            // reported through the receipt publish that follows
          }
          settle();
          send({ op: "finished", streams: results });
          return;
        }
        case "receipt": {
          try {
            publishAtomic(dir, "receipt.json", Buffer.from(message.json), { fs: fsl });
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
