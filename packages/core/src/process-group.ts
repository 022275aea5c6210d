/**
 * Process identities and process groups as `/proc` shows them, so spool never signals a
 * process it did not start. A pid alone can be reused; a pid with its start time (field 22
 * of `/proc/<pid>/stat`, clock ticks since boot) cannot. A job runs in a process group of
 * its own whose id is its leader's pid, and Linux never hands out a pid that is still some
 * group's id; so a recorded group `{ pgid, leaderStart }` is still ours exactly when
 *
 * - its leader runs with the recorded start time (a zombie leader counts: the group may
 *   still hold members), or
 * - no process has the pid `pgid` at all and some process is still in group `pgid` (the
 *   leader exited; its descendants carry on in its group).
 *
 * A process with the pid `pgid` and another start time means the group emptied and the
 * pid went to someone else: nothing of ours is left to signal. Zombies (state `Z`) are
 * dead: they cannot be signalled and hold nothing open.
 *
 * Where there is no `/proc` (macOS), start times are unknown (`null`); then only the group
 * id is checked, as before.
 *
 * `@spool/core/process-group` is a narrow entry: the plumbing `spool kill`, `ls`, `recover`
 * and the job supervisor use, importable without the rest of core. Every function here is
 * also exported from `@spool/core`; use this entry only in tools that manage spool jobs
 * from outside their owner and care about what they load.
 *
 * @example
 * ```ts
 * import { groupAlive, processStart, signalGroup } from "@spool/core/process-group";
 * const group = { pgid: 4242, leaderStart: processStart(4242) };
 * if (groupAlive(group)) signalGroup(group, "SIGTERM");
 * ```
 */
import { readdirSync, readFileSync } from "node:fs";

/**
 * What `/proc/<pid>/stat` says of a process that spool cares about.
 *
 * @category process
 * @example
 * ```ts
 * import { readProcStat } from "@spool/core/process-group";
 * const stat = readProcStat(process.pid);
 * stat?.pgrp; // this process's group id (null without /proc)
 * ```
 */
export interface ProcStat {
  /** One letter: R, S, D, Z (zombie), T, … */
  readonly state: string;
  /** Its process group id. */
  readonly pgrp: number;
  /** Start time, clock ticks since boot (field 22), as text. */
  readonly start: string;
}

/**
 * A process group as spool recorded it when it started the leader: its id and the
 * leader's start time, so a later process that reuses the number is never signalled.
 *
 * @category process
 * @example
 * ```ts
 * import { processStart, type ProcessGroup } from "@spool/core/process-group";
 * declare const pid: number;
 * const group: ProcessGroup = { pgid: pid, leaderStart: processStart(pid) };
 * ```
 */
export interface ProcessGroup {
  /** The group id: the leader's pid. */
  readonly pgid: number;
  /** The leader's start time as {@link processStart} read it, or null where unknown. */
  readonly leaderStart: string | null;
}

/**
 * `/proc/<pid>/stat` of `pid`, or null when there is no such process (or no `/proc`).
 *
 * @category process
 * @example
 * ```ts
 * import { readProcStat } from "@spool/core/process-group";
 * readProcStat(process.pid)?.state; // "R" or "S"
 * ```
 */
export function readProcStat(pid: number): ProcStat | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return null;
  }
  // The command name (field 2) may hold spaces and parentheses: split after the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const pgrp = Number(fields[2]);
  const start = fields[19];
  if (state === undefined || start === undefined || !Number.isSafeInteger(pgrp)) return null;
  return { state, pgrp, start };
}

/**
 * The start time of `pid` from `/proc` (clock ticks since boot, as text), or null where
 * it cannot be read: with the pid, an identity that survives pid reuse.
 *
 * @category process
 * @example
 * ```ts
 * import { processStart } from "@spool/core/process-group";
 * const start = processStart(process.pid); // e.g. "1234567"
 * ```
 */
export function processStart(pid: number): string | null {
  return readProcStat(pid)?.start ?? null;
}

/**
 * Whether this system shows processes in `/proc` (Linux). Without it, identities are the
 * pid alone.
 *
 * @category process
 * @example
 * ```ts
 * import { hasProcfs } from "@spool/core/process-group";
 * if (!hasProcfs()) console.warn("pid reuse cannot be detected here");
 * ```
 */
export function hasProcfs(): boolean {
  return readProcStat(process.pid) !== null;
}

/**
 * Whether `pid` is alive (not a zombie) and, when `start` is given, is the process that
 * started at `start`. With no `/proc` entry for it (no `/proc`, or a `/proc` of another
 * pid namespace) only the pid is checked.
 *
 * @category process
 * @example
 * ```ts
 * import { processAlive, processStart } from "@spool/core/process-group";
 * const start = processStart(process.pid);
 * processAlive(process.pid, start); // true
 * ```
 */
export function processAlive(pid: number, start: string | null): boolean {
  const stat = readProcStat(pid);
  if (stat !== null) return stat.state !== "Z" && (start === null || stat.start === start);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Pids of the live (not zombie) members of group `pgid`, from `/proc` (empty without it).
 *
 * @category process
 * @example
 * ```ts
 * import { groupMembers } from "@spool/core/process-group";
 * declare const pgid: number;
 * console.log(`${groupMembers(pgid).length} processes left in the job`);
 * ```
 */
export function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const [pid, stat] of liveProcesses()) if (stat.pgrp === pgid) members.push(pid);
  return members;
}

