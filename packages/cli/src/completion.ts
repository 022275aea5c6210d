/**
 * The completion notification of a job: its final receipt, delivered once. Delivery is
 * recorded by its own marker file (`completion.seen`), never by reading output, so a
 * consumer reading or tailing a job does not swallow the notice that it finished.
 * `spool wait` delivers it; `takeCompletion` is what a listing of unseen completions uses.
 *
 * @example
 * ```ts
 * import { takeCompletion } from "@spool/cli";
 * takeCompletion("/abs/root/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA"); // true the first time only
 * ```
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { createExclusive } from "@spool/sinks";

export const COMPLETION_MARKER = "completion.seen";

/** Whether the completion of the job in `dir` has been delivered. */
export function completionSeen(dir: string): boolean {
  try {
    fs.lstatSync(path.join(dir, COMPLETION_MARKER));
    return true;
  } catch {
    return false;
  }
}

/** Mark the completion delivered; true if this call delivered it (exclusive creation). */
export function takeCompletion(dir: string): boolean {
  try {
    fs.closeSync(createExclusive(path.join(dir, COMPLETION_MARKER)));
    return true;
  } catch {
    return false;
  }
}
