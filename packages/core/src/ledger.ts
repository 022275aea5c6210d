/**
 * Byte accounting for one stream, kept by the framework rather than by each stage.
 *
 * Raw bytes (what the source read) are `observed`; each is exactly one of `accepted`
 * into the stages, `pending` (read, not yet handed to them) or `discarded` (read and
 * dropped untransformed). Representation bytes (what the stages emitted) are
 * `produced`; `committed` of them are durably in the spool.
 *
 * @example
 * ```ts
 * import { createLedger } from "@spool/core";
 * const ledger = createLedger();
 * ledger.observe(10);
 * ledger.accept(10);
 * ledger.produce([Buffer.from("hello\n")]);
 * ledger.snapshot().raw; // { observed: 10, accepted: 10, pending: 0, discarded: 0 }
 * ```
 */
import { SpoolError } from "./errors.js";
import { countNewlines } from "./newline-count.js";
import type { Batch } from "./stage.js";

/**
 * A stream's raw byte counts: every byte read (`observed`) is exactly one of `accepted`
 * into the stages, `pending` or `discarded`. The receipt's `streams.*.raw`.
 *
 * @category receipts
 * @example
 * ```ts
 * import { createLedger } from "@spool/core";
 * const { observed, accepted, pending, discarded } = createLedger().snapshot().raw;
 * observed === accepted + pending + discarded; // always true
 * ```
 */
export interface RawCounts {
  /** Bytes the source read. */
  observed: number;
  /** Bytes handed to the stages. */
  accepted: number;
  /** Bytes read and not yet handed on (0 in a final receipt). */
  pending: number;
  /** Bytes read and dropped untransformed (after a stage error or a drain timeout). */
  discarded: number;
}

/**
 * A {@link Ledger}'s counts at one moment: raw counts, representation bytes produced and
 * committed, lines, and whether the output ends with a newline (null while empty).
 *
 * @category receipts
 * @example
 * ```ts
 * import { createLedger } from "@spool/core";
 * const ledger = createLedger();
 * ledger.observe(3);
 * ledger.accept(3);
 * ledger.produce([Buffer.from("a\nb")]);
 * ledger.snapshot().lines; // 2
 * ```
 */
export interface LedgerSnapshot {
  /** The raw (source) byte counts. */
  raw: RawCounts;
  /** Representation bytes the stages emitted. */
  produced: number;
  /** Representation bytes durably stored. */
  committed: number;
  /** Lines produced: newlines, plus one for a final line without a newline. */
  lines: number;
  /** Whether the output ends with a newline; null while nothing was produced. */
  endsWithNewline: boolean | null;
}

/**
 * Byte accounting for one stream, kept by the framework rather than by each stage
 * ({@link createLedger}). Raw bytes (what the source read) are `observed`; each is
 * exactly one of `accepted` into the stages, `pending` (read, not yet handed to them) or
 * `discarded` (read and dropped untransformed). Representation bytes (what the stages
 * emitted) are `produced`; `committed` of them are durably in the spool. A count that
 * would go out of bounds throws `SPOOL_E_STATE`.
 *
 * @category receipts
 * @example
 * ```ts
 * import { createLedger } from "@spool/core";
 * const ledger = createLedger();
 * ledger.observe(10);
 * ledger.accept(10);
 * ledger.produce([Buffer.from("hello\n")]);
 * ledger.commit(6);
 * ledger.snapshot().committed; // 6
 * ```
 */
export interface Ledger {
  /** The source read `n` bytes; they are pending until accepted or discarded. */
  observe(n: number): void;
  /** `n` pending bytes were handed to the stages. */
  accept(n: number): void;
  /** `n` pending bytes were dropped without being transformed. */
  discard(n: number): void;
  /** The stages emitted these representation bytes. */
  produce(batch: Batch): void;
  /** The sink reports `total` representation bytes durable (monotonic). */
  commit(total: number): void;
  /** The counts as of now (a copy). */
  snapshot(): LedgerSnapshot;
}

/**
 * A fresh {@link Ledger} (every count 0). A pipeline keeps one per stream.
 *
 * @category receipts
 * @example
 * ```ts
 * import { createLedger } from "@spool/core";
 * const ledger = createLedger();
 * ledger.observe(4);
 * ledger.accept(4);
 * ledger.snapshot().raw.pending; // 0
 * ```
 */
export function createLedger(): Ledger {
  const raw: RawCounts = { observed: 0, accepted: 0, pending: 0, discarded: 0 };
  let produced = 0;
  let committed = 0;
  let newlines = 0;
  let lastByte = -1;

  const takePending = (n: number, what: string) => {
    if (!Number.isSafeInteger(n) || n < 0 || n > raw.pending) {
      throw new SpoolError(
        "SPOOL_E_STATE",
        "ledger",
        `cannot ${what} ${n} bytes with ${raw.pending} pending`,
      );
    }
    raw.pending -= n;
  };

  return {
    observe(n) {
      raw.observed += n;
      raw.pending += n;
    },
    accept(n) {
      takePending(n, "accept");
      raw.accepted += n;
    },
    discard(n) {
      takePending(n, "discard");
      raw.discarded += n;
    },
    produce(batch) {
      for (const chunk of batch) {
        if (chunk.byteLength === 0) continue;
        produced += chunk.byteLength;
        newlines += countNewlines(chunk);
        lastByte = chunk[chunk.byteLength - 1]!;
      }
    },
    commit(total) {
      if (total < committed || total > produced) {
        throw new SpoolError(
          "SPOOL_E_STATE",
          "ledger",
          `commit ${total} outside [${committed}, ${produced}]`,
        );
      }
      committed = total;
    },
    snapshot() {
      const partialLine = produced > 0 && lastByte !== 0x0a ? 1 : 0;
      return {
        raw: { ...raw },
        produced,
        committed,
        lines: newlines + partialLine,
        endsWithNewline: produced === 0 ? null : lastByte === 0x0a,
      };
    },
  };
}

/**
 * Whether a snapshot keeps the ledger's invariants: the raw counts add up, nothing is
 * negative, and no more is committed than produced. Holds for every snapshot a ledger
 * can give; use it to check a receipt's counts (`checkLedger` in `@spool/core/testing`
 * says which invariant broke).
 *
 * @category receipts
 * @example
 * ```ts
 * import { createLedger, ledgerBalances } from "@spool/core";
 * ledgerBalances(createLedger().snapshot()); // true
 * ```
 */
export function ledgerBalances(s: LedgerSnapshot): boolean {
  const { observed, accepted, pending, discarded } = s.raw;
  return (
    observed === accepted + pending + discarded &&
    [observed, accepted, pending, discarded, s.produced, s.committed].every((n) => n >= 0) &&
    s.committed <= s.produced
  );
}
