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
  type SpoolError,
  type StreamWriter,
  systemClock,
  type WriterListener,
} from "@spool/core/runtime";
import { resolveWriterQueueOptions, type WriterQueueOptions } from "./writer-queue-options.js";

export type { WriterQueueOptions } from "./writer-queue-options.js";

/**
 * The writer queue's name, as its errors and logs name it.
 *
 * @category storage
 * @example
 * ```ts
 * import { WRITER_QUEUE } from "@spool/sinks";
 * WRITER_QUEUE; // "writer-queue"
 * ```
 */
export const WRITER_QUEUE = "writer-queue";

/**
 * Where a {@link WriterQueue} sends its bytes (a worker's port, or memory): ownership of
 * each chunk passes to it.
 *
 * @category storage
 * @example
 * ```ts
 * import type { WriterTransport } from "@spool/sinks";
 * const received: Uint8Array[] = [];
 * const transport: WriterTransport = { send: (chunk) => received.push(chunk) };
 * ```
 */
export interface WriterTransport {
  /**
   * Ownership of `chunk` passes to the transport. `chunk` may be a view on a larger
   * message buffer; the writer may hand that buffer back through {@link WriterQueue.recycle}.
   */
  send(chunk: Uint8Array): void;
}

/**
 * The bounded writer queue as a {@link StreamWriter}: it holds at most `budgetBytes`,
 * sends through a {@link WriterTransport} once connected, and counts bytes durable when
 * the writer acks them.
 *
 * @category storage
 * @example
 * ```ts
 * import { createWriterQueue } from "@spool/sinks";
 * const queue = createWriterQueue({});
 * queue.connect({ send: (chunk) => queue.ack(queue.state.committed + chunk.byteLength) }); // a writer that is done at once
 * queue.offer([Buffer.from("hi\n")]);
 * queue.state.committed; // 3
 * ```
 */
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

/**
 * The queue's own counters (for tests and benchmarks).
 *
 * @category storage
 * @example
 * ```ts
 * import { createWriterQueue } from "@spool/sinks";
 * const queue = createWriterQueue({});
 * queue.stats.peakBytes; // 0
 * ```
 */
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

/**
 * A bounded writer queue: `offer` answers "wait" once `budgetBytes` are held, and a
 * writer that makes no progress for `stallMs` stops persistence (`writer-saturated`)
 * rather than blocking the capture. Spools make one per stream.
 *
 * @category storage
 * @example
 * ```ts
 * import { createWriterQueue } from "@spool/sinks";
 * const queue = createWriterQueue({ budgetBytes: 1024 * 1024, stallMs: 2000 });
 * queue.offer([Buffer.from("held until a transport connects\n")]); // "accepted"
 * ```
 */
export function createWriterQueue(
  options: WriterQueueOptions,
  clock: Clock = systemClock,
): WriterQueue {
  const opts = resolveWriterQueueOptions(options);
  const s: QueueState = {
    opts,
    // The reader is told to wait while one more read (≤ 64 KiB, the pipe chunk) could still fit.
    waitAt: opts.budgetBytes - Math.min(opts.messageBytes, opts.budgetBytes / 4),
    fifo: createChunkFifo(),
    // Message buffers back from the writer: enough for a full credit window, plus one.
    pool: createMessagePool(opts.messageBytes, Math.ceil(opts.creditBytes / opts.messageBytes) + 1),
    clock,
    gathering: null,
    gathered: false,
    waiters: createStallWaiters(
      clock,
      opts.stallMs,
      () => s.stopped !== null,
      () => stopQueue(s, "writer-saturated"),
    ),
    inFlight: 0,
    committed: 0,
    sentTotal: 0,
    peak: 0,
    acceptedTotal: 0,
    dropped: 0,
    stopped: null,
    stopError: undefined,
    transport: null,
    listener: null,
  };
  const total = () => s.fifo.bytes + s.inFlight;
  const underBudget = () => total() <= s.waitAt / 2;
  const empty = () => total() === 0;
  return {
    offer: (batch) => offerBatch(s, batch),
    ready: () => s.waiters.waitFor(underBudget),
    stop: (reason, error) => stopQueue(s, reason, error),
    watch(l) {
      s.listener = l;
      if (s.committed > 0) l.committed(s.committed);
      if (s.stopped) l.stopped(s.stopped, s.stopError);
    },
    connect(t) {
      s.transport = t;
      pump(s);
    },
    ack: (committed) => ackCommitted(s, committed),
    recycle: (buffer) => s.pool.recycle(buffer),
    flushed() {
      sendGathered(s); // nothing more is coming for a while: no need to wait for it
      return s.waiters.waitFor(empty);
    },
    get state() {
      return { committed: s.committed, queued: total(), stopped: s.stopped };
    },
    get stats() {
      return {
        peakBytes: s.peak,
        budgetBytes: opts.budgetBytes,
        waiting: s.waiters.count,
        acceptedBytes: s.acceptedTotal,
        droppedBytes: s.dropped,
        sentBytes: s.sentTotal,
      };
    },
  };
}

