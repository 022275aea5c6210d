/**
 * `spool kill REF [--signal SIG]`: cancel a job. The signal (default SIGTERM) goes to the
 * job's whole process group through its supervisor, which escalates to SIGKILL after the
 * grace period and records the job `cancelled`; `kill` then waits (bounded) for the final
 * receipt and prints its status line. A job that already ended is left alone and said so.
 */
import { producerOf, receiptExitStatus } from "@spool/core";
import type { CommandInput } from "./args.js";
import type { KILL } from "./commands.js";
import { statusLine } from "./inline.js";
import type { Io } from "./io.js";
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
const KILL_WAIT_MS = 15_000;

export async function killCommand(parsed: CommandInput<typeof KILL>, io: Io): Promise<number> {
  const raw = parsed.options.signal;
  const signal = (raw.startsWith("SIG") ? raw : `SIG${raw}`) as NodeJS.Signals;
  const { store, captureId } = await locateCapture(parsed, io);
  const view = await store.state(captureId);
  // The child already exited (its capture may still be finalizing): nothing to signal.
  if (view.condition !== "live" || !producerOf(view.receipt).running) {
    const r = view.receipt;
    const how =
      view.condition === "crashed" ? "its supervisor died" : statusLine(r, receiptExitStatus(r));
    io.stdout(`spool kill: ${r.captureId} already finished; nothing to kill (${how})\n`);
    return 0;
  }
  const pgid = view.job?.pgid ?? view.receipt.process?.pid ?? null;
  // `running` means the owner in owner.json is alive (pid and start time); a job's owner
  // is its supervisor, so the pid is not a stale one.
  if (view.job && view.owner?.pid === view.job.supervisorPid) {
    signalQuietly(view.job.supervisorPid, TO_SUPERVISOR[signal]!);
  } else if (pgid !== null) {
    // No supervisor to ask (a foreground run, or one that died): signal the group directly.
    signalQuietly(-pgid, signal);
  }
  const after = await waitForEnd(store, captureId, KILL_WAIT_MS);
  if (after.condition === "live") {
    io.stderr(
      `spool kill: ${after.receipt.captureId} did not end within ${KILL_WAIT_MS / 1000} s\n`,
    );
    return 75;
  }
  io.stdout(`${statusLine(after.receipt, receiptExitStatus(after.receipt))}\n`);
  return 0;
}

function signalQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone: the wait that follows sees the end
  }
}
