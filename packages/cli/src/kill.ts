/**
 * `spool kill REF [--signal SIG]`: cancel a job. The signal (default SIGTERM) goes to the
 * job's whole process group through its supervisor, which escalates to SIGKILL after the
 * grace period and records the job `cancelled`; `kill` then waits (bounded) for the final
 * receipt and prints its status line.
 *
 * Without a live supervisor (it crashed), or once the job's leader has exited while
 * something of its group still runs (a descendant holding the pipe), `kill` stops that
 * group itself, with the same escalation, until it is empty. It only ever signals the
 * group spool recorded (`process.pid` with its start time `process.pidStart`): a pid
 * that now belongs to another process is never signalled. A job with nothing left
 * running is left alone and said so.
 */
import { producerOf, receiptExitStatus, type StoredCapture } from "@spool/core";
import { emptiedWithin, signalGroup, terminateGroup } from "@spool/core/process-group";
import { type CommandInput, escapeControls } from "./args.js";
import type { KILL } from "./commands.js";
import { statusLine } from "./inline.js";
import type { Io } from "./io.js";
import { groupLeft } from "./job-group.js";
import { locateCapture } from "./locate-capture.js";
import { waitForEnd } from "./wait.js";

/** Signals `kill` accepts, and what is sent to the supervisor to have it send them. */
const TO_SUPERVISOR: Readonly<Record<string, NodeJS.Signals>> = {
  SIGTERM: "SIGTERM",
  SIGINT: "SIGINT",
  SIGHUP: "SIGHUP",
  SIGQUIT: "SIGQUIT",
  SIGUSR1: "SIGUSR1",
  SIGKILL: "SIGUSR2", // the supervisor cannot catch SIGKILL; SIGUSR2 asks it to send one
};
/** How long `kill` waits for the job to end: the 2 s grace, the 1 s drain, and margin. */
export const KILL_WAIT_MS = 15_000;
/** Between the signal and SIGKILL when `kill` stops a group itself (the supervisor's grace). */
const GRACE_MS = 2000;

export async function killCommand(parsed: CommandInput<typeof KILL>, io: Io): Promise<number> {
  const raw = parsed.options.signal;
  const signal = (raw.startsWith("SIG") ? raw : `SIG${raw}`) as NodeJS.Signals;
  const { store, captureId } = await locateCapture(parsed, io);
  const view = await store.state(captureId);
  const supervised = view.condition === "live" && producerOf(view.receipt).running;
  if (!supervised) return stopWhatIsLeft(view, signal, io);
  signalJob(view, signal);
  const after = await waitForEnd(store, captureId, KILL_WAIT_MS);
  if (after.condition === "live") {
    io.stderr(
      `spool kill: ${after.receipt.captureId} did not end within ${KILL_WAIT_MS / 1000} s\n`,
    );
    return 75;
  }
  // The supervisor publishes the receipt at once; a member that ignored the signal gets its
  // SIGKILL at the end of the grace. Return once the group is empty.
  const left = groupLeft(after.receipt);
  if (left !== null && !(await emptiedWithin(left, GRACE_MS + KILL_WAIT_MS))) {
    io.stderr(`spool kill: ${captureId}: process group ${left.pgid} is still running\n`);
    return 75;
  }
  io.stdout(`${escapeControls(statusLine(after.receipt, receiptExitStatus(after.receipt)))}\n`);
  return 0;
}

/**
 * A job whose leader exited or whose supervisor died: stop what is left of its recorded
 * group (escalating to SIGKILL), or say there is nothing to stop.
 */
async function stopWhatIsLeft(view: StoredCapture, signal: NodeJS.Signals, io: Io) {
  const r = view.receipt;
  const group = groupLeft(r);
  if (group === null) {
    const how =
      view.condition === "crashed" ? "its supervisor died" : statusLine(r, receiptExitStatus(r));
    io.stdout(
      escapeControls(`spool kill: ${r.captureId} already finished; nothing to kill (${how})\n`),
    );
    return 0;
  }
  const ended = await terminateGroup(group, signal, GRACE_MS);
  const what = `what was left of ${r.captureId} (process group ${group.pgid})`;
  if (!ended.gone) {
    io.stderr(`spool kill: ${what} is still running after SIGKILL\n`);
    return 75;
  }
  io.stdout(`spool kill: stopped ${what}${ended.killed ? " with SIGKILL" : ` with ${signal}`}\n`);
  return 0;
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

function signalQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone: the wait that follows sees the end
  }
}
