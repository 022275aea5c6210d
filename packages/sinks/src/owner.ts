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
import { z } from "zod";
import { readJsonNoFollow } from "./json-file.js";
import { OWNER_FILE } from "./owner-identity.js";

// Who a process is needs no zod (the writer worker records it); reading one back does.
export {
  currentOwner,
  isOwnerAlive,
  OWNER_FILE,
  type Owner,
  processStart,
} from "./owner-identity.js";

/**
 * The zod schema of a process identity (pid and start time).
 *
 * @example
 * ```ts
 * import { OwnerSchema } from "@spool/sinks";
 * OwnerSchema.parse({ pid: 4242, start: null }).pid; // 4242
 * ```
 */
export const OwnerSchema = z.object({
  pid: z.number().int().positive(),
  /** Process start time as the OS reports it, or null where unknown. */
  start: z.string().nullable(),
});

/**
 * The zod schema of `owner.json` as the writer publishes it: the owner, and when its
 * capture started.
 *
 * @example
 * ```ts
 * import { OwnerFileSchema } from "@spool/sinks";
 * OwnerFileSchema.safeParse({ pid: 4242, start: "123", startedAt: "2026-12-01T10:00:00.000Z" }).success; // true
 * ```
 */
export const OwnerFileSchema = OwnerSchema.extend({ startedAt: z.string().optional() });
/**
 * `owner.json` of a capture ({@link OwnerFileSchema}).
 *
 * @example
 * ```ts
 * import { readOwnerFile, type OwnerFile } from "@spool/sinks";
 * const owner: OwnerFile | null = readOwnerFile("/home/me/.spool/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA");
 * owner?.startedAt;
 * ```
 */
export type OwnerFile = z.infer<typeof OwnerFileSchema>;

/**
 * The owner recorded in `dir/owner.json`, or null when there is none (yet) or it is unreadable.
 *
 * @example
 * ```ts
 * import { readOwnerFile } from "@spool/sinks";
 * readOwnerFile("/home/me/.spool/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA")?.pid;
 * ```
 */
export function readOwnerFile(dir: string): OwnerFile | null {
  const parsed = OwnerFileSchema.safeParse(readJsonNoFollow(path.join(dir, OWNER_FILE)));
  return parsed.success ? parsed.data : null;
}
