/**
 * Reading back a capture's exit record (`exit.json`, written in place by the writer
 * into space reserved at open, or outside the root when the root turned read-only; see
 * final-records.ts): the child's fate as its owner observed it, and whether the final
 * receipt failed to publish. A capture without `receipt.json` whose owner is gone is
 * reported with this fate instead of an unknown one, so `wait` exits with the job's
 * status whenever it was observed.
 *
 * @example
 * ```ts
 * import { readExitRecord } from "@spool/sinks";
 * readExitRecord("/abs/root", "/abs/root/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA")?.process.exitCode;
 * ```
 */
import * as path from "node:path";
import { CAPTURE_REASONS, ProcessReceiptSchema } from "@spool/core";
import { z } from "zod";
import { readJsonNoFollow } from "../file/json-file.js";
import { EXIT_FILE, exitFallbackPath } from "../writer/final-records.js";

/**
 * The zod schema of a capture's exit record: the process block and final reasons its
 * owner wrote when `receipt.json` could not be published, so recovery can still report
 * how the process ended.
 *
 * @category storage
 * @example
 * ```ts
 * import { ExitRecordSchema } from "@spool/sinks";
 * declare const json: unknown;
 * ExitRecordSchema.safeParse(json).success;
 * ```
 */
export const ExitRecordSchema = z.object({
  version: z.literal(1),
  captureId: z.string(),
  process: ProcessReceiptSchema,
  /** The final receipt's reasons, once the owner built it; null before. */
  reasons: z.array(z.enum(CAPTURE_REASONS)).nullable(),
  /** The errno that stopped `receipt.json` from being published, or null. */
  receiptError: z.string().nullable(),
});
/**
 * A capture's exit record ({@link ExitRecordSchema}).
 *
 * @category storage
 * @example
 * ```ts
 * import type { ExitRecord } from "@spool/sinks";
 * declare const record: ExitRecord;
 * console.log(record.process.exitCode, record.receiptError);
 * ```
 */
export type ExitRecord = z.infer<typeof ExitRecordSchema>;

/**
 * The exit record of the capture in `dir` (of `root`), or null when none was written.
 *
 * @category storage
 * @example
 * ```ts
 * import { readExitRecord } from "@spool/sinks";
 * const record = readExitRecord("/home/me/.spool", "/home/me/.spool/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA");
 * record?.process.state;
 * ```
 */
export function readExitRecord(root: string, dir: string): ExitRecord | null {
  const captureId = path.basename(dir);
  for (const file of [path.join(dir, EXIT_FILE), exitFallbackPath(root, captureId)]) {
    const parsed = ExitRecordSchema.safeParse(readJsonNoFollow(file));
    if (parsed.success && parsed.data.captureId === captureId) return parsed.data;
  }
  return null;
}
