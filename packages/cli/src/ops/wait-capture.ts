/**
 * Waiting for a capture to end, the one function behind `spool wait` and the MCP `wait`
 * tool: follow it through the store (`CaptureStore.watch`, no polling of its own) until it
 * is no longer live or the timeout passes; once it has ended, deliver its completion
 * notice (`ls --unseen` will not repeat it) and say the exit status `spool run` would
 * have had. An owner that died first (crashed) gives the job's status when its owner
 * observed it, else 70; still running after the timeout gives 75.
 *
 * @example
 * ```ts
 * import { waitForCapture } from "./wait-capture.js";
 * declare const store: import("@spool/core").CaptureStore;
 * const { state, exitStatus, timedOut } = await waitForCapture(store, captureId, { timeoutMs: 30_000 });
 * ```
 */
import { type CaptureStore, receiptExitStatus, type StoredCapture } from "@spool/core";

/** Exit status of `wait` when its own timeout ran out (EX_TEMPFAIL). */
export const WAIT_TIMED_OUT = 75;
/** Exit status of a job whose owner died before observing its end (EX_SOFTWARE). */
export const WAIT_STATUS_UNKNOWN = 70;

/** Options of {@link waitForCapture}. */
export interface WaitOptions {
  /** Give up after this many milliseconds. @default no limit */
  readonly timeoutMs?: number | null;
}

/** How a wait ended. */
export interface WaitResult {
  /** The final state, else (timed out) the freshest live one. */
  readonly state: StoredCapture;
  /** Still live when the timeout passed. */
  readonly timedOut: boolean;
  /** The job's exit status as `spool run` would give it; 75 if timed out, 70 if unknown. */
  readonly exitStatus: number;
  /** Crashed: whether its owner observed the job's end (its exit status is known). */
  readonly exitKnown: boolean;
  /** The completion notice could not be marked delivered: why (a later `ls --unseen` repeats it). */
  readonly completionError: string | null;
}

/** Wait for the capture to end (or the timeout), then deliver its completion notice. */
export async function waitForCapture(
  store: CaptureStore,
  captureId: string,
  options: WaitOptions = {},
): Promise<WaitResult> {
  const state = await waitForEnd(store, captureId, options.timeoutMs ?? null);
  if (state.condition === "live") {
    return {
      state,
      timedOut: true,
      exitStatus: WAIT_TIMED_OUT,
      exitKnown: false,
      completionError: null,
    };
  }
  let completionError: string | null = null;
  try {
    await store.completion.take(captureId);
  } catch (error) {
    completionError = (error as Error).message;
  }
  // The receipt decides, not how it was reached: a crash receipt that `ls` or `recover`
  // already stored (condition "final") says exactly what the unreconciled one says.
  const exitKnown = !ownerDied(state) || observedEnd(state);
  const exitStatus = exitKnown ? receiptExitStatus(state.receipt) : WAIT_STATUS_UNKNOWN;
  return { state, timedOut: false, exitStatus, exitKnown, completionError };
}

/**
 * Follow the capture (`CaptureStore.watch`) until it is no longer live, or `ms` passes
 * (null: no limit); then its state as of that moment.
 */
export async function waitForEnd(
  store: CaptureStore,
  captureId: string,
  ms: number | null,
): Promise<StoredCapture> {
  const stop = new AbortController();
  const timer = ms === null ? null : setTimeout(() => stop.abort(), ms);
  let last: StoredCapture | null = null;
  try {
    for await (const state of store.watch(captureId, { signal: stop.signal })) last = state;
  } finally {
    if (timer !== null) clearTimeout(timer);
  }
  // Timed out while live: the freshest receipt, not the last one that moved.
  return last !== null && last.condition !== "live" ? last : store.state(captureId);
}

/** A crashed capture's owner recorded how the job ended (its exit record). */
/** Its owner died before it ended: crashed now, or a crash receipt stored by reconciliation. */
export function ownerDied(state: StoredCapture): boolean {
  return state.condition === "crashed" || state.receipt.capture.reasons.includes("crash");
}

function observedEnd(state: StoredCapture): boolean {
  const proc = state.receipt.process;
  return (
    proc !== undefined &&
    (proc.exitCode !== null || proc.signal !== null || proc.state === "timeout")
  );
}
