/**
 * A spool that keeps each stream in memory: for tests, and for library users who want
 * receipts and previews without files. It goes through the same bounded writer queue as
 * the file spool; its writer commits on send. What it stores reads back through its
 * {@link MemorySpool.store} (the read-side `CaptureStore` contract, `memory-store.ts`).
 *
 * @example
 * ```ts
 * import { createMemorySpool } from "@spool/sinks";
 * const memory = createMemorySpool();
 * // startCapture({ ..., spool: memory.factory }); later: memory.bytes(captureId, "stdout")
 * // or: await memory.store.openStream(await memory.store.state(captureId), "stdout")
 * ```
 */

import { createHash } from "node:crypto";
import {
  type CaptureSpool,
  type CaptureStore,
  type Clock,
  type Receipt,
  STREAM_NAMES,
  type StreamFinal,
  type StreamName,
} from "@spool/core/runtime";
import { TOOL_OUTPUTS } from "../file/storage.js";
import { createLineIndexer, lineIndexEntries } from "../store/line-index.js";
import {
  createWriterQueue,
  type WriterQueue,
  type WriterQueueOptions,
} from "../writer/writer-queue.js";
import { createMemoryStore, type MemoryCapture, type MemoryStreamData } from "./memory-store.js";

/**
 * The memory spool's name, as its errors and logs name it.
 *
 * @category storage
 * @example
 * ```ts
 * import { MEMORY_SPOOL } from "@spool/sinks";
 * MEMORY_SPOOL; // "memory-spool"
 * ```
 */
export const MEMORY_SPOOL = "memory-spool";

/**
 * Options of {@link createMemorySpool}.
 *
 * @category storage
 * @example
 * ```ts
 * import { createMemorySpool, type MemorySpoolOptions } from "@spool/sinks";
 * const options: MemorySpoolOptions = { queue: { budgetBytes: 1024 * 1024 } };
 * const memory = createMemorySpool(options);
 * ```
 */
export interface MemorySpoolOptions {
  /** The bounded writer queue of each stream (budget, stall timeout). @default WRITER_QUEUE_DEFAULTS */
  readonly queue?: WriterQueueOptions;
  /** Time source of the writer queue's stall timeout. @default systemClock */
  readonly clock?: Clock;
}

/**
 * A spool that keeps captures in memory ({@link createMemorySpool}): for tests and for
 * short-lived processes; `store` reads them back through the `CaptureStore` contract.
 *
 * @category storage
 * @example
 * ```ts
 * import { createMemorySpool } from "@spool/sinks";
 * const memory = createMemorySpool();
 * // startCapture({ ..., spool: memory.factory })
 * memory.bytes("AAAAAAAAAAAAAAAAAAAAAAAA", "stdout").toString();
 * ```
 */
export interface MemorySpool {
  /** The root its captures report: `"memory"` (it needs none). */
  readonly root: "memory";
  /** What a capture's `spool` option runs (give the capture the spool itself); the context's `root` and `startedAt` are optional here. */
  readonly factory: (context: {
    captureId: string;
    root?: string;
    startedAt?: number;
  }) => CaptureSpool;
  /** What was committed for a capture's stream so far. */
  bytes(captureId: string, stream: StreamName): Buffer;
  /** The last receipt published for a capture, if any. */
  receipt(captureId: string): unknown;
  /** Reads back what the factory's spools stored. */
  readonly store: CaptureStore;
}

/**
 * A spool kept in memory, with its store: for tests, and for captures nobody reads later.
 *
 * @category storage
 * @example
 * ```ts
 * import { createMemorySpool } from "@spool/sinks";
 * const memory = createMemorySpool();
 * // startCapture({ ..., spool: memory.factory }); then:
 * // memory.bytes(captureId, "stdout") and memory.store.list()
 * ```
 */
export function createMemorySpool(options: MemorySpoolOptions = {}): MemorySpool {
  const captures = new Map<string, MemoryCapture>();
  const receipts = new Map<string, unknown>();
  const { store, changed } = createMemoryStore(captures);
  return {
    root: "memory",
    factory(context) {
      const queues = {
        stdout: createWriterQueue(options.queue ?? {}, options.clock),
        stderr: createWriterQueue(options.queue ?? {}, options.clock),
      };
      const record: MemoryCapture = {
        captureId: context.captureId,
        root: context.root ?? "memory",
        startedAt: new Date(context.startedAt ?? Date.now()).toISOString(),
        streams: { stdout: emptyData(), stderr: emptyData() },
        live: null,
        final: null,
        closed: false,
        completionTaken: false,
        cursors: new Map(),
      };
      return memoryCaptureSpool(record, queues, {
        stored: () => captures.set(record.captureId, record),
        changed: () => changed(record.captureId),
        published: (receipt) => receipts.set(record.captureId, receipt),
      });
    },
    bytes(captureId, stream) {
      return Buffer.concat(captures.get(captureId)?.streams[stream].chunks ?? []);
    },
    receipt: (captureId) => receipts.get(captureId),
    store,
  };
}

interface SpoolHooks {
  /** The capture spilled: from now on it is in the store. */
  stored(): void;
  changed(): void;
  published(receipt: Receipt): void;
}

function memoryCaptureSpool(
  record: MemoryCapture,
  queues: Record<StreamName, WriterQueue>,
  hooks: SpoolHooks,
): CaptureSpool {
  const { captureId } = record;
  const refOf = (name: StreamName, ext: string) => `${TOOL_OUTPUTS}/${captureId}/${name}.${ext}`;
  let spilled = false;
  return {
    streams: queues,
    get spilled() {
      return spilled;
    },
    async spill() {
      if (!spilled) {
        spilled = true;
        hooks.stored();
        for (const name of STREAM_NAMES) connect(queues[name], record.streams[name], hooks);
      }
      return {
        dir: `memory:${captureId}`,
        refs: { stdout: refOf("stdout", "live"), stderr: refOf("stderr", "live") },
      };
    },
    async publishLive(receipt) {
      if (!spilled) return false;
      record.live = receipt;
      hooks.changed();
      return true;
    },
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
        const { committed, stopped } = queues[name].state;
        const hash = createHash("sha256");
        for (const c of record.streams[name].chunks) hash.update(c);
        const sha256 = hash.digest("hex");
        result[name] = { committed, sha256, ref: refOf(name, "txt"), path: null, stopped };
      }
      return result;
    },
    async publishReceipt(receipt) {
      hooks.published(receipt);
      if (!spilled) return;
      record.final = receipt;
      hooks.changed();
    },
    async close() {
      if (record.closed) return;
      record.closed = true;
      if (spilled) hooks.changed();
    },
  };
}

/** Let the queue's bytes flow into `data`, committing (and indexing lines) on send. */
function connect(queue: WriterQueue, data: MemoryStreamData, hooks: SpoolHooks): void {
  const indexer = createLineIndexer();
  let total = 0;
  queue.connect({
    send: (chunk) => {
      const copy = Buffer.from(chunk);
      const entries = indexer.scan(copy);
      if (entries) data.lineIndex.push(...lineIndexEntries(entries));
      data.chunks.push(copy);
      total += copy.byteLength;
      data.ends.push(total);
      const acked = total;
      queueMicrotask(() => {
        queue.ack(acked);
        hooks.changed();
      });
    },
  });
}

function emptyData(): MemoryStreamData {
  return { chunks: [], ends: [], lineIndex: [] };
}
