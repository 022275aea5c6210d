/**
 * The one receipt builder. Every receipt spool writes is assembled by
 * {@link assembleReceipt} from its parts, whoever knows them: a running capture from its
 * state ({@link buildReceipt}: live, launch and final receipts, with no side effects: it
 * reads the process, the ledgers, the stage counters and the preview taps, logs nothing
 * and sends no event); a store that recovers a crashed capture from its last live receipt
 * ({@link receiptParts}) or, with none, from {@link skeletonReceipt}, and the bytes it
 * holds (`crashedFrom` in `@spool/sinks`). The shape, the key order and the rules every
 * receipt follows (reasons sorted once each, `retained` from what is kept, a storage error
 * only when there is one) are decided here and nowhere else: a new receipt field is its
 * schema (`receipt.ts`) and this file.
 *
 * @example
 * ```ts
 * import { assembleReceipt, receiptParts, type Receipt } from "@spool/core";
 * declare const receipt: Receipt;
 * const same = assembleReceipt(receiptParts(receipt)); // the receipt, rebuilt from its parts
 * ```
 */
import { createHash } from "node:crypto";
import type { CaptureRun } from "./capture-state.js";
import type { StorageFailure } from "./errors.js";
import type { LedgerSnapshot } from "./ledger.js";
import { DEFAULT_PREVIEW_BUDGET, type PreviewSnapshot, renderPreview } from "./preview.js";
import type {
  CaptureReceipt,
  PreviewReceipt,
  ProcessReceipt,
  Provenance,
  Receipt,
  SourceReceipt,
  StreamReceipt,
} from "./receipt.js";
import type {
  CaptureReason,
  CaptureState,
  Representation,
  StreamName,
} from "./receipt-vocabulary.js";
import type { StreamFinal } from "./spool.js";
import { type StageCounters, sumCounters } from "./stage.js";
import { stageCountersOf } from "./stage-counters.js";

/** The receipt of `run` as of now, assembled by the one builder (`receipt-assembly.ts`). */
export function buildReceipt(run: CaptureRun): Receipt {
  const streams = {
    stdout: streamPartsOfRun(run, "stdout"),
    stderr: streamPartsOfRun(run, "stderr"),
  };
  const snapshots = {
    stdout: run.plans.stdout.tap.snapshot(),
    stderr: run.plans.stderr.tap.snapshot(),
  };
  const refs =
    run.storage.status === "open"
      ? { stdout: streams.stdout.ref, stderr: streams.stderr.ref }
      : null;
  const failed = run.producer.failed();
  const preview = renderPreview(snapshots, run.options.preview, { failed, refs });
  return assembleReceipt({
    captureId: run.captureId,
    callId: run.options.callId ?? null,
    label: run.options.label ?? null,
    root: run.options.root,
    producer: run.producer.block(),
    state: run.outcome,
    reasons: run.reasons,
    storageError: run.storageError,
    stageError: run.stageError,
    streams,
    preview: { ...preview, budget: run.options.preview },
  });
}

/**
 * The small-result path: settled complete without storage, so every produced byte is in
 * the inline preview (and counts as committed there).
 */
export function isInline(run: CaptureRun): boolean {
  return run.outcome === "complete" && run.storage.status === "none";
}

function streamPartsOfRun(run: CaptureRun, name: StreamName): StreamParts {
  const pipeline = run.pipelines[name];
  const final = run.finals?.[name];
  const snap = pipeline.ledger.snapshot();
  const counters = sumCounters(pipeline.stages);
  const inline = isInline(run);
  const stored = run.storage.status === "open";
  // The writer's final count is what is durable: after a failed sync it is below what
  // was acknowledged, and only it is claimed (then lines are unknown).
  const committed = final ? Math.min(final.committed, snap.committed) : snap.committed;
  const short = committed < snap.committed;
  return {
    representation: representationOf(run, name, counters.replacements),
    transforms: pipeline.stages.flatMap((stage) => (stage.transform ? [stage.transform] : [])),
    raw: snap.raw,
    produced: snap.produced,
    committed,
    kept: inline || stored,
    counters,
    stageCounters: stageCountersOf(pipeline.stages),
    ...linesOf(snap, stored && !short ? final : undefined, committed, short),
    ref: stored ? (final?.ref ?? run.storage.info?.refs[name] ?? null) : null,
    path: stored ? (final?.path ?? run.storage.info?.paths?.[name] ?? null) : null,
    sha256: final?.sha256 ?? (inline ? sha256Of(run.plans[name].tap.snapshot()) : null),
  };
}

/**
 * The lines of the bytes a receipt claims. The ledger counts what was produced; a final
 * stream cut short of that (a full disk, a quota) has the spool's own count of exactly
 * what it stored, or null when the spool has none: never the lines that were not kept.
 */
