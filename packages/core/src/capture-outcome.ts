/**
 * How a finished capture settles (SPEC §3), as pure functions of its state: `failed` if
 * nothing produced was kept (a stage that threw leaves `partial` if its stream produced
 * anything before), `unavailable` if storage never opened,
 * `complete` with no reason against it, `partial` otherwise.
 *
 * @example
 * ```ts
 * import { settleOutcome } from "./capture-outcome.js"; // internal to @spool/core
 * declare const run: import("./capture-state.js").CaptureRun;
 * run.outcome = settleOutcome(run);
 * ```
 */
import type { CaptureRun } from "./capture-state.js";
import { type CaptureState, STREAM_NAMES } from "./receipt-vocabulary.js";

/** Some stream produced bytes (kept in the spool or, on the small-result path, inline). */
function anyProduced(run: CaptureRun): boolean {
  return STREAM_NAMES.some((name) => run.pipelines[name].ledger.snapshot().produced > 0);
}

/** A stage threw on some stream. */
export function stageFailed(run: CaptureRun): boolean {
  return STREAM_NAMES.some((name) => run.pipelines[name].error !== undefined);
}

/** Nothing stands against a complete capture (yet): no stage error, no reason. */
export function nothingAgainst(run: CaptureRun): boolean {
  return run.reasons.size === 0 && !stageFailed(run);
}

export function settleOutcome(run: CaptureRun): CaptureState {
  if (stageFailed(run)) return anyProduced(run) ? "partial" : "failed";
  if (run.options.persist === false) return "disabled";
  if (run.storage.status === "unavailable") return "unavailable";
  if (run.reasons.size === 0) return "complete";
  const counts = STREAM_NAMES.map((name) => run.pipelines[name].ledger.snapshot());
  const anyCommitted = counts.some((s) => s.committed > 0);
  return anyProduced(run) && !anyCommitted && !run.reasons.has("drain-timeout")
    ? "failed"
    : "partial";
}
