/**
 * The bounded writer queue between a stream's reader and its writer. It holds at most
 * `budgetBytes` (queued plus in flight); near the budget it answers "wait" so the
 * reader pauses the pipe (backpressure, like `tee`: a slow disk loses nothing). If the
 * writer makes no progress for `stallMs` while the reader waits, persistence stops
 * (`writer-saturated`) and the reader drains on, so a stuck disk never blocks the child.
 * Before it is connected (the small-result path) it only holds.
 *
 * @example
 * ```ts
 * import { createWriterQueue } from "@spool/sinks";
 * const sent: Uint8Array[] = [];
 * const queue = createWriterQueue({});
 * queue.offer([Buffer.from("hello")]);   // "accepted", held
 * queue.connect({ send: (chunk) => sent.push(chunk) });
 * queue.ack(5);                          // the writer committed 5 bytes
 * queue.state.committed;                 // 5
 * ```
 */
import {
  type CaptureReason,
  type Clock,
  type OfferResult,
  type StreamWriter,
  systemClock,
  type WriterListener,
} from "@spool/core/runtime";
import { resolveWriterQueueOptions, type WriterQueueOptions } from "./writer-queue-options.js";

export type { WriterQueueOptions } from "./writer-queue-options.js";

export const WRITER_QUEUE = "writer-queue";

export interface WriterTransport {
  /**
   * Ownership of `chunk` passes to the transport. `chunk` may be a view on a larger
   * message buffer; the writer may hand that buffer back through {@link WriterQueue.recycle}.
   */
  send(chunk: Uint8Array): void;
}

export interface WriterQueue extends StreamWriter {
  /** Start sending held and future bytes. */
  connect(transport: WriterTransport): void;
  /** The writer reports `committed` bytes durable in all (monotonic). */
  ack(committed: number): void;
  /**
   * Give back a message buffer the writer is done with, so the next message reuses it
   * instead of allocating (dead transferred buffers are collected late and swelled RSS).
   */
  recycle(buffer: ArrayBuffer): void;
  /** Counters for tests and benchmarks. */
  readonly stats: WriterQueueStats;
}

/** The queue's own counters. */
export interface WriterQueueStats {
  /** Most bytes ever held at once (queued plus in flight). */
  readonly peakBytes: number;
  readonly budgetBytes: number;
  /** Readers waiting right now for room (or for the flush). */
  readonly waiting: number;
  /** Bytes offered and taken, in all. */
  readonly acceptedBytes: number;
  /** Bytes dropped unpersisted when persistence stopped, plus those offered afterwards. */
  readonly droppedBytes: number;
  /** Bytes sent to the writer at the moment persistence stopped (the boundary is `committed`). */
  readonly sentBytes: number;
}