/** One queue's state; the functions below are its transitions. */
interface QueueState {
  readonly opts: ReturnType<typeof resolveWriterQueueOptions>;
  readonly waitAt: number;
  /** Held here, not yet sent. */
  readonly fifo: ChunkFifo;
  readonly pool: MessagePool;
  readonly waiters: StallWaiters;
  readonly clock: Clock;
  /** Cancels the timer that sends a short message to an idle writer, while it runs. */
  gathering: (() => void) | null;
  /** The gathering time is over: a short message may go. */
  gathered: boolean;
  inFlight: number;
  committed: number;
  sentTotal: number;
  peak: number;
  acceptedTotal: number;
  dropped: number;
  stopped: CaptureReason | null;
  /** The storage failure behind the stop, if there was one. */
  stopError: SpoolError | undefined;
  transport: WriterTransport | null;
  listener: WriterListener | null;
}

function offerBatch(s: QueueState, batch: readonly Uint8Array[]): OfferResult {
  if (s.stopped) {
    for (const chunk of batch) s.dropped += chunk.byteLength;
    return "stopped";
  }
  let n = 0;
  for (const chunk of batch) n += chunk.byteLength;
  if (s.fifo.bytes + s.inFlight + n > s.opts.budgetBytes) {
    // Only a batch larger than the reserve can get here: refuse to grow past the budget.
    s.dropped += n;
    stopQueue(s, "writer-saturated");
    return "stopped";
  }
  s.fifo.push(batch, n);
  s.acceptedTotal += n;
  s.peak = Math.max(s.peak, s.fifo.bytes + s.inFlight);
  pump(s);
  return s.fifo.bytes + s.inFlight >= s.waitAt ? "wait" : "accepted";
}

/**
 * Send held bytes in messages while the credit window has room. A message short of
 * `messageBytes` goes only when nothing is in flight: otherwise the next ack pumps again,
 * so a busy writer gets whole messages (one post, one write per `messageBytes` rather than
 * per read). An idle writer gets one `gatherMs` after the first of its bytes came (a pipe
 * gives a read at a time, and a message costs the reader's thread the same whatever its
 * size), at once when the reader is about to be told to wait or the stream is flushed.
 */
function pump(s: QueueState): void {
  const transport = s.transport;
  if (!transport || s.stopped) return;
  while (s.fifo.bytes > 0 && s.inFlight < s.opts.creditBytes) {
    if (s.fifo.bytes < s.opts.messageBytes) {
      if (s.inFlight > 0) return;
      if (!s.gathered && s.opts.gatherMs > 0 && s.fifo.bytes < s.waitAt) {
        s.gathering ??= s.clock.setTimeout(() => {
          s.gathering = null;
          sendGathered(s);
        }, s.opts.gatherMs);
        return;
      }
    }
    const size = Math.min(s.fifo.bytes, s.opts.messageBytes);
    const message = new Uint8Array(s.pool.take(), 0, size);
    s.fifo.fill(message);
    s.inFlight += size;
    s.sentTotal += size;
    transport.send(message);
  }
}

