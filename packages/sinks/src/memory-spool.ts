/**
 * A spool that keeps each stream in memory: for tests, and for library users who want
 * receipts and previews without files. It goes through the same bounded writer queue as
 * the file spool; its writer commits on send.
 *
 * @example
 * ```ts
 * import { createMemorySpool } from "@spool/sinks";
 * const memory = createMemorySpool();
 * // startCapture({ ..., spool: memory.factory }); later: memory.bytes(captureId, "stdout")
 * ```
 */

import { createHash } from "node:crypto";
import {
  type CaptureSpool,
  type Clock,
  STREAM_NAMES,
  type StreamFinal,
  type StreamName,
} from "@spool/core/runtime";
import { createWriterQueue, type WriterQueueOptions } from "./writer-queue.js";

export const MEMORY_SPOOL = "memory-spool";

export interface MemorySpoolOptions {
  readonly queue?: WriterQueueOptions;
  readonly clock?: Clock;
}

export interface MemorySpool {
  readonly factory: (context: { captureId: string }) => CaptureSpool;
  /** What was committed for a capture's stream so far. */
  bytes(captureId: string, stream: StreamName): Buffer;
  /** The last receipt published for a capture, if any. */
  receipt(captureId: string): unknown;
}

export function createMemorySpool(options: MemorySpoolOptions = {}): MemorySpool {
  const stored = new Map<string, Record<StreamName, Uint8Array[]>>();
  const receipts = new Map<string, unknown>();
  return {
    factory({ captureId }) {
      const chunks: Record<StreamName, Uint8Array[]> = { stdout: [], stderr: [] };
      const queues = {
        stdout: createWriterQueue(options.queue ?? {}, options.clock),
        stderr: createWriterQueue(options.queue ?? {}, options.clock),
      };
      let spilled = false;
      const spool: CaptureSpool = {
        streams: queues,
        get spilled() {
          return spilled;
        },
        async spill() {
          if (!spilled) {
            spilled = true;
            stored.set(captureId, chunks);
            for (const name of STREAM_NAMES) {
              let total = 0;
              queues[name].connect({
                send: (chunk) => {
                  chunks[name].push(chunk);
                  total += chunk.byteLength;
                  queueMicrotask(() => queues[name].ack(total));
                },
              });
            }
          }
          return {
            dir: `memory:${captureId}`,
            refs: { stdout: `memory:${captureId}/stdout`, stderr: `memory:${captureId}/stderr` },
          };
        },
        publishLive: async () => false, // no live.json in memory
        async finish() {
          if (!spilled) {
            const none: StreamFinal = {
              committed: 0,
              sha256: null,
              ref: null,
              path: null,
              stopped: null,
            };
            return { stdout: none, stderr: none };
          }
          await Promise.all(STREAM_NAMES.map((n) => queues[n].flushed()));
          const result = {} as Record<StreamName, StreamFinal>;
          for (const name of STREAM_NAMES) {
            const hash = createHash("sha256");
            for (const c of chunks[name]) hash.update(c);
            const { committed, stopped } = queues[name].state;
            result[name] = {
              committed,
              sha256: hash.digest("hex"),
              ref: `memory:${captureId}/${name}`,
              path: null,
              stopped,
            };
          }
          return result;
        },
        async publishReceipt(receipt) {
          receipts.set(captureId, receipt);
        },
        async close() {},
      };
      return spool;
    },
    bytes(captureId, stream) {
      return Buffer.concat(stored.get(captureId)?.[stream] ?? []);
    },
    receipt: (captureId) => receipts.get(captureId),
  };
}
