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
} from "@spool/core";
import { z } from "zod";

export const WRITER_QUEUE = "writer-queue";

export const WriterQueueOptionsSchema = z.object({
  /** Most bytes held, queued plus in flight. @default 4 MiB */
  budgetBytes: z
    .number()
    .int()
    .min(64 * 1024)
    .default(4 * 1024 * 1024),
  /** How long the reader may wait on a writer that makes no progress. @default 2000 */
  stallMs: z.number().int().nonnegative().default(2000),
  /** Bytes in flight to the writer before waiting for acks (the credit window). @default 1 MiB */
  creditBytes: z
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  /** Largest message sent to the writer. @default 256 KiB */
  messageBytes: z
    .number()
    .int()
    .positive()
    .default(256 * 1024),
});
export type WriterQueueOptions = z.input<typeof WriterQueueOptionsSchema>;

export interface WriterTransport {
  /** Ownership of `chunk` passes to the transport. */
  send(chunk: Uint8Array): void;
}

export interface WriterQueue extends StreamWriter {
  /** Start sending held and future bytes. */
  connect(transport: WriterTransport): void;
  /** The writer reports `committed` bytes durable in all (monotonic). */
  ack(committed: number): void;
  /** Counters for tests and benchmarks. */
  readonly stats: { readonly peakBytes: number; readonly budgetBytes: number };
}

export function createWriterQueue(
  options: WriterQueueOptions,
  clock: Clock = systemClock,
): WriterQueue {
  const opts = WriterQueueOptionsSchema.parse(options);
  // The reader is told to wait while one more read (≤ 64 KiB, the pipe chunk) could still fit.
  const waitAt = opts.budgetBytes - Math.min(opts.messageBytes, opts.budgetBytes / 4);
  const chunks: Uint8Array[] = [];
  let head = 0; // index of the first unsent chunk
  let queuedBytes = 0; // held here, not yet sent
  let inFlight = 0;
  let committed = 0;
  let sentTotal = 0;
  let peak = 0;
  let stopped: CaptureReason | null = null;
  let transport: WriterTransport | null = null;
  // Each waiter resumes when its condition holds (or persistence stopped).
  let waiters: Array<{ when: () => boolean; resolve: () => void }> = [];
  let cancelStall: (() => void) | null = null;

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
      const message = new Uint8Array(size);
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
      if (stopped) return "stopped";
      let n = 0;
      for (const chunk of batch) {
        if (chunk.byteLength === 0) continue;
        chunks.push(chunk);
        n += chunk.byteLength;
      }
      queuedBytes += n;
      peak = Math.max(peak, total());
      if (total() > opts.budgetBytes) {
        // Only a batch larger than the reserve can get here: refuse to grow past the budget.
        queue.stop("writer-saturated");
        return "stopped";
      }
      pump();
      return total() >= waitAt ? "wait" : ("accepted" as OfferResult);
    },
    ready: () => waitFor(underBudget),
    stop(reason) {
      if (stopped) return;
      stopped = reason;
      chunks.length = 0;
      head = 0;
      queuedBytes = 0;
      settleWaiters();
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
      pump();
      settleWaiters();
      if (waiters.length > 0) armStall(); // progress: the stall clock starts again
    },
    flushed: () => waitFor(empty),
    get state() {
      return { committed, queued: total(), stopped };
    },
    get stats() {
      return { peakBytes: peak, budgetBytes: opts.budgetBytes };
    },
  };
  return queue;
}

const EMPTY = new Uint8Array(0);