function linesOf(
  snap: LedgerSnapshot,
  final: StreamFinal | undefined,
  committed: number,
  short: boolean,
): Pick<StreamParts, "lines" | "endsWithNewline"> {
  if (short) return { lines: null, endsWithNewline: null };
  if (final === undefined || committed === snap.produced) {
    return { lines: snap.lines, endsWithNewline: snap.endsWithNewline };
  }
  return { lines: final.lines ?? null, endsWithNewline: final.endsWithNewline ?? null };
}

function representationOf(run: CaptureRun, name: StreamName, replacements: number): Representation {
  if (run.plans[name].representation === "binary") return "binary";
  return replacements > 0 ? "utf8-replaced" : "utf8";
}

function sha256Of(snap: PreviewSnapshot): string {
  // Inline results are held whole in the tap's head.
  return createHash("sha256").update(snap.head).update(snap.tail).digest("hex");
}

/**
 * What one stream's receipt is assembled from ({@link assembleReceipt}).
 *
 * @category receipts
 * @example
 * ```ts
 * import type { StreamParts } from "@spool/core";
 * const nothingYet: StreamParts = {
 *   representation: "utf8", transforms: [], raw: { observed: 0, accepted: 0, pending: 0, discarded: 0 },
 *   produced: 0, committed: 0, kept: false, counters: { replacements: 0, redactions: 0, omissions: 0 },
 *   lines: null, endsWithNewline: null, ref: null, path: null, sha256: null,
 * };
 * ```
 */
export interface StreamParts {
  readonly representation: Representation;
  /** The transforms that shaped the bytes, in order (`ansi-strip`, `redact`, …). */
  readonly transforms: readonly string[];
  /** Raw bytes observed, accepted, pending and discarded (observed = the other three). */
  readonly raw: StreamReceipt["raw"];
  /** Representation bytes the stages emitted. */
  readonly produced: number;
  /** Representation bytes durably kept and readable. */
  readonly committed: number;
  /** The committed bytes are kept (stored, or whole in the inline preview): `retained` is `[0, committed]`, else null. */
  readonly kept: boolean;
  /** The stages' counters (replacements, redactions, omissions, redacted and marker bytes); absent ones stay absent. */
  readonly counters: StageCounters;
  /** Stages' own named counters; left out of the receipt when absent or empty. */
  readonly stageCounters?: StreamReceipt["stageCounters"];
  /** Lines of the committed bytes; null when unknown. */
  readonly lines: number | null;
  /** Whether the committed bytes end with a newline; null when unknown or empty. */
  readonly endsWithNewline: boolean | null;
  readonly ref: string | null;
  readonly path: string | null;
  readonly sha256: string | null;
}

/**
 * What a receipt is assembled from ({@link assembleReceipt}): identity, producer, how the
 * capture stands, each stream and the preview.
 *
 * @category receipts
 * @example
 * ```ts
 * import { assembleReceipt, receiptParts, type Receipt, type ReceiptParts } from "@spool/core";
 * declare const receipt: Receipt;
 * const parts: ReceiptParts = { ...receiptParts(receipt), state: "partial", reasons: ["crash"] };
 * assembleReceipt(parts).capture; // { state: "partial", reasons: ["crash"] }
 * ```
 */
export interface ReceiptParts {
  readonly captureId: string;
  readonly callId: string | null;
  readonly label: string | null;
  readonly root: string;
  /** `{ process }` for a child process, `{ source }` for any other source. */
  readonly producer: { readonly process: ProcessReceipt } | { readonly source: SourceReceipt };
  readonly state: CaptureState;
  /** Why the capture is not complete; duplicates are dropped and the rest sorted. */
  readonly reasons: Iterable<CaptureReason>;
  /** The first storage failure, or null (then the receipt has no `storageError`). */
  readonly storageError: StorageFailure | null;
  /** The first stage that threw, or null/absent (then the receipt has no `stageError`). */
  readonly stageError?: CaptureReceipt["stageError"] | null;
  readonly streams: Readonly<Record<StreamName, StreamParts>>;
  readonly preview: PreviewReceipt;
  /** Where an imported or shared capture came from; absent for a capture made here. */
  readonly provenance?: Provenance | undefined;
}

/**
 * The receipt of `parts`: the one place a receipt's shape and key order are decided.
 *
 * @category receipts
 * @example
 * ```ts
 * import { assembleReceipt, receiptParts, type Receipt } from "@spool/core";
 * declare const live: Receipt;
 * const relabelled = assembleReceipt({ ...receiptParts(live), label: null });
 * ```
 */
export function assembleReceipt(parts: ReceiptParts): Receipt {
  return {
    version: 1,
    captureId: parts.captureId,
    callId: parts.callId,
    label: parts.label,
    root: parts.root,
    ...parts.producer,
    capture: {
      state: parts.state,
      reasons: [...new Set(parts.reasons)].sort(),
      ...(parts.storageError ? { storageError: { ...parts.storageError } } : {}),
      ...(parts.stageError ? { stageError: { ...parts.stageError } } : {}),
    },
    streams: {
      stdout: streamReceipt(parts.streams.stdout),
      stderr: streamReceipt(parts.streams.stderr),
    },
    preview: { ...parts.preview, budget: { ...parts.preview.budget } },
    ...(parts.provenance ? { provenance: parts.provenance } : {}),
  };
}

