/**
 * The exit status `spool run` (and `wait`) reports for a settled process: the child's
 * code, 128 + signal, 124 on timeout, 127 when the command was not found and 126 when it
 * could not be run. Read from receipt fields, never from message text.
 *
 * @example
 * ```ts
 * import { exitStatusOf } from "@spool/core";
 * declare const receipt: import("@spool/core").Receipt;
 * process.exitCode = exitStatusOf(receipt.process);
 * ```
 */
import { constants as osConstants } from "node:os";
import type { ProcessReceipt } from "./receipt.js";

/**
 * The exit status `spool run` (and `wait`) reports for a settled process: the child's
 * code, 128 + signal, 124 on timeout, 127 when the command was not found and 126 when it
 * could not be run. Read from receipt fields, never from message text.
 *
 * @category process
 * @example
 * ```ts
 * import { exitStatusOf, type ProcessReceipt } from "@spool/core";
 * declare const proc: ProcessReceipt;
 * process.exitCode = exitStatusOf(proc);
 * ```
 */
export function exitStatusOf(proc: ProcessReceipt): number {
  if (proc.spawnError) return proc.spawnError.code === "ENOENT" ? 127 : 126;
  // Never started, without the errno (a receipt that does not say why).
  if (proc.pid === null && proc.state !== "running") return 126;
  if (proc.state === "timeout") return 124;
  if (proc.signal) return 128 + (osConstants.signals[proc.signal as NodeJS.Signals] ?? 0);
  return proc.exitCode ?? 1;
}
