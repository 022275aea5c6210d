/**
 * The receipts a store reports for a capture its owner did not finish, the same for
 * every store (SPEC §7): a skeleton for a capture that has no live receipt yet, and the
 * crash receipt (`partial` with reason `crash`, never `complete`) whose committed bytes
 * are the bytes that were stored. Both are assembled by core's one receipt builder
 * (`assembleReceipt`, `skeletonReceipt`) from parts: here only what a crash changes is
 * decided. Pure: the store scans what it holds and passes it in.
 *
 * @example
 * ```ts
 * import { skeletonReceipt } from "@spool/core";
 * import { crashedFrom, createDataScan } from "@spool/sinks";
 * const scan = createDataScan();
 * scan.update(Buffer.from("kept\n"));
 * const base = skeletonReceipt("AAAAAAAAAAAAAAAAAAAAAAAA", "/abs/root", new Date(0).toISOString());
 * crashedFrom(base, { stdout: { ...scan.result(), binary: false, ref: null, path: null }, stderr: null });
 * ```
 */
import { createHash } from "node:crypto";
import {
  assembleReceipt,
  type Receipt,
  receiptParts,
  type StreamName,
  type StreamParts,
} from "@spool/core/runtime";

/**
 * What a store holds of one stream, scanned: the facts a crash receipt is built from.
 *
 * @category receipts
 * @example
 * ```ts
 * import type { StoredData } from "@spool/sinks";
 * const stdout: StoredData = { bytes: 3, sha256: "0".repeat(64), lines: 1, endsWithNewline: true, binary: false, ref: null, path: null };
 * ```
 */
export interface StoredData {
  readonly bytes: number;
  readonly sha256: string;
  readonly lines: number;
  readonly endsWithNewline: boolean | null;
  /** The stored data are raw bytes (`binary`). */
  readonly binary: boolean;
  readonly ref: string | null;
  readonly path: string | null;
}

/**
 * Counts bytes, lines and the sha256 of data handed to it in pieces ({@link createDataScan}).
 *
 * @category receipts
 * @example
 * ```ts
 * import type { DataScan } from "@spool/sinks";
 * declare const scan: DataScan;
 * scan.update(Buffer.from("a\n"));
 * scan.result().lines; // 1
 * ```
 */
export interface DataScan {
  update(chunk: Uint8Array): void;
  result(): Omit<StoredData, "binary" | "ref" | "path">;
}

/**
 * A fresh {@link DataScan}: feed it a stream's stored bytes in pieces, then read its size,
 * line count and sha256.
 *
 * @category receipts
 * @example
 * ```ts
 * import { createDataScan } from "@spool/sinks";
 * const scan = createDataScan();
 * scan.update(Buffer.from("one\ntw"));
 * scan.update(Buffer.from("o"));
 * scan.result(); // { bytes: 7, lines: 2, endsWithNewline: false, sha256: "…" }
 * ```
 */
export function createDataScan(): DataScan {
  const hash = createHash("sha256");
  let bytes = 0;
  let newlines = 0;
  let last = -1;
  return {
    update(chunk) {
      if (chunk.byteLength === 0) return;
      hash.update(chunk);
      bytes += chunk.byteLength;
      const b = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      for (let at = b.indexOf(0x0a); at !== -1; at = b.indexOf(0x0a, at + 1)) newlines++;
      last = b[b.length - 1]!;
    },
    result() {
      return {
        bytes,
        sha256: hash.digest("hex"),
        lines: bytes === 0 ? 0 : newlines + (last === 0x0a ? 0 : 1),
        endsWithNewline: bytes === 0 ? null : last === 0x0a,
      };
    },
  };
}

/**
 * The crash receipt of a capture whose latest receipt is `base` and whose stored streams
 * are `stored`: `partial` with reason `crash`, its committed bytes the bytes that were
 * stored (never `complete`).
 *
 * @category receipts
 * @example
 * ```ts
 * import { crashedFrom } from "@spool/sinks";
 * import type { Receipt } from "@spool/core";
 * declare const base: Receipt;
 * crashedFrom(base, { stdout: null, stderr: null }).capture.reasons.includes("crash"); // true
 * ```
 */
export function crashedFrom(
  base: Receipt,
  stored: Readonly<Record<StreamName, StoredData | null>>,
): Receipt {
  const parts = receiptParts(base);
  return assembleReceipt({
    ...parts,
    producer:
      base.process === undefined
        ? { source: crashedSource(base) }
        : { process: crashedProcess(base.process) },
    state: "partial",
    reasons: [...base.capture.reasons, "crash"],
    // What the crash receipt has always stated: the reasons, not a storage error the
    // live receipt may have named.
    storageError: null,
    streams: {
      stdout: recoveredStream(parts.streams.stdout, stored.stdout),
      stderr: recoveredStream(parts.streams.stderr, stored.stderr),
    },
  });
}

function crashedProcess(process: NonNullable<Receipt["process"]>): NonNullable<Receipt["process"]> {
  return process.state === "running"
    ? {
        ...process,
        // Not observed: the process may have ended, or may still run (`spool ls` says).
        state: "unknown" as const,
        exitCode: null,
        signal: null,
        reason: "unknown: the supervisor died before the process ended (crash)",
      }
    : process;
}

function crashedSource(base: Receipt): NonNullable<Receipt["source"]> {
  const source = base.source!;
  return source.state === "running"
    ? {
        ...source,
        state: "ended",
        error: source.error ?? "the supervisor died before the source ended (crash)",
      }
    : source;
}

function recoveredStream(base: StreamParts, stored: StoredData | null): StreamParts {
  const raw = {
    observed: base.raw.observed,
    accepted: base.raw.accepted,
    pending: 0,
    // Read by the dead supervisor but never handed on: dropped.
    discarded: base.raw.discarded + base.raw.pending,
  };
  if (stored === null) {
    return { ...base, raw, committed: 0, kept: false, ref: null, path: null, sha256: null };
  }
  const produced = Math.max(base.produced, stored.bytes);
  const whole = produced === stored.bytes;
  return {
    ...base,
    representation: stored.binary ? "binary" : base.representation,
    raw,
    produced,
    committed: stored.bytes,
    kept: true,
    // What the store holds is known; beyond it (produced but lost) it is not.
    lines: whole ? stored.lines : null,
    endsWithNewline: whole ? stored.endsWithNewline : null,
    ref: stored.ref,
    path: stored.path,
    sha256: stored.sha256,
  };
}

// The skeleton is core's (the builder's defaults); stores and callers keep importing it here.
export { skeletonReceipt } from "@spool/core/runtime";
