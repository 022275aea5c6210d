/**
 * What a stored receipt says of its producer, whichever kind it is: a child process
 * (`process`) or another source (`source`). Readers that list, wait for or kill captures
 * use this view instead of assuming every receipt has a process.
 *
 * @example
 * ```ts
 * import { producerOf, receiptExitStatus } from "@spool/core";
 * declare const receipt: import("@spool/core").Receipt;
 * if (!producerOf(receipt).running) process.exitCode = receiptExitStatus(receipt);
 * ```
 */
import { exitStatusOf } from "./exit-status.js";
import type { Receipt } from "./receipt.js";
import type { ProcessState } from "./receipt-vocabulary.js";

/**
 * What a stored receipt says of its producer, whichever kind it is: a child process
 * (`process`) or another source (`source`). See {@link producerOf}.
 *
 * @category receipts
 * @example
 * ```ts
 * import { producerOf, type Receipt } from "@spool/core";
 * declare const receipt: Receipt;
 * const { kind, running, exitCode } = producerOf(receipt);
 * ```
 */
export interface ProducerView {
  /** A child process, or another source. */
  readonly kind: "process" | "source";
  /** A process's state, or "running" / "ended" for a source. */
  readonly state: ProcessState | "ended";
  /** Still producing. */
  readonly running: boolean;
  /** The process's exit code; null for a source, a signal, or while running. */
  readonly exitCode: number | null;
  /** The signal that ended the process, or null. */
  readonly signal: string | null;
  /** When it started (ISO 8601). */
  readonly startedAt: string;
  /** When it ended (ISO 8601), or null while running. */
  readonly endedAt: string | null;
}

/**
 * The producer of a receipt as one view, whichever kind it is: readers that list, wait
 * for or kill captures use it instead of assuming every receipt has a process.
 *
 * @category receipts
 * @example
 * ```ts
 * import { producerOf, receiptExitStatus, type Receipt } from "@spool/core";
 * declare const receipt: Receipt;
 * if (!producerOf(receipt).running) process.exitCode = receiptExitStatus(receipt);
 * ```
 */
export function producerOf(receipt: Receipt): ProducerView {
  const p = receipt.process;
  if (p !== undefined) {
    const { state, exitCode, signal, startedAt, endedAt } = p;
    return {
      kind: "process",
      state,
      running: state === "running",
      exitCode,
      signal,
      startedAt,
      endedAt,
    };
  }
  const s = receipt.source!;
  return {
    kind: "source",
    state: s.state,
    running: s.state === "running",
    exitCode: null,
    signal: null,
    startedAt: s.startedAt,
    endedAt: s.endedAt,
  };
}

/**
 * The status a command reports for a settled capture: the process's exit status
 * ({@link exitStatusOf}), or for a source 0 when it ended cleanly and whole and its capture
 * was kept, 1 otherwise (an error, a declared truncation, a capture failed or unavailable).
 *
 * @category receipts
 * @example
 * ```ts
 * import { receiptExitStatus, type Receipt } from "@spool/core";
 * declare const receipt: Receipt;
 * process.exitCode = receiptExitStatus(receipt);
 * ```
 */
export function receiptExitStatus(receipt: Receipt): number {
  if (receipt.process !== undefined) return exitStatusOf(receipt.process);
  const s = receipt.source!;
  // A source capture is its whole job: input that could not be kept is a failure.
  const kept = receipt.capture.state !== "failed" && receipt.capture.state !== "unavailable";
  return s.error === null && s.declared !== "truncated" && kept ? 0 : 1;
}