export function createWriterQueue(
  options: WriterQueueOptions,
  clock: Clock = systemClock,
): WriterQueue {
  const opts = resolveWriterQueueOptions(options);
  // The reader is told to wait while one more read (≤ 64 KiB, the pipe chunk) could still fit.
  const waitAt = opts.budgetBytes - Math.min(opts.messageBytes, opts.budgetBytes / 4);
  const chunks: Uint8Array[] = [];
  let head = 0; // index of the first unsent chunk
  let queuedBytes = 0; // held here, not yet sent
  let inFlight = 0;
  let committed = 0;
  let sentTotal = 0;
  let peak = 0;
  let acceptedTotal = 0;
  let dropped = 0;
  // Message buffers back from the writer: enough for a full credit window, plus one.
  const free: ArrayBuffer[] = [];
  const maxFree = Math.ceil(opts.creditBytes / opts.messageBytes) + 1;
  let stopped: CaptureReason | null = null;
  let transport: WriterTransport | null = null;
  // Each waiter resumes when its condition holds (or persistence stopped).
  let waiters: Array<{ when: () => boolean; resolve: () => void }> = [];
  let cancelStall: (() => void) | null = null;
  let listener: WriterListener | null = null;

  const total = () => queuedBytes + inFlight;
  const settleWaiters = () => {
    const due = waiters.filter((w) => stopped !== null || w.when());
    waiters = waiters.filter((w) => !due.includes(w));
    if (waiters.length === 0) {
      cancelStall?.();
      cancelStall = null;
    }
    for (const w of due) w.resolve();
  };
  const waitFor = (when: () => boolean): Promise<void> => {
    if (stopped !== null || when()) return Promise.resolve();
    return new Promise<void>((resolve) => {
      waiters.push({ when, resolve });
      if (!cancelStall) armStall();
    });
  };
  const underBudget = () => total() <= waitAt / 2;
  const empty = () => total() === 0;
  const armStall = () => {
    cancelStall?.();
    cancelStall = clock.setTimeout(() => queue.stop("writer-saturated"), opts.stallMs);
  };

  const pump = () => {
    if (!transport || stopped) return;
    while (queuedBytes > 0 && inFlight < opts.creditBytes) {
      const size = Math.min(queuedBytes, opts.messageBytes);
      const buffer = free.pop() ?? new ArrayBuffer(opts.messageBytes);
      const message = new Uint8Array(buffer, 0, size);
      let filled = 0;
      while (filled < size) {
        const chunk = chunks[head]!;
        const n = Math.min(chunk.byteLength, size - filled);
        message.set(n === chunk.byteLength ? chunk : chunk.subarray(0, n), filled);
        filled += n;
        if (n === chunk.byteLength) chunks[head++] = EMPTY;
        else chunks[head] = chunk.subarray(n);
      }
      if (head > 1024) {
        chunks.splice(0, head);
        head = 0;
      }
      queuedBytes -= size;
      inFlight += size;
      sentTotal += size;
      transport.send(message);
    }
  };

  const queue: WriterQueue = {
    offer(batch) {
      if (stopped) {
        for (const chunk of batch) dropped += chunk.byteLength;
        return "stopped";
      }
      let n = 0;
      for (const chunk of batch) n += chunk.byteLength;
      if (total() + n > opts.budgetBytes) {
        // Only a batch larger than the reserve can get here: refuse to grow past the budget.
        dropped += n;
        queue.stop("writer-saturated");
        return "stopped";
      }
      for (const chunk of batch) if (chunk.byteLength > 0) chunks.push(chunk);
      queuedBytes += n;
      acceptedTotal += n;
      peak = Math.max(peak, total());
      pump();
      return total() >= waitAt ? "wait" : ("accepted" as OfferResult);
    },
    ready: () => waitFor(underBudget),
    stop(reason) {
      if (stopped) return;
      stopped = reason;
      // What was queued is dropped; what was in flight may still be acknowledged.
      dropped += queuedBytes;
      chunks.length = 0;
      head = 0;
      queuedBytes = 0;
      settleWaiters();
      listener?.stopped(reason);
    },
    watch(l) {
      listener = l;
      if (committed > 0) l.committed(committed);
      if (stopped) l.stopped(stopped);
    },
    connect(t) {
      transport = t;
      pump();
    },
    ack(total) {
      if (total <= committed) return;
      const progress = Math.min(total, sentTotal) - committed;
      committed += progress;
      inFlight -= progress;
      if (progress > 0) listener?.committed(committed);
      pump();
      settleWaiters();
      if (waiters.length > 0) armStall(); // progress: the stall clock starts again
    },
    recycle(buffer) {
      if (buffer.byteLength === opts.messageBytes && free.length < maxFree) free.push(buffer);
    },
    flushed: () => waitFor(empty),
    get state() {
      return { committed, queued: total(), stopped };
    },
    get stats() {
      return {
        peakBytes: peak,
        budgetBytes: opts.budgetBytes,
        waiting: waiters.length,
        acceptedBytes: acceptedTotal,
        droppedBytes: dropped,
        sentBytes: sentTotal,
      };
    },
  };
  return queue;
}

const EMPTY = new Uint8Array(0);