/**
 * The parts a receipt was assembled from: the inverse of {@link assembleReceipt}, to build
 * a receipt that differs from a known one in some parts (a crash receipt from the last
 * live one).
 *
 * @category receipts
 * @example
 * ```ts
 * import { receiptParts, type Receipt } from "@spool/core";
 * declare const receipt: Receipt;
 * receiptParts(receipt).streams.stdout.kept; // true when the stdout bytes were retained
 * ```
 */
export function receiptParts(receipt: Receipt): ReceiptParts {
  const { process, source } = receipt;
  return {
    captureId: receipt.captureId,
    callId: receipt.callId,
    label: receipt.label,
    root: receipt.root,
    producer: process === undefined ? { source: source! } : { process },
    state: receipt.capture.state,
    reasons: receipt.capture.reasons,
    storageError: receipt.capture.storageError ?? null,
    stageError: receipt.capture.stageError ?? null,
    streams: {
      stdout: partsOfStream(receipt.streams.stdout),
      stderr: partsOfStream(receipt.streams.stderr),
    },
    preview: receipt.preview,
    provenance: receipt.provenance,
  };
}

/**
 * The receipt of a capture known only by its id, root and start: nothing observed yet,
 * every count zero, everything unknown null. What a store reports for a capture that
 * has no live receipt yet, and the base of its crash receipt if it crashed while starting.
 *
 * @category receipts
 * @example
 * ```ts
 * import { skeletonReceipt } from "@spool/core";
 * const receipt = skeletonReceipt("AAAAAAAAAAAAAAAAAAAAAAAA", "/home/me/.spool", new Date().toISOString());
 * receipt.capture.state; // "pending"
 * ```
 */
export function skeletonReceipt(captureId: string, root: string, startedAt: string): Receipt {
  const nothingYet: StreamParts = {
    representation: "utf8",
    transforms: [],
    raw: { observed: 0, accepted: 0, pending: 0, discarded: 0 },
    produced: 0,
    committed: 0,
    kept: false,
    counters: { replacements: 0, redactions: 0, omissions: 0, redactedBytes: 0, markerBytes: 0 },
    lines: null,
    endsWithNewline: null,
    ref: null,
    path: null,
    sha256: null,
  };
  return assembleReceipt({
    captureId,
    callId: null,
    label: null,
    root,
    producer: {
      process: {
        state: "running",
        exitCode: null,
        signal: null,
        reason: null,
        pid: null,
        startedAt,
        endedAt: null,
      },
    },
    state: "pending",
    reasons: [],
    storageError: null,
    streams: { stdout: nothingYet, stderr: nothingYet },
    preview: { state: "omitted", text: "", bytes: 0, budget: DEFAULT_PREVIEW_BUDGET },
  });
}

function streamReceipt(s: StreamParts): StreamReceipt {
  const stageCounters = s.stageCounters ?? [];
  return {
    representation: s.representation,
    transforms: [...s.transforms],
    raw: { ...s.raw },
    produced: s.produced,
    committed: s.committed,
    retained: s.kept ? { start: 0, end: s.committed } : null,
    replacements: s.counters.replacements ?? 0,
    redactions: s.counters.redactions ?? 0,
    omissions: s.counters.omissions ?? 0,
    // Absent in receipts written before they were counted: kept absent.
    ...(s.counters.redactedBytes === undefined ? {} : { redactedBytes: s.counters.redactedBytes }),
    ...(s.counters.markerBytes === undefined ? {} : { markerBytes: s.counters.markerBytes }),
    ...(stageCounters.length > 0 ? { stageCounters: [...stageCounters] } : {}),
    lines: s.lines,
    endsWithNewline: s.endsWithNewline,
    ref: s.ref,
    path: s.path,
    sha256: s.sha256,
  };
}

function partsOfStream(s: StreamReceipt): StreamParts {
  const { replacements, redactions, omissions, redactedBytes, markerBytes } = s;
  return {
    representation: s.representation,
    transforms: s.transforms,
    raw: s.raw,
    produced: s.produced,
    committed: s.committed,
    kept: s.retained !== null,
    counters: {
      replacements,
      redactions,
      omissions,
      ...(redactedBytes === undefined ? {} : { redactedBytes }),
      ...(markerBytes === undefined ? {} : { markerBytes }),
    },
    stageCounters: s.stageCounters,
    lines: s.lines,
    endsWithNewline: s.endsWithNewline,
    ref: s.ref,
    path: s.path,
    sha256: s.sha256,
  };
}