/**
 * The ids of every group with a live (not zombie) member: one look at `/proc` for many
 * questions (pass it to {@link groupAlive}).
 *
 * @category process
 * @example
 * ```ts
 * import { groupAlive, liveGroupIds, type ProcessGroup } from "@spool/core/process-group";
 * declare const groups: ProcessGroup[];
 * const live = liveGroupIds();
 * const running = groups.filter((group) => groupAlive(group, live));
 * ```
 */
export function liveGroupIds(): Set<number> {
  const ids = new Set<number>();
  for (const [, stat] of liveProcesses()) ids.add(stat.pgrp);
  return ids;
}

/**
 * Whether `group` is still the group spool started (its leader has the recorded start
 * time, or has exited and the group lives on) and has a live member. `live` (from
 * {@link liveGroupIds}) saves a look at all of `/proc` per question.
 *
 * @category process
 * @example
 * ```ts
 * import { groupAlive, type ProcessGroup } from "@spool/core/process-group";
 * declare const group: ProcessGroup;
 * if (groupAlive(group)) console.log("the job still runs");
 * ```
 */
export function groupAlive(group: ProcessGroup, live?: ReadonlySet<number>): boolean {
  if (!hasProcfs()) return signalsReach(group.pgid);
  const leader = readProcStat(group.pgid);
  if (leader !== null) {
    if (group.leaderStart !== null && leader.start !== group.leaderStart) return false;
    if (leader.pgrp === group.pgid && leader.state !== "Z") return true;
  }
  return live ? live.has(group.pgid) : groupMembers(group.pgid).length > 0;
}

function* liveProcesses(): Generator<[number, ProcStat]> {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return;
  }
  for (const name of names) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    const stat = readProcStat(Number(name));
    if (stat !== null && stat.state !== "Z") yield [Number(name), stat];
  }
}

/**
 * Send `signal` to every process of `group` if it is still ours and alive; returns
 * whether it was sent. Never signals a bare pid.
 *
 * @category process
 * @example
 * ```ts
 * import { signalGroup, type ProcessGroup } from "@spool/core/process-group";
 * declare const group: ProcessGroup;
 * if (!signalGroup(group, "SIGTERM")) console.log("already gone");
 * ```
 */
export function signalGroup(group: ProcessGroup, signal: NodeJS.Signals): boolean {
  if (!groupAlive(group)) return false;
  try {
    process.kill(-group.pgid, signal);
    return true;
  } catch {
    return false; // emptied meanwhile
  }
}

function signalsReach(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * How {@link terminateGroup} ended: whether the signal was sent, whether SIGKILL was
 * needed, and whether the group is gone (false: still alive after SIGKILL).
 *
 * @category process
 * @example
 * ```ts
 * import { terminateGroup, type ProcessGroup } from "@spool/core/process-group";
 * declare const group: ProcessGroup;
 * const { gone, killed } = await terminateGroup(group, "SIGTERM", 2000, 5000);
 * if (!gone) console.error("the group outlived SIGKILL");
 * ```
 */
export interface GroupTermination {
  /** The first signal was sent (false: the group was already gone or not ours). */
  readonly signalled: boolean;
  /** SIGKILL was sent because something outlived the grace period. */
  readonly killed: boolean;
  /** Nothing of the group runs any more. */
  readonly gone: boolean;
}

/**
 * Stop `group` from outside its owner (`spool kill` on a job whose supervisor is gone, or
 * whose leader has exited): `signal`, then SIGKILL after `graceMs` if anything of it is
 * left, then wait (at most `killWaitMs`) for it to empty. Looks every 50 ms.
 *
 * @category process
 * @example
 * ```ts
 * import { terminateGroup, type ProcessGroup } from "@spool/core/process-group";
 * declare const group: ProcessGroup;
 * const result = await terminateGroup(group, "SIGINT", 2000, 5000);
 * result.gone; // true once nothing of the group runs
 * ```
 */
export async function terminateGroup(
  group: ProcessGroup,
  signal: NodeJS.Signals,
  graceMs: number,
  killWaitMs = 5000,
): Promise<GroupTermination> {
  const signalled = signalGroup(group, signal);
  if (!signalled) return { signalled, killed: false, gone: !groupAlive(group) };
  if (signal !== "SIGKILL" && (await emptiedWithin(group, graceMs))) {
    return { signalled, killed: false, gone: true };
  }
  const killed = signal === "SIGKILL" || signalGroup(group, "SIGKILL");
  return { signalled, killed, gone: await emptiedWithin(group, killWaitMs) };
}

/**
 * Wait (looking every 50 ms, at most `ms` milliseconds) until nothing of `group` runs;
 * resolves whether it emptied.
 *
 * @category process
 * @example
 * ```ts
 * import { emptiedWithin, signalGroup, type ProcessGroup } from "@spool/core/process-group";
 * declare const group: ProcessGroup;
 * signalGroup(group, "SIGTERM");
 * if (!(await emptiedWithin(group, 2000))) signalGroup(group, "SIGKILL");
 * ```
 */
export async function emptiedWithin(group: ProcessGroup, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (groupAlive(group)) {
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}
