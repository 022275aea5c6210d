/**
 * Who owns a capture (or a lock, or a quota reservation): the supervisor's pid and its
 * start time, so a later reader can tell a live supervisor from a dead one even after
 * the pid has been reused. On Linux the start time is field 22 of `/proc/<pid>/stat`
 * (clock ticks since boot); where there is no `/proc` it is null and only the pid is
 * checked.
 *
 * @example
 * ```ts
 * import { currentOwner, isOwnerAlive } from "@spool/sinks";
 * isOwnerAlive(currentOwner()); // true
 * ```
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { readJsonNoFollow } from "./json-file.js";

export const OwnerSchema = z.object({
  pid: z.number().int().positive(),
  /** Process start time as the OS reports it, or null where unknown. */
  start: z.string().nullable(),
});
export type Owner = z.infer<typeof OwnerSchema>;

/** The file a capture's supervisor leaves in its directory so others can tell it is alive. */
export const OWNER_FILE = "owner.json";

/** `owner.json` as the writer publishes it: the owner, and when its capture started. */
export const OwnerFileSchema = OwnerSchema.extend({ startedAt: z.string().optional() });
export type OwnerFile = z.infer<typeof OwnerFileSchema>;

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

/** The owner recorded in `dir/owner.json`, or null when there is none (yet) or it is unreadable. */
export function readOwnerFile(dir: string): OwnerFile | null {
  const parsed = OwnerFileSchema.safeParse(readJsonNoFollow(path.join(dir, OWNER_FILE)));
  return parsed.success ? parsed.data : null;
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
