/**
 * The process group of a capture as spool recorded it (the receipt's `process.pid`, which
 * is the group id, and `process.pidStart`, the leader's start time), and whether any of it
 * still runs. `kill`, `ls`, `status` and `recover` use it to say (and stop) what a crashed
 * supervisor, or a leader that exited first, left behind. Without a recorded start time
 * on a system that has one (`/proc`), there is no group: a bare pid is never signalled.
 *
 * @example
 * ```ts
 * import { groupLeft } from "./job-group.js"; // internal to @spool/cli
 * declare const receipt: import("@spool/core").Receipt;
 * groupLeft(receipt); // { pgid, leaderStart } while something of the job's group runs, else null
 * ```
 */
import { groupAlive, hasProcfs, type ProcessGroup } from "@spool/core/process-group";
import type { Receipt } from "@spool/core/runtime";

/** The group recorded in `receipt`, or null when it has none that can be verified. */
export function recordedGroup(receipt: Receipt): ProcessGroup | null {
  const p = receipt.process;
  if (p === undefined || p.pid === null) return null;
  const leaderStart = p.pidStart ?? null;
  if (leaderStart === null && hasProcfs()) return null;
  return { pgid: p.pid, leaderStart };
}

/**
 * The recorded group while anything of it still runs, else null. `live` (from
 * `liveGroupIds`) when asking about many captures at once.
 */
export function groupLeft(receipt: Receipt, live?: ReadonlySet<number>): ProcessGroup | null {
  const group = recordedGroup(receipt);
  return group !== null && groupAlive(group, live) ? group : null;
}

/** A one-line note for a capture that ended (or crashed) with its group still running. */
export function survivorNote(captureId: string, group: ProcessGroup): string {
  return `${captureId}: its process group ${group.pgid} is still running (spool kill ${captureId} stops it)`;
}
