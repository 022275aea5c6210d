/**
 * Cancelling a job, the one function behind `spool kill` and the MCP `kill` tool. The
 * signal (default SIGTERM) goes to the job's whole process group through its supervisor,
 * which escalates to SIGKILL after the grace period and records the job `cancelled`; then
 * the capture is followed (bounded) to its final receipt and until its group is empty.
 *
 * Without a live supervisor (it crashed), or once the job's leader has exited while
 * something of its group still runs (a descendant holding the pipe), the group is stopped
 * here, with the same escalation, until it is empty. Only the group spool recorded
 * (`process.pid` with its start time `process.pidStart`) is ever signalled: a pid that now
 * belongs to another process never is. A job with nothing left running is left alone.
 *
 * @example
 * ```ts
 * import { killCapture, killReport } from "./kill-capture.js";
 * declare const store: import("@spool/core").CaptureStore;
 * const result = await killCapture(store, captureId, "SIGTERM");
 * console.log(killReport(result).text);
 * ```
 */
import { type CaptureStore, producerOf, receiptExitStatus, type StoredCapture } from "@spool/core";
import { emptiedWithin, signalGroup, terminateGroup } from "@spool/core/process-group";
import { escapeControls } from "../args.js";
import { statusLine } from "../inline.js";
import { groupLeft } from "../job-group.js";
import { waitForEnd } from "./wait-capture.js";

/** Signals a job may be sent, and what is sent to its supervisor to have it send them. */
const TO_SUPERVISOR: Readonly<Record<string, NodeJS.Signals>> = {
  SIGTERM: "SIGTERM",
  SIGINT: "SIGINT",
  SIGHUP: "SIGHUP",
  SIGQUIT: "SIGQUIT",
  SIGUSR1: "SIGUSR1",
  SIGKILL: "SIGUSR2", // the supervisor cannot catch SIGKILL; SIGUSR2 asks it to send one
};
/** How long a kill waits for the job to end: the 2 s grace, the 1 s drain, and margin. */
export const KILL_WAIT_MS = 15_000;
/** Between the signal and SIGKILL when the group is stopped here (the supervisor's grace). */
const GRACE_MS = 2000;

/** How a kill ended; `state` is the capture as last seen. */
export type KillResult =
  /** The job ended (its final receipt) and its group is empty. */
  | { readonly outcome: "ended"; readonly state: StoredCapture }
  /** The job did not end within {@link KILL_WAIT_MS}. */
  | { readonly outcome: "still-live"; readonly state: StoredCapture }
  /** The job ended but its process group `pgid` still runs. */
  | { readonly outcome: "group-running"; readonly state: StoredCapture; readonly pgid: number }
  /** Nothing of the job was running: nothing was signalled. */
  | { readonly outcome: "nothing-left"; readonly state: StoredCapture }
  /** What was left of the job (group `pgid`) was stopped here: by `signal`, or SIGKILL if `killed`. */
  | {
      readonly outcome: "stopped";
      readonly state: StoredCapture;
      readonly pgid: number;
      readonly signal: NodeJS.Signals;
      readonly killed: boolean;
    }
  /** What was left (group `pgid`) survived even SIGKILL. */
  | { readonly outcome: "survived"; readonly state: StoredCapture; readonly pgid: number };

/** Cancel the capture's job with `signal` and wait (bounded) for it to end. */
export async function killCapture(
  store: CaptureStore,
  captureId: string,
  signal: NodeJS.Signals,
): Promise<KillResult> {
  const state = await store.state(captureId);
  const supervised = state.condition === "live" && producerOf(state.receipt).running;
  if (!supervised) return stopWhatIsLeft(state, signal);
  signalJob(state, signal);
  const after = await waitForEnd(store, captureId, KILL_WAIT_MS);
  if (after.condition === "live") return { outcome: "still-live", state: after };
  // The supervisor publishes the receipt at once; a member that ignored the signal gets its
  // SIGKILL at the end of the grace. Done once the group is empty.
  const left = groupLeft(after.receipt);
  if (left !== null && !(await emptiedWithin(left, GRACE_MS + KILL_WAIT_MS)))
    return { outcome: "group-running", state: after, pgid: left.pgid };
  return { outcome: "ended", state: after };
}

/**
 * The line a person reads about a kill, and whether it went as asked (`spool kill` prints
 * it on stdout and exits 0 if so, else on stderr with exit 75).
 */
export function killReport(result: KillResult): { ok: boolean; text: string } {
  const r = result.state.receipt;
  switch (result.outcome) {
    case "ended":
      return { ok: true, text: escapeControls(statusLine(r, receiptExitStatus(r))) };
    case "still-live":
      return {
        ok: false,
        text: `spool kill: ${r.captureId} did not end within ${KILL_WAIT_MS / 1000} s`,
      };
    case "group-running":
      return {
        ok: false,
        text: `spool kill: ${r.captureId}: process group ${result.pgid} is still running`,
      };
    case "nothing-left": {
      if (r.provenance)
        return {
          ok: true,
          text: escapeControls(
            `spool kill: ${r.captureId} was ${r.provenance.kind} from ${r.provenance.from}: its process is not here; nothing signalled`,
          ),
        };
      const how =
        result.state.condition === "crashed"
          ? "its supervisor died"
          : statusLine(r, receiptExitStatus(r));
      return {
        ok: true,
        text: escapeControls(
          `spool kill: ${r.captureId} already finished; nothing to kill (${how})`,
        ),
      };
    }
    case "stopped": {
      const how = result.killed ? " with SIGKILL" : ` with ${result.signal}`;
      return {
        ok: true,
        text: `spool kill: stopped what was left of ${r.captureId} (process group ${result.pgid})${how}`,
      };
    }
    case "survived":
      return {
        ok: false,
        text: `spool kill: what was left of ${r.captureId} (process group ${result.pgid}) is still running after SIGKILL`,
      };
  }
}

/**
 * Send `signal` to a live capture's job: through its supervisor (which escalates and
 * records the job `cancelled`), else to its process group. Also used by `spool rm --kill`.
 */
export function signalJob(view: StoredCapture, signal: NodeJS.Signals): void {
  // `running` means the owner in owner.json is alive (pid and start time); a job's owner
  // is its supervisor, so the pid is not a stale one.
  if (view.job && view.owner?.pid === view.job.supervisorPid) {
    signalQuietly(view.job.supervisorPid, TO_SUPERVISOR[signal]!);
    return;
  }
  // No supervisor to ask (a foreground run): its recorded group, verified, never a bare pid.
  const group = groupLeft(view.receipt);
  if (group !== null) signalGroup(group, signal);
}

/**
 * A job whose leader exited or whose supervisor died: stop what is left of its recorded
 * group (escalating to SIGKILL), or say there is nothing to stop.
 */
async function stopWhatIsLeft(state: StoredCapture, signal: NodeJS.Signals): Promise<KillResult> {
  const group = groupLeft(state.receipt);
  if (group === null) return { outcome: "nothing-left", state };
  const ended = await terminateGroup(group, signal, GRACE_MS);
  if (!ended.gone) return { outcome: "survived", state, pgid: group.pgid };
  return { outcome: "stopped", state, pgid: group.pgid, signal, killed: ended.killed };
}

function signalQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone: the wait that follows sees the end
  }
}
