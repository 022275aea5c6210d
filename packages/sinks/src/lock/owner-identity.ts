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
import { processAlive, processStart } from "@spool/core/process-group";

export { processStart };

/**
 * A process identity: a pid alone can be reused, a pid with its start time is not.
 *
 * @category storage
 * @example
 * ```ts
 * import { currentOwner, isOwnerAlive, type Owner } from "@spool/sinks";
 * const me: Owner = currentOwner();
 * isOwnerAlive(me); // true
 * ```
 */
export interface Owner {
  pid: number;
  /** Process start time as the OS reports it, or null where unknown. */
  start: string | null;
}

/**
 * The file a capture's supervisor leaves in its directory so others can tell it is alive.
 *
 * @category storage
 * @example
 * ```ts
 * import { join } from "node:path";
 * import { OWNER_FILE } from "@spool/sinks";
 * join("/home/me/.spool/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA", OWNER_FILE);
 * ```
 */
export const OWNER_FILE = "owner.json";

let self: Owner | null = null;

/**
 * This process, as an owner record (its pid and start time).
 *
 * @category storage
 * @example
 * ```ts
 * import { currentOwner } from "@spool/sinks";
 * currentOwner().pid === process.pid; // true
 * ```
 */
export function currentOwner(): Owner {
  self ??= { pid: process.pid, start: processStart(process.pid) };
  return self;
}

/**
 * True while the process that wrote `owner` is still running: the same pid with the same
 * start time, and not a zombie (a dead process nobody has reaped yet is dead).
 *
 * @category storage
 * @example
 * ```ts
 * import { isOwnerAlive, readOwnerFile } from "@spool/sinks";
 * const owner = readOwnerFile("/home/me/.spool/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA");
 * if (owner !== null && !isOwnerAlive(owner)) console.log("crashed");
 * ```
 */
export function isOwnerAlive(owner: Owner): boolean {
  if (owner.pid === process.pid) return owner.start === currentOwner().start;
  return processAlive(owner.pid, owner.start);
}
