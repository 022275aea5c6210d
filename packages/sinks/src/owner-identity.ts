/**
 * Who this process is, as an owner record (pid + start time), and whether the process of
 * a record still runs. The part of `owner.ts` that needs no schema, so the writer worker
 * can record its owner without loading zod. On Linux the start time is field 22 of
 * `/proc/<pid>/stat` (clock ticks since boot); where there is no `/proc` it is null and
 * only the pid is checked.
 *
 * @example
 * ```ts
 * import { currentOwner, isOwnerAlive } from "@spool/sinks";
 * isOwnerAlive(currentOwner()); // true
 * ```
 */
import * as fs from "node:fs";

/** A process identity: a pid alone can be reused, a pid with its start time is not. */
export interface Owner {
  pid: number;
  /** Process start time as the OS reports it, or null where unknown. */
  start: string | null;
}

/** The file a capture's supervisor leaves in its directory so others can tell it is alive. */
export const OWNER_FILE = "owner.json";

let self: Owner | null = null;

/** This process, as an owner record. */
export function currentOwner(): Owner {
  self ??= { pid: process.pid, start: processStart(process.pid) };
  return self;
}

/** True while the process that wrote `owner` is still running. */
export function isOwnerAlive(owner: Owner): boolean {
  if (owner.pid === process.pid) return owner.start === currentOwner().start;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  if (owner.start === null) return true;
  const now = processStart(owner.pid);
  // No /proc entry although the pid answers: a different pid namespace; trust the pid.
  return now === null || now === owner.start;
}

/** The start time of `pid` from `/proc`, or null where it cannot be read. */
export function processStart(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "latin1");
    // The command name (field 2) may hold spaces and parentheses: split after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] ?? null; // field 22 overall; fields[0] is field 3
  } catch {
    return null;
  }
}
