/**
 * `job.json`: what the supervisor of a background job records in its capture directory
 * so that other processes (`kill`, `status`, `wait`) can reach it: its own pid, and the
 * job's pid, which is also its process group id (the job runs in its own group).
 *
 * @example
 * ```ts
 * import { readJobRecord } from "@spool/cli";
 * const job = readJobRecord("/abs/root/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA");
 * job?.supervisorPid;
 * ```
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { publishAtomic } from "@spool/sinks";
import { z } from "zod";

export const JOB_FILE = "job.json";

export const JobRecordSchema = z.object({
  version: z.literal(1),
  captureId: z.string(),
  /** How the job began: `spool start`, or a `spool run` promoted with `--background-after`. */
  mode: z.enum(["start", "run"]),
  supervisorPid: z.number().int().positive(),
  /** The job's pid and process group id, or null if it never spawned. */
  pid: z.number().int().positive().nullable(),
  pgid: z.number().int().positive().nullable(),
});
export type JobRecord = z.infer<typeof JobRecordSchema>;

/** Publish `job.json` atomically (once per job, before the launch receipt is handed out). */
export function writeJobRecord(dir: string, record: JobRecord): void {
  publishAtomic(dir, JOB_FILE, Buffer.from(`${JSON.stringify(record)}\n`));
}

/** The job record of a capture directory, or null for a capture that was not a job. */
export function readJobRecord(dir: string): JobRecord | null {
  let text: string;
  try {
    const fd = fs.openSync(
      path.join(dir, JOB_FILE),
      fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW,
    );
    try {
      text = fs.readFileSync(fd, "utf8");
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
  const parsed = JobRecordSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : null;
}

/** Whether the supervisor of `record` still runs (and is that supervisor, where /proc can tell). */
export function supervisorAlive(record: JobRecord): boolean {
  try {
    process.kill(record.supervisorPid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  try {
    const cmdline = fs.readFileSync(`/proc/${record.supervisorPid}/cmdline`, "utf8");
    return cmdline.includes("__supervise") && cmdline.includes(record.captureId);
  } catch {
    return true; // no /proc: trust the signal probe
  }
}
