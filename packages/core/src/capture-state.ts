/**
 * A capture as one state record with one `phase`, instead of flags scattered through a
 * closure. The orchestrator moves it forward ({@link enterPhase}); receipts are pure
 * functions of it (`buildReceipt`), and so is the final capture state (`settleOutcome`).
 *
 *     spawning → running → draining → finishing → published → closed
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
import type { CaptureCommonOptions, StreamPlan } from "./capture-options.js";
import type { CaptureProducer } from "./capture-producer.js";
import { SpoolError, type StorageFailure } from "./errors.js";
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

export interface CaptureRun {
  phase: CapturePhase;
  readonly captureId: string;
  readonly options: CaptureCommonOptions;
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
  /** What failed when storage could not be opened (errno, operation, redacted path); null if nothing did. */
  storageError: StorageFailure | null;
}

/** Move forward to `phase` (never back; skipping is allowed). */
export function enterPhase(run: CaptureRun, phase: CapturePhase): void {
  if (CAPTURE_PHASES.indexOf(phase) < CAPTURE_PHASES.indexOf(run.phase)) {
    throw new SpoolError("SPOOL_E_STATE", "capture", `cannot go from ${run.phase} to ${phase}`);
  }
  run.phase = phase;
}

/** At or past `phase`. */
export function reached(run: CaptureRun, phase: CapturePhase): boolean {
  return CAPTURE_PHASES.indexOf(run.phase) >= CAPTURE_PHASES.indexOf(phase);
}
