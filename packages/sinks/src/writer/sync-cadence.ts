/**
 * When the file writer fsyncs a stream: at the latest after {@link SyncCadence.bytes}
 * unsynced bytes, and at the latest {@link SyncCadence.ms} after the first unsynced byte
 * (a timer in the worker), so the bytes a crash of the machine or a failing disk can take
 * away are bounded in size and in age. (The writer runs that fsync in the background and
 * waits for one only when another cadence of bytes is due meanwhile: at most about twice
 * the bytes are ever unsynced.) `finish` syncs what is left, and a stream that
 * hits an I/O error keeps (and claims) only what a sync has made durable.
 *
 * The cadence is one decision kept here, apart from the writer's loop: the writer asks
 * {@link SyncClock.due} after each write and calls {@link SyncClock.synced} when it starts
 * an fsync (what follows counts towards the next). Pure apart from the clock it is given.
 *
 * @example
 * ```ts
 * import { createSyncClock } from "./sync-cadence.js"; // internal to @spool/sinks
 * const clock = createSyncClock({ bytes: 8, ms: 1000 }, () => 0);
 * clock.wrote(10);
 * clock.due(); // true: 10 unsynced bytes ≥ 8
 * ```
 */

export interface SyncCadence {
  /** Unsynced bytes that make a sync due. @default 16 MiB */
  readonly bytes: number;
  /** Age of the oldest unsynced byte that makes a sync due. @default 1000 */
  readonly ms: number;
}

export const DEFAULT_SYNC_CADENCE: SyncCadence = { bytes: 16 * 1024 * 1024, ms: 1000 };

/** One stream's unsynced bytes and their age. */
export interface SyncClock {
  /** `n` more bytes were written (not yet synced). */
  wrote(n: number): void;
  /** A sync is due now (by bytes or by age). */
  due(): boolean;
  /** Bytes written since the last sync started. */
  readonly unsynced: number;
  /** Milliseconds until a sync falls due by age, or null when nothing is unsynced. */
  msUntilDue(): number | null;
  /** A sync of everything written so far started (or succeeded): count afresh. */
  synced(): void;
}

export function createSyncClock(cadence: SyncCadence, now: () => number): SyncClock {
  let unsynced = 0;
  let since = 0;
  return {
    wrote(n) {
      if (n <= 0) return;
      if (unsynced === 0) since = now();
      unsynced += n;
    },
    due() {
      return unsynced > 0 && (unsynced >= cadence.bytes || now() - since >= cadence.ms);
    },
    get unsynced() {
      return unsynced;
    },
    msUntilDue() {
      return unsynced === 0 ? null : Math.max(0, since + cadence.ms - now());
    },
    synced() {
      unsynced = 0;
    },
  };
}
