/**
 * The completion notice of a capture in the file store: delivery is recorded by its own
 * marker file (`completion.seen`, created exclusively), never by reading output, so a
 * consumer reading or tailing a job does not swallow the notice that it finished, and
 * of concurrent takers exactly one delivers it.
 *
 * @example
 * ```ts
 * import { takeCompletion } from "@spool/sinks";
 * takeCompletion("/abs/root/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA"); // true the first time only
 * ```
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { isSpoolError } from "@spool/core/runtime";
import { createExclusive } from "../file/storage.js";

/**
 * The file name of a capture's completion marker (its completion notice was delivered).
 *
 * @category storage
 * @example
 * ```ts
 * import { join } from "node:path";
 * import { COMPLETION_MARKER } from "@spool/sinks";
 * const marker = join("/home/me/.spool/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA", COMPLETION_MARKER);
 * ```
 */
export const COMPLETION_MARKER = "completion.seen";

/**
 * Whether the completion of the capture in `dir` has been delivered.
 *
 * @category storage
 * @example
 * ```ts
 * import { completionSeen } from "@spool/sinks";
 * completionSeen("/home/me/.spool/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA"); // false until taken
 * ```
 */
export function completionSeen(dir: string): boolean {
  try {
    fs.lstatSync(path.join(dir, COMPLETION_MARKER));
    return true;
  } catch {
    return false;
  }
}

/**
 * Mark the completion delivered; true if this call delivered it (exclusive creation),
 * false if it had been delivered before. Any other failure throws (`SPOOL_E_STORAGE`,
 * `SPOOL_E_UNSAFE_PATH`): then it is not delivered.
 *
 * @category storage
 * @example
 * ```ts
 * import { takeCompletion } from "@spool/sinks";
 * if (takeCompletion("/home/me/.spool/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA")) console.log("notify once");
 * ```
 */
export function takeCompletion(dir: string): boolean {
  try {
    fs.closeSync(createExclusive(path.join(dir, COMPLETION_MARKER)));
    return true;
  } catch (error) {
    if (isSpoolError(error, "SPOOL_E_EXISTS")) return false;
    throw error;
  }
}