/** Send what is held now, short of a message or not (the gathering time is over). */
function sendGathered(s: QueueState): void {
  s.gathered = true;
  pump(s);
  s.gathered = false;
}

function stopQueue(s: QueueState, reason: CaptureReason, error?: SpoolError): void {
  if (s.stopped) return;
  s.stopped = reason;
  s.stopError = error;
  s.gathering?.();
  s.gathering = null;
  // What was queued is dropped; what was in flight may still be acknowledged.
  s.dropped += s.fifo.clear();
  s.waiters.settle();
  s.listener?.stopped(reason, error);
}

function ackCommitted(s: QueueState, total: number): void {
  if (total <= s.committed) return;
  const progress = Math.min(total, s.sentTotal) - s.committed;
  s.committed += progress;
  s.inFlight -= progress;
  if (progress > 0) s.listener?.committed(s.committed);
  pump(s);
  s.waiters.settle();
  s.waiters.progressed(); // progress: the stall clock starts again
}

/** The chunks offered and not yet sent, in order. */
interface ChunkFifo {
  /** Bytes held. */
  readonly bytes: number;
  /** Append `batch`, whose length is `n` bytes (empty chunks are skipped). */
  push(batch: readonly Uint8Array[], n: number): void;
  /** Move the first `message.byteLength` held bytes into `message`. */
  fill(message: Uint8Array): void;
  /** Drop everything held; returns how many bytes that was. */
  clear(): number;
}

function createChunkFifo(): ChunkFifo {
  let chunks: Uint8Array[] = [];
  let head = 0; // index of the first unsent chunk
  let bytes = 0;
  return {
    get bytes() {
      return bytes;
    },
    push(batch, n) {
      for (const chunk of batch) if (chunk.byteLength > 0) chunks.push(chunk);
      bytes += n;
    },
    fill(message) {
      const size = message.byteLength;
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
      bytes -= size;
    },
    clear() {
      const n = bytes;
      chunks = [];
      head = 0;
      bytes = 0;
      return n;
    },
  };
}

/** Message buffers the writer gave back, reused before allocating new ones. */
interface MessagePool {
  take(): ArrayBuffer;
  recycle(buffer: ArrayBuffer): void;
}

function createMessagePool(messageBytes: number, maxFree: number): MessagePool {
  const free: ArrayBuffer[] = [];
  return {
    take: () => free.pop() ?? new ArrayBuffer(messageBytes),
    recycle(buffer) {
      if (buffer.byteLength === messageBytes && free.length < maxFree) free.push(buffer);
    },
  };
}

/**
 * Readers waiting for a condition. Each resumes when its condition holds or persistence
 * stopped; while any waits, the stall clock runs and, if the writer makes no progress
 * for `stallMs`, `onStall` is called.
 */
interface StallWaiters {
  readonly count: number;
  waitFor(when: () => boolean): Promise<void>;
  /** Resume every waiter whose condition now holds. */
  settle(): void;
  /** The writer made progress: restart the stall clock if anyone still waits. */
  progressed(): void;
}

function createStallWaiters(
  clock: Clock,
  stallMs: number,
  stopped: () => boolean,
  onStall: () => void,
): StallWaiters {
  let waiters: Array<{ when: () => boolean; resolve: () => void }> = [];
  let cancelStall: (() => void) | null = null;
  const arm = () => {
    cancelStall?.();
    cancelStall = clock.setTimeout(onStall, stallMs);
  };
  return {
    get count() {
      return waiters.length;
    },
    waitFor(when) {
      if (stopped() || when()) return Promise.resolve();
      return new Promise<void>((resolve) => {
        waiters.push({ when, resolve });
        if (!cancelStall) arm();
      });
    },
    settle() {
      const due = waiters.filter((w) => stopped() || w.when());
      waiters = waiters.filter((w) => !due.includes(w));
      if (waiters.length === 0) {
        cancelStall?.();
        cancelStall = null;
      }
      for (const w of due) w.resolve();
    },
    progressed() {
      if (waiters.length > 0) arm();
    },
  };
}

const EMPTY = new Uint8Array(0);
