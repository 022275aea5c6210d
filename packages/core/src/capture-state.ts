/**
 * A capture as one state record with one `phase`, instead of flags scattered through a
 * closure. The orchestrator moves it through {@link PHASE_RULES} ({@link enterPhase}
 * refuses any move the table does not list) and branches on the phase where a decision
 * depends on how far the capture got; receipts are pure functions of the record
 * (`buildReceipt`), and so is the final capture state (`settleOutcome`).
 *
 *     spawning → running → draining → finishing → published → closed
 *         └─────────────────────↗ (the child could not be started)
 *
 * - spawning: the child is being started (a spawn failure goes straight to draining);
 *   a source capture starts running at once;
 * - running: the child has a pid, or the source is read; both streams are read;
 * - draining: the direct child exited (or the source ended); pipes drain until EOF or the drain window ends;
 * - finishing: stages flushed; storage decided, the spool finishes, the state settles;
 * - published: the final receipt is fixed (and handed to storage if there is any);
 * - closed: the spool released, the "final" event sent.
 *
 * @example
 * ```ts
 * import { type CaptureRun, enterPhase } from "./capture-state.js"; // internal to @spool/core
 * declare const run: CaptureRun;
 * enterPhase(run, "running");
 * ```
 */
import type { ResolvedCaptureOptions, StreamPlan } from "./capture-options.js";
import type { CaptureProducer } from "./capture-producer.js";
import { SpoolError, type StorageFailure } from "./errors.js";
import type { CaptureReceipt } from "./receipt.js";
import type { CaptureReason, CaptureState, StreamName } from "./receipt-vocabulary.js";
import type { CaptureSpool, StreamFinal } from "./spool.js";
import type { StorageOpener } from "./storage-opener.js";
import type { StreamPipeline } from "./stream-pipeline.js";

export const CAPTURE_PHASES = [
  "spawning",
  "running",
  "draining",
  "finishing",
  "published",
  "closed",
] as const;

export type CapturePhase = (typeof CAPTURE_PHASES)[number];

/** What a phase allows: where it may go next, and the decisions that depend on it. */
export interface PhaseRule {
  /** The phases it may move to, and no other (never back, never to itself). */
  readonly next: readonly CapturePhase[];
  /**
   * Storage may be opened when asked: by the spill policy (output outgrew the preview)
   * or by a promotion to a job. From finishing on, only the end-of-capture decision opens
   * it, and a capture that settled without storage stays without.
   */
  readonly opensOnDemand: boolean;
}

/** The transition table: every phase, where it may go, what it allows. */
export const PHASE_RULES: Readonly<Record<CapturePhase, PhaseRule>> = {
  // A spawn failure ends the producer before it ran: straight to draining.
  spawning: { next: ["running", "draining"], opensOnDemand: true },
  running: { next: ["draining"], opensOnDemand: true },
  draining: { next: ["finishing"], opensOnDemand: true },
  finishing: { next: ["published"], opensOnDemand: false },
  published: { next: ["closed"], opensOnDemand: false },
  closed: { next: [], opensOnDemand: false },
};

export interface CaptureRun {
  phase: CapturePhase;
  readonly captureId: string;
  readonly options: ResolvedCaptureOptions;
  readonly spool: CaptureSpool;
  readonly plans: Readonly<Record<StreamName, StreamPlan>>;
  readonly pipelines: Readonly<Record<StreamName, StreamPipeline>>;
  /** The child process, or the source, the capture reads from. */
  readonly producer: CaptureProducer;
  readonly storage: StorageOpener;
  /** Why persistence stopped, as the writers told it (plus drain-timeout). */
  readonly reasons: Set<CaptureReason>;
  /** What the spool's finish reported (refs, paths, digests); null before. */
  finals: Record<StreamName, StreamFinal> | null;
  /** "pending" until the capture settles in the finishing phase. */
  outcome: CaptureState;
  /** The first storage failure (errno, operation, redacted path); null if none. Written only by {@link recordStorageError}. */
  storageError: StorageFailure | null;
  /** The first stage that threw (the receipt's `capture.stageError`); null if none. */
  stageError: CaptureStageError | null;
}

/** The receipt's `capture.stageError`. */
export type CaptureStageError = NonNullable<CaptureReceipt["stageError"]>;

/** Move to `phase` if the table allows it from where the run is; `SPOOL_E_STATE` otherwise. */
export function enterPhase(run: CaptureRun, phase: CapturePhase): void {
  if (!PHASE_RULES[run.phase].next.includes(phase)) {
    throw new SpoolError("SPOOL_E_STATE", "capture", `cannot go from ${run.phase} to ${phase}`);
  }
  run.phase = phase;
}

/** The rule of the phase the run is in. */
export function phaseRule(run: CaptureRun): PhaseRule {
  return PHASE_RULES[run.phase];
}

/**
 * Record a storage failure (a writer stopped on one, storage could not be opened, a
 * line index or the receipt could not be written): the first one is the one the receipt
 * names; later ones are only logged. The one writer of `run.storageError`.
 */
export function recordStorageError(
  run: CaptureRun,
  failure: StorageFailure | null | undefined,
): void {
  if (failure) run.storageError ??= failure;
}
