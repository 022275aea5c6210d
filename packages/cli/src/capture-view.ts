/**
 * One consistent look at a capture directory from outside its owner, for the job
 * commands: where it stands by the one rule of `readCaptureState` (`@spool/sinks`: final,
 * live while its owner runs, else crashed and reported `partial` with `crash`, SPEC §7)
 * plus the job record, if it is a job. `ls`, `recover`, `status`, `wait`, `read`,
 * `tail --follow` and `kill` all decide "is it still running?" here or there, the same way.
 *
 * @example
 * ```ts
 * import { viewCapture } from "@spool/cli";
 * const view = viewCapture("/abs/root/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA");
 * view.running; view.receipt.streams.stdout.committed;
 * ```
 */
import type { Receipt, StreamName } from "@spool/core";
import { type OwnerFile, readCaptureState } from "@spool/sinks";
import { type JobRecord, readJobRecord } from "./job-record.js";

/** A capture as the job commands see it. */
export interface CaptureView {
  readonly dir: string;
  /** Final (`receipt.json`), live (`live.json`), or the crash receipt recovery would publish. */
  readonly receipt: Receipt;
  /** `receipt.json` is published. */
  readonly final: boolean;
  /** Its owner runs: more bytes may still become readable, even after the child exited. */
  readonly running: boolean;
  /** The owner (a job's supervisor, or a foreground `spool run`) died before publishing. */
  readonly crashed: boolean;
  /** Who owns (or owned) the capture. */
  readonly owner: OwnerFile | null;
  /** The job record, or null for a capture that is not a background job. */
  readonly job: JobRecord | null;
}

/** Look at the capture in `dir` (writes nothing). */
export function viewCapture(dir: string): CaptureView {
  const state = readCaptureState(dir);
  return {
    dir,
    receipt: state.receipt,
    final: state.condition === "final",
    running: state.condition === "live",
    crashed: state.condition === "crashed",
    owner: state.owner,
    job: readJobRecord(dir),
  };
}

/** The readable bound of a stream: committed bytes within what was retained. */
export function readableLength(view: CaptureView, stream: StreamName): number {
  const s = view.receipt.streams[stream];
  return s.retained ? Math.min(s.committed, s.retained.end) : 0;
}
