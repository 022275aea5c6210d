/**
 * `@spool/core/internal`: what the sibling packages (`@spool/sinks`, `@spool/cli`) use from
 * core and library users do not: the checks behind the CLI's `--log-file` (the logger opens
 * its file through them too), and the capture engine that `startCapture` and
 * `captureSource` in `@spool/sinks` run once they have filled in the defaults. Not part of the public API: it may change in any release,
 * whatever the version says.
 *
 * @example
 * ```ts
 * import { logFileProblem } from "@spool/core/internal";
 * import { lstatSync } from "node:fs";
 * logFileProblem(lstatSync("/tmp/spool.log")); // why that file may not be the log, or null
 * ```
 */

export { runCommandCapture, runSourceCapture } from "./capture.js";
export { logFileProblem, openLogFile } from "./log-file.js";
