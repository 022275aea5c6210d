/**
 * Retention limits for any spool (SPEC §7): `withQuotas` wraps a {@link SpoolFactory} so
 * that its captures keep at most `maxBytes` over both streams together (`--max-bytes`,
 * reason `quota`) and reserve what they keep from a shared {@link Allowance}
 * (`--root-quota`, reason `root-quota`). The limits are applied where bytes are offered,
 * before the spool's own queue: a batch that crosses a limit is cut at the exact byte,
 * the part under it is kept, and the stream takes nothing more while the reader drains
 * on. The wrapped spool never learns of the limits, so the file spool, the memory spool
 * and yours honour them alike.
 *
 * The allowance is asked for once the capture spills, for the bytes offered so far (held
 * in the spool's queue) before any of them reach storage; a stream whose held bytes the
 * allowance cannot cover whole is stopped with nothing kept (bytes in a queue cannot be
 * cut). From then on each offer reserves what it needs, at the exact byte.
 *
 * @example
 * ```ts
 * import { createMemorySpool, createMemoryAllowance, withQuotas } from "@spool/sinks";
 * const memory = createMemorySpool();
 * const factory = withQuotas(memory.factory, {
 *   maxBytes: 32 * 1024 * 1024,
 *   allowance: createMemoryAllowance({ limit: 128 * 1024 * 1024 }).source,
 * });
 * // startCapture({ ..., spool: factory })
 * ```
 */
import {
  type Batch,
  batchBytes,
  type CaptureReason,
  type CaptureSpool,
  type SpoolContext,
  SpoolError,
  type SpoolFactory,
  STREAM_NAMES,
  type StreamFinal,
  type StreamName,
  type StreamWriter,
  type WriterListener,
} from "@spool/core/runtime";
import { isLockBusy } from "../lock/lock-busy.js";
import {
  type Allowance,
  type AllowanceSource,
  createRetentionLimit,
  type RetentionLimit,
} from "./quota.js";

/**
 * The quota wrapper's name, as its errors and logs name it.
 *
 * @category quotas
 * @example
 * ```ts
 * import { QUOTA_SPOOL } from "@spool/sinks";
 * QUOTA_SPOOL; // "quota-spool"
 * ```
 */
export const QUOTA_SPOOL = "quota-spool";

/**
 * What `withQuotas` takes: a per-capture ceiling and a shared allowance, both off unless given.
 *
 * @category quotas
 * @example
 * ```ts
 * import { createMemoryAllowance, type QuotaOptions } from "@spool/sinks";
 * const options: QuotaOptions = { maxBytes: 8 * 1024 * 1024, allowance: createMemoryAllowance({ limit: 64 * 1024 * 1024 }).source };
 * ```
 */
export interface QuotaOptions {
  /**
   * Bytes one capture may keep over both streams; null for no ceiling. The library sets
   * none; the CLI passes `DEFAULT_MAX_BYTES` (32 MiB, `--max-bytes`).
   * @default null
   */
  readonly maxBytes?: number | null;
  /**
   * Where each capture reserves what it keeps (asked at spill); null for none. The library
   * sets none; the CLI passes `rootQuotaAllowance(DEFAULT_ROOT_QUOTA)` (128 MiB, `--root-quota`).
   * @default null
   */
  readonly allowance?: AllowanceSource | null;
}

/**
 * Limits around any spool: `maxBytes` per capture, `allowance` shared by a root. The
 * library's defaults are no limits; the CLI uses {@link DEFAULT_MAX_BYTES} (32 MiB) and
 * {@link DEFAULT_ROOT_QUOTA} (128 MiB).
 *
 * @category quotas
 * @example
 * ```ts
 * import { createFileSpool, DEFAULT_MAX_BYTES, DEFAULT_ROOT_QUOTA, rootQuotaAllowance, withQuotas } from "@spool/sinks";
 * const files = createFileSpool({});
 * const factory = withQuotas(files.factory, {
 *   maxBytes: DEFAULT_MAX_BYTES,
 *   allowance: rootQuotaAllowance(DEFAULT_ROOT_QUOTA),
 * });
 * ```
 */
export function withQuotas(factory: SpoolFactory, options: QuotaOptions): SpoolFactory {
  const maxBytes = options.maxBytes ?? null;
  if (maxBytes !== null && (!Number.isSafeInteger(maxBytes) || maxBytes < 0)) {
    throw new SpoolError("SPOOL_E_OPTIONS", QUOTA_SPOOL, "maxBytes must be a whole number ≥ 0");
  }
  const source = options.allowance ?? null;
  return (context) => createQuotaSpool(factory(context), context, maxBytes, source);
}

type Cut = Extract<CaptureReason, "quota" | "root-quota" | "storage-unavailable">;

/** One capture's limits and what it has handed to the wrapped spool so far. */
interface Books {
  readonly inner: CaptureSpool;
  readonly maxBytes: number | null;
  /** Bytes handed to each inner stream. */
  readonly admitted: Record<StreamName, number>;
  /** Why the wrapper stopped a stream, if it did. */
  readonly cut: Record<StreamName, Cut | null>;
  allowance: Allowance | null;
  limit: RetentionLimit;
  released: boolean;
}

