/**
 * `job.json`: what the supervisor of a background job records in its capture directory
 * so that other processes (`kill`, `ls --unseen`) can reach it: its own pid, and the
 * job's pid, which is also its process group id (the job runs in its own group). Whether
 * the supervisor is alive is not decided here but by the capture's `owner.json`
 * (`readCaptureState`), the one rule every command uses. The file store reports it as
 * the `job` of a capture's state.
 *
 * @example
 * ```ts
 * import { readJobRecord } from "@spool/sinks";
 * const job = readJobRecord("/abs/root/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA");
 * job?.supervisorPid;
 * ```
 */
import * as path from "node:path";
import { z } from "zod";
import { readJsonNoFollow } from "../file/json-file.js";
import { publishAtomic } from "../file/storage.js";

/**
 * The file name of a background job's record in its capture directory.
 *
 * @category storage
 * @example
 * ```ts
 * import { join } from "node:path";
 * import { JOB_FILE } from "@spool/sinks";
 * join("/home/me/.spool/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA", JOB_FILE);
 * ```
 */
export const JOB_FILE = "job.json";

/**
 * The zod schema of `job.json`: how a background job began, its supervisor's pid and its
 * own pid and process group.
 *
 * @category storage
 * @example
 * ```ts
 * import { JobRecordSchema } from "@spool/sinks";
 * declare const json: unknown;
 * const record = JobRecordSchema.safeParse(json);
 * ```
 */
export const JobRecordSchema = z.object({
  version: z.literal(1),
  captureId: z.string(),
  /**
   * How the job began: `spool start`, or a `spool run` or `spool capture` (of its stdin)
   * promoted with `--background-after`.
   */
  mode: z.enum(["start", "run", "capture"]),
  supervisorPid: z.number().int().positive(),
  /** The job's pid and process group id, or null if it never spawned (or is a capture of stdin). */
  pid: z.number().int().positive().nullable(),
  pgid: z.number().int().positive().nullable(),
});
/**
 * A background job's record ({@link JobRecordSchema}).
 *
 * @category storage
 * @example
 * ```ts
 * import type { JobRecord } from "@spool/sinks";
 * const record: JobRecord = { version: 1, captureId: "AAAAAAAAAAAAAAAAAAAAAAAA", mode: "start", supervisorPid: 4242, pid: 4243, pgid: 4243 };
 * ```
 */
export type JobRecord = z.infer<typeof JobRecordSchema>;

/**
 * Publish `job.json` atomically (once per job, before the launch receipt is handed out).
 *
 * @category storage
 * @example
 * ```ts
 * import { writeJobRecord } from "@spool/sinks/internal";
 * writeJobRecord("/home/me/.spool/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA", {
 *   version: 1, captureId: "AAAAAAAAAAAAAAAAAAAAAAAA", mode: "start", supervisorPid: process.pid, pid: null, pgid: null,
 * });
 * ```
 */
export function writeJobRecord(dir: string, record: JobRecord): void {
  publishAtomic(dir, JOB_FILE, Buffer.from(`${JSON.stringify(record)}\n`));
}

/**
 * The job record of a capture directory, or null for a capture that was not a job.
 *
 * @category storage
 * @example
 * ```ts
 * import { readJobRecord } from "@spool/sinks";
 * readJobRecord("/home/me/.spool/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA")?.pgid;
 * ```
 */
export function readJobRecord(dir: string): JobRecord | null {
  const parsed = JobRecordSchema.safeParse(readJsonNoFollow(path.join(dir, JOB_FILE)));
  return parsed.success ? parsed.data : null;
}
