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
} from "@spool/core/runtime";
import {
  type Allowance,
  type AllowanceSource,
  createRetentionLimit,
  type RetentionLimit,
} from "./quota.js";

export const QUOTA_SPOOL = "quota-spool";

export interface QuotaOptions {
  /** Bytes one capture may keep over both streams; null for no ceiling. @default null */
  readonly maxBytes?: number | null;
  /** Where each capture reserves what it keeps (asked at spill); null for none. @default null */
  readonly allowance?: AllowanceSource | null;
}

export function withQuotas(factory: SpoolFactory, options: QuotaOptions): SpoolFactory {
  const maxBytes = options.maxBytes ?? null;
  if (maxBytes !== null && (!Number.isSafeInteger(maxBytes) || maxBytes < 0)) {
    throw new SpoolError("SPOOL_E_OPTIONS", QUOTA_SPOOL, "maxBytes must be a whole number ≥ 0");
  }
  const source = options.allowance ?? null;
  return (context) => createQuotaSpool(factory(context), context, maxBytes, source);
}

type Cut = Extract<CaptureReason, "quota" | "root-quota">;

function createQuotaSpool(
  inner: CaptureSpool,
  context: SpoolContext,
  maxBytes: number | null,
  source: AllowanceSource | null,
): CaptureSpool {
  // Bytes handed to the inner stream, and why the wrapper stopped it (if it did).
  const admitted: Record<StreamName, number> = { stdout: 0, stderr: 0 };
  const cut: Record<StreamName, Cut | null> = { stdout: null, stderr: null };
  let allowance: Allowance | null = null;
  let limit: RetentionLimit = createRetentionLimit({ maxBytes, allowance: null });
  let spilling: ReturnType<CaptureSpool["spill"]> | null = null;
  let released = false;

  // What the capture keeps: admitted bytes, except where the inner spool stopped a stream
  // (then what it committed; the rest was dropped and counts no more).
  const kept = () =>
    STREAM_NAMES.reduce((sum, name) => {
      const state = inner.streams[name].state;
      return sum + (state.stopped !== null ? state.committed : admitted[name]);
    }, 0);

  const stream = (name: StreamName): StreamWriter => {
    const writer = inner.streams[name];
    return {
      offer(batch) {
        if (cut[name] !== null) return "stopped";
        if (writer.state.stopped !== null) return writer.offer(batch);
        const want = batchBytes(batch);
        const { allow, reason } = limit.admit(kept(), want);
        if (reason === null) {
          admitted[name] += want;
          return writer.offer(batch);
        }
        cut[name] = reason;
        if (allow > 0) {
          admitted[name] += allow;
          writer.offer(prefix(batch, allow));
        }
        return "stopped";
      },
      ready: () => (cut[name] !== null ? Promise.resolve() : writer.ready()),
      flushed: () => writer.flushed(),
      stop: (reason) => writer.stop(reason),
      get state() {
        const state = writer.state;
        return { ...state, stopped: state.stopped ?? cut[name] };
      },
    };
  };

  const release = () => {
    if (released || !allowance) return;
    released = true;
    try {
      allowance.release(kept());
    } catch {
      // an unreleased reservation is settled from what was kept by the next reconcile
    }
  };

  // The held bytes reach storage once the inner spool spills: reserve them first.
  const reserveHeld = (granted: Allowance) => {
    allowance = granted;
    limit = createRetentionLimit({ maxBytes, allowance: granted });
    let room: number;
    try {
      room = granted.reserve(kept());
    } catch {
      room = granted.reserved;
    }
    for (const name of STREAM_NAMES) {
      const held = inner.streams[name].state.stopped === null ? admitted[name] : 0;
      if (held <= room) room -= held;
      else {
        cut[name] = "root-quota";
        admitted[name] = 0;
        inner.streams[name].stop("root-quota");
      }
    }
  };

  return {
    streams: { stdout: stream("stdout"), stderr: stream("stderr") },
    get spilled() {
      return inner.spilled;
    },
    spill() {
      spilling ??= (async () => {
        if (source) reserveHeld(await source(context));
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
        result[name] = { ...final, stopped: final.stopped ?? cut[name] };
      }
      release();
      return result;
    },
    publishReceipt: (receipt) => inner.publishReceipt(receipt),
    async close() {
      release();
      await inner.close();
    },
  };
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
