/**
 * The order of writes across a capture's two streams: `order.jnl` beside the stream
 * files, a small journal of stream switches recorded at capture time, so a reader can
 * show stdout and stderr together in the order spool took their bytes.
 *
 * Format: a flat array of little-endian uint64 entries, `offset * 2 + stream` (stream 0
 * is stdout, 1 stderr): "from here on, bytes go to `stream`, starting at its byte
 * `offset`". The first entry is the first stream that got a byte (at 0); one is added
 * each time the other stream gets bytes. A run of a stream ends where that stream's next
 * entry starts (or at its committed end). Bounded: at most {@link ORDER_MAX_SWITCHES}
 * entries (512 KiB); past that nothing more is recorded and readers say the order is
 * known only up to there (each stream's later bytes follow its last recorded run).
 *
 * The main thread notes switches as bytes are offered to the writer queues (the order
 * the capture took them, whatever order the queues drain in) and hands the new entries
 * to the writer with each live snapshot and with the finish; the writer appends them.
 * The journal is a reading aid: it is not fsynced, not counted in the allowance (at
 * most 512 KiB, like the receipt reserve), and a failure to write it stops the journal,
 * never the capture.
 *
 * @example
 * ```ts
 * import { createOrderJournal, orderEntries } from "@spool/sinks";
 * const journal = createOrderJournal();
 * journal.note(0, 0, 5); // stdout takes 5 bytes
 * journal.note(1, 0, 3); // then stderr 3
 * journal.note(0, 5, 2); // then stdout again, from its byte 5
 * orderEntries(journal.take()!); // [[0, 0], [1, 0], [0, 5]]
 * ```
 */
import type { FsLayer } from "../file/fs-layer.js";
import { createExclusive } from "../file/storage.js";

/**
 * The journal's file name in the capture directory.
 *
 * @category storage
 * @example
 * ```ts
 * import { ORDER_JOURNAL } from "@spool/sinks";
 * ORDER_JOURNAL; // "order.jnl"
 * ```
 */
export const ORDER_JOURNAL = "order.jnl";

/**
 * Most switches one capture records (65,536 entries, 512 KiB).
 *
 * @category storage
 * @example
 * ```ts
 * import { ORDER_MAX_SWITCHES } from "@spool/sinks";
 * ORDER_MAX_SWITCHES * 8; // 524288 bytes at most
 * ```
 */
export const ORDER_MAX_SWITCHES = 65_536;

const ENTRY_BYTES = 8;

/**
 * The main thread's side: switches noted as bytes are offered, taken in batches for
 * the writer.
 *
 * @category storage
 * @example
 * ```ts
 * import { createOrderJournal } from "@spool/sinks";
 * const journal = createOrderJournal();
 * journal.note(1, 0, 10);
 * journal.take()?.length; // 8: one entry
 * ```
 */
export interface OrderJournal {
  /** `stream` took `bytes` bytes starting at its `offset`. */
  note(stream: 0 | 1, offset: number, bytes: number): void;
  /** The entries noted since the last take, encoded, or null when there are none. */
  take(): Uint8Array | null;
  /** The bound was reached: nothing more is recorded. */
  readonly full: boolean;
}

/**
 * A journal for one capture, bounded at `max` entries.
 *
 * @category storage
 * @example
 * ```ts
 * import { createOrderJournal } from "@spool/sinks";
 * const journal = createOrderJournal(2);
 * journal.note(0, 0, 1); journal.note(1, 0, 1); journal.note(0, 1, 1);
 * journal.full; // true
 * ```
 */
export function createOrderJournal(max: number = ORDER_MAX_SWITCHES): OrderJournal {
  let last: 0 | 1 | null = null;
  let count = 0;
  let fresh: number[] = [];
  return {
    note(stream, offset, bytes) {
      if (bytes <= 0 || stream === last || count >= max) return;
      last = stream;
      count++;
      fresh.push(offset * 2 + stream);
    },
    take() {
      if (fresh.length === 0) return null;
      const out = Buffer.alloc(fresh.length * ENTRY_BYTES);
      for (let i = 0; i < fresh.length; i++) {
        out.writeBigUInt64LE(BigInt(fresh[i]!), i * ENTRY_BYTES);
      }
      fresh = [];
      return out;
    },
    get full() {
      return count >= max;
    },
  };
}

/**
 * The entries of an encoded journal as `[stream, offset]` pairs (a torn last entry is
 * left out).
 *
 * @category storage
 * @example
 * ```ts
 * import { orderEntries } from "@spool/sinks";
 * orderEntries(Buffer.from([10, 0, 0, 0, 0, 0, 0, 0])); // [[0, 5]]
 * ```
 */
export function orderEntries(bytes: Uint8Array): [0 | 1, number][] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: [0 | 1, number][] = [];
  for (let at = 0; at + ENTRY_BYTES <= buf.length; at += ENTRY_BYTES) {
    const v = Number(buf.readBigUInt64LE(at));
    out.push([(v % 2) as 0 | 1, Math.floor(v / 2)]);
  }
  return out;
}

/**
 * The writer's side: `order.jnl`, created on the first entries, appended to after.
 *
 * @category storage
 * @example
 * ```ts
 * // internal to the file writer
 * import { createOrderFile } from "@spool/sinks";
 * const file = createOrderFile();
 * ```
 */
export interface OrderFile {
  fd: number | null;
  /** A write failed: the journal stops (the capture goes on). */
  failed: boolean;
}

/**
 * No journal file yet.
 *
 * @category storage
 * @example
 * ```ts
 * import { createOrderFile } from "@spool/sinks";
 * createOrderFile().fd; // null
 * ```
 */
export function createOrderFile(): OrderFile {
  return { fd: null, failed: false };
}

/**
 * Append `entries` to the journal in the directory `at` (created exclusively, `0600`,
 * on the first call). A failure stops the journal and is not reported further.
 *
 * @category storage
 * @example
 * ```ts
 * import { appendOrder, createOrderFile, nodeFs } from "@spool/sinks";
 * const file = createOrderFile();
 * appendOrder(file, "/tmp/capture-dir", new Uint8Array(8), nodeFs);
 * ```
 */
export function appendOrder(file: OrderFile, at: string, entries: Uint8Array, fsl: FsLayer): void {
  if (file.failed || entries.length === 0) return;
  try {
    file.fd ??= createExclusive(`${at}/${ORDER_JOURNAL}`, fsl);
    let done = 0;
    while (done < entries.length) {
      done += fsl.writeSync(file.fd, entries, done, entries.length - done);
    }
  } catch {
    file.failed = true;
    closeOrder(file, fsl);
  }
}

/**
 * Close the journal's descriptor (idempotent).
 *
 * @category storage
 * @example
 * ```ts
 * import { closeOrder, createOrderFile, nodeFs } from "@spool/sinks";
 * closeOrder(createOrderFile(), nodeFs);
 * ```
 */
export function closeOrder(file: OrderFile, fsl: FsLayer): void {
  if (file.fd === null) return;
  try {
    fsl.closeSync(file.fd);
  } catch {
    // nothing to keep
  }
  file.fd = null;
}
