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
 * @example
 * ```ts
 * import { groupAlive, processStart, signalGroup } from "@spool/core/process";
 * const group = { pgid: 4242, leaderStart: processStart(4242) };
 * if (groupAlive(group)) signalGroup(group, "SIGTERM");
 * ```
 */
import { readdirSync, readFileSync } from "node:fs";

/** What `/proc/<pid>/stat` says of a process that spool cares about. */
export interface ProcStat {
  /** One letter: R, S, D, Z (zombie), T, … */
  readonly state: string;
  /** Its process group id. */
  readonly pgrp: number;
  /** Start time, clock ticks since boot (field 22), as text. */
  readonly start: string;
}

/** A process group as spool recorded it when it started the leader. */
export interface ProcessGroup {
  /** The group id: the leader's pid. */
  readonly pgid: number;
  /** The leader's start time as {@link processStart} read it, or null where unknown. */
  readonly leaderStart: string | null;
}

/** `/proc/<pid>/stat` of `pid`, or null when there is no such process (or no `/proc`). */
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

/** The start time of `pid` from `/proc`, or null where it cannot be read. */
export function processStart(pid: number): string | null {
  return readProcStat(pid)?.start ?? null;
}

/** Whether this system shows processes in `/proc` (Linux). */
export function hasProcfs(): boolean {
  return readProcStat(process.pid) !== null;
}

/**
 * True while `pid` runs and is not a zombie, and (when `start` is given) is the process
 * that started at `start`. With no `/proc` entry for it (no `/proc`, or a `/proc` of another
 * pid namespace) only the pid is checked.
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

/** Pids of the live (not zombie) members of group `pgid`, from `/proc`. */
export function groupMembers(pgid: number): number[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  const members: number[] = [];
  for (const name of names) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    const pid = Number(name);
    const stat = readProcStat(pid);
    if (stat !== null && stat.pgrp === pgid && stat.state !== "Z") members.push(pid);
  }
  return members;
}

/** Whether `group` is still the group spool started and has a live member (see above). */
export function groupAlive(group: ProcessGroup): boolean {
  if (!hasProcfs()) return signalsReach(group.pgid);
  const leader = readProcStat(group.pgid);
  if (leader !== null) {
    if (group.leaderStart !== null && leader.start !== group.leaderStart) return false;
    if (leader.pgrp === group.pgid && leader.state !== "Z") return true;
  }
  return groupMembers(group.pgid).length > 0;
}

/**
 * Send `signal` to every process of `group` if it is still ours and alive; returns
 * whether it was sent. Never signals a bare pid.
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
