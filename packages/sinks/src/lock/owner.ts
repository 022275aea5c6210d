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
import * as path from "node:path";
import { readJsonNoFollow } from "../file/json-file.js";
import { OWNER_FILE, type Owner } from "./owner-identity.js";

// Who a process is, and reading one back, need no zod: `spool run` takes a lock and reads
// owners on its way to the first byte on disk. The zod schemas of these records, for
// users, are in `record-schemas.ts`, and a property test holds both to the same answers.
export {
  currentOwner,
  isOwnerAlive,
  OWNER_FILE,
  type Owner,
  processStart,
} from "./owner-identity.js";

/**
 * `owner.json` of a capture: the owner, and when its capture started.
 *
 * @category storage
 * @example
 * ```ts
 * import { readOwnerFile, type OwnerFile } from "@spool/sinks";
 * const owner: OwnerFile | null = readOwnerFile("/home/me/.spool/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA");
 * owner?.startedAt;
 * ```
 */
export interface OwnerFile extends Owner {
  readonly startedAt?: string | undefined;
}

/**
 * `value` as a process identity (a positive whole pid, a start time string or null), or
 * null when it is not one; what {@link OwnerSchema} accepts, without zod.
 *
 * @category storage
 * @example
 * ```ts
 * import { ownerOf } from "@spool/sinks";
 * ownerOf({ pid: 4242, start: null }); // { pid: 4242, start: null }
 * ownerOf({ pid: -1, start: null }); // null
 * ```
 */
export function ownerOf(value: unknown): Owner | null {
  if (!isRecord(value)) return null;
  const { pid, start } = value;
  if (typeof pid !== "number" || !Number.isSafeInteger(pid) || pid <= 0) return null;
  if (start !== null && typeof start !== "string") return null;
  return { pid, start };
}

/**
 * `value` as an `owner.json` record, or null; what {@link OwnerFileSchema} accepts.
 *
 * @category storage
 * @example
 * ```ts
 * import { ownerFileOf } from "@spool/sinks";
 * ownerFileOf({ pid: 4242, start: "123", startedAt: "2026-12-01T10:00:00.000Z" })?.startedAt;
 * ```
 */
export function ownerFileOf(value: unknown): OwnerFile | null {
  const owner = ownerOf(value);
  if (owner === null) return null;
  const { startedAt } = value as { startedAt?: unknown };
  if (startedAt === undefined) return owner;
  return typeof startedAt === "string" ? { ...owner, startedAt } : null;
}

/** A plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The owner recorded in `dir/owner.json`, or null when there is none (yet) or it is unreadable.
 *
 * @category storage
 * @example
 * ```ts
 * import { readOwnerFile } from "@spool/sinks";
 * readOwnerFile("/home/me/.spool/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA")?.pid;
 * ```
 */
export function readOwnerFile(dir: string): OwnerFile | null {
  return ownerFileOf(readJsonNoFollow(path.join(dir, OWNER_FILE)));
}
