/**
 * The receipts a store reports for a capture its owner did not finish, the same for
 * every store (SPEC §7): a skeleton for a capture that has no live receipt yet, and the
 * crash receipt (`partial` with reason `crash`, never `complete`) whose committed bytes
 * are the bytes that were stored. Pure: the store scans what it holds and passes it in.
 *
 * @example
 * ```ts
 * import { crashedFrom, createDataScan, skeletonReceipt } from "@spool/sinks";
 * const scan = createDataScan();
 * scan.update(Buffer.from("kept\n"));
 * const base = skeletonReceipt("AAAAAAAAAAAAAAAAAAAAAAAA", "/abs/root", new Date(0).toISOString());
 * crashedFrom(base, { stdout: { ...scan.result(), binary: false, ref: null, path: null }, stderr: null });
 * ```
 */
import { createHash } from "node:crypto";
import {
  DEFAULT_PREVIEW_BUDGET,
  type Receipt,
  STREAM_NAMES,
  type StreamName,
  type StreamReceipt,
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
  const streams = {} as Record<StreamName, StreamReceipt>;
  for (const name of STREAM_NAMES)
    streams[name] = recoveredStream(base.streams[name], stored[name]);
  const producer =
    base.process === undefined
      ? { source: crashedSource(base) }
      : { process: crashedProcess(base.process) };
  return {
    ...base,
    ...producer,
    capture: {
      state: "partial",
      reasons: [...new Set([...base.capture.reasons, "crash" as const])].sort(),
    },
    streams,
  };
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

function recoveredStream(base: StreamReceipt, stored: StoredData | null): StreamReceipt {
  const raw = {
    observed: base.raw.observed,
    accepted: base.raw.accepted,
    pending: 0,
    // Read by the dead supervisor but never handed on: dropped.
    discarded: base.raw.discarded + base.raw.pending,
  };
  if (stored === null) {
    return { ...base, raw, committed: 0, retained: null, ref: null, path: null, sha256: null };
  }
  const produced = Math.max(base.produced, stored.bytes);
  const whole = produced === stored.bytes;
  return {
    ...base,
    representation: stored.binary ? "binary" : base.representation,
    raw,
    produced,
    committed: stored.bytes,
    retained: { start: 0, end: stored.bytes },
    // What the store holds is known; beyond it (produced but lost) it is not.
    lines: whole ? stored.lines : null,
    endsWithNewline: whole ? stored.endsWithNewline : null,
    ref: stored.ref,
    path: stored.path,
    sha256: stored.sha256,
  };
}

/**
 * A receipt for a capture with no live receipt yet: everything unknown is empty or null
 * (the base of a crash receipt for a capture that crashed while starting).
 *
 * @category receipts
 * @example
 * ```ts
 * import { skeletonReceipt } from "@spool/sinks";
 * const receipt = skeletonReceipt("AAAAAAAAAAAAAAAAAAAAAAAA", "/home/me/.spool", new Date().toISOString());
 * ```
 */
export function skeletonReceipt(captureId: string, root: string, startedAt: string): Receipt {
  const emptyStream: StreamReceipt = {
    representation: "utf8",
    transforms: [],
    raw: { observed: 0, accepted: 0, pending: 0, discarded: 0 },
    produced: 0,
    committed: 0,
    retained: null,
    replacements: 0,
    redactions: 0,
    omissions: 0,
    redactedBytes: 0,
    markerBytes: 0,
    lines: null,
    endsWithNewline: null,
    ref: null,
    path: null,
    sha256: null,
  };
  return {
    version: 1,
    captureId,
    callId: null,
    label: null,
    root,
    process: {
      state: "running",
      exitCode: null,
      signal: null,
      reason: null,
      pid: null,
      startedAt,
      endedAt: null,
    },
    capture: { state: "pending", reasons: [] },
    streams: { stdout: emptyStream, stderr: { ...emptyStream } },
    preview: { state: "omitted", text: "", bytes: 0, budget: { ...DEFAULT_PREVIEW_BUDGET } },
  };
}