function createQuotaSpool(
  inner: CaptureSpool,
  context: SpoolContext,
  maxBytes: number | null,
  source: AllowanceSource | null,
): CaptureSpool {
  const books: Books = {
    inner,
    maxBytes,
    admitted: { stdout: 0, stderr: 0 },
    cut: { stdout: null, stderr: null },
    allowance: null,
    limit: createRetentionLimit({ maxBytes, allowance: null }),
    released: false,
  };
  let spilling: ReturnType<CaptureSpool["spill"]> | null = null;
  return {
    streams: { stdout: limitedWriter(books, "stdout"), stderr: limitedWriter(books, "stderr") },
    get spilled() {
      return inner.spilled;
    },
    spill() {
      spilling ??= (async () => {
        // The held bytes reach storage once the inner spool spills: reserve them first.
        if (source) reserveHeld(books, await source(context));
        return inner.spill();
      })();
      return spilling;
    },
    publishLive: (receipt) => inner.publishLive(receipt),
    async finish() {
      const finals = await inner.finish();
      const result = {} as Record<StreamName, StreamFinal>;
      for (const name of STREAM_NAMES) {
        const final = finals[name];
        result[name] = { ...final, stopped: final.stopped ?? books.cut[name] };
      }
      release(books);
      return result;
    },
    publishReceipt: (receipt) => inner.publishReceipt(receipt),
    async close() {
      release(books);
      await inner.close();
    },
  };
}

/**
 * What the capture keeps: admitted bytes, except where the inner spool stopped a stream
 * (then what it committed; the rest was dropped and counts no more).
 */
function kept(books: Books): number {
  return STREAM_NAMES.reduce((sum, name) => {
    const state = books.inner.streams[name].state;
    return sum + (state.stopped !== null ? state.committed : books.admitted[name]);
  }, 0);
}

/** The inner stream's writer, behind the limits: a batch past one is cut at the exact byte. */
function limitedWriter(books: Books, name: StreamName): StreamWriter {
  const writer = books.inner.streams[name];
  // A stop reason reaches the capture once, whether the inner writer stopped or we cut.
  let listener: WriterListener | null = null;
  let told: CaptureReason | null = null;
  let toldError: SpoolError | undefined;
  const tell = (reason: CaptureReason, error?: SpoolError) => {
    if (told !== null) return;
    told = reason;
    toldError = error;
    listener?.stopped(reason, error);
  };
  return {
    offer(batch) {
      if (books.cut[name] !== null) return "stopped";
      if (writer.state.stopped !== null) return writer.offer(batch);
      const want = batchBytes(batch);
      const { allow, reason, error } = books.limit.admit(kept(books), want);
      if (reason === null) {
        books.admitted[name] += want;
        return writer.offer(batch);
      }
      books.cut[name] = reason;
      if (allow > 0) {
        books.admitted[name] += allow;
        writer.offer(prefix(batch, allow));
      }
      tell(reason, error);
      return "stopped";
    },
    ready: () => (books.cut[name] !== null ? Promise.resolve() : writer.ready()),
    flushed: () => writer.flushed(),
    stop: (reason, error) => writer.stop(reason, error),
    watch(l) {
      listener = l;
      if (told !== null) l.stopped(told, toldError);
      writer.watch({ committed: (total) => l.committed(total), stopped: tell });
    },
    get state() {
      const state = writer.state;
      return { ...state, stopped: state.stopped ?? books.cut[name] };
    },
  };
}

/**
 * The capture spills: reserve what its queues hold. Queued bytes cannot be cut, so a
 * stream (stdout first) whose held bytes do not fit whole is stopped with nothing kept.
 * Books that cannot be written now (a root it may not write) throw: the spill fails
 * (`storage-unavailable`) before any byte reaches storage; books whose lock stays busy
 * fail closed (`root-quota`), as every later reservation does.
 */
function reserveHeld(books: Books, allowance: Allowance): void {
  let room: number;
  try {
    room = allowance.reserve(kept(books));
  } catch (error) {
    // Books that are busy (their lock held past its timeout): fail closed, keep nothing.
    // Any other lock fault (a bogus lock: a directory, FIFO or link) fails the spill.
    if (!isLockBusy(error)) throw error;
    room = allowance.reserved;
  }
  books.allowance = allowance;
  books.limit = createRetentionLimit({ maxBytes: books.maxBytes, allowance });
  for (const name of STREAM_NAMES) {
    const writer = books.inner.streams[name];
    const held = writer.state.stopped === null ? books.admitted[name] : 0;
    if (held <= room) room -= held;
    else {
      books.cut[name] = "root-quota";
      books.admitted[name] = 0;
      writer.stop("root-quota");
    }
  }
}

/** The capture is done: its reservation settles to what it kept. */
function release(books: Books): void {
  if (books.released || !books.allowance) return;
  books.released = true;
  try {
    books.allowance.release(kept(books));
  } catch {
    // an unreleased reservation is settled from what was kept by the next reconcile
  }
}

/** The first `n` bytes of `batch` (0 < n < its size), without copying. */
function prefix(batch: Batch, n: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let left = n;
  for (const chunk of batch) {
    if (left <= 0) break;
    out.push(chunk.byteLength <= left ? chunk : chunk.subarray(0, left));
    left -= chunk.byteLength;
  }
  return out;
}
