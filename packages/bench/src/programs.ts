/**
 * The programs the benchmarks run, defined once: the `spool` binary of this repository
 * and the bench's own child programs. The children always run built (from `dist/`), so
 * the paths are the same whether this module runs from `src/` (tests) or `dist/`.
 */
import { fileURLToPath } from "node:url";

const built = (file: string) => fileURLToPath(new URL(`../dist/${file}`, import.meta.url));

/** `packages/cli/bin/spool.js`, next to this package in the workspace. */
export const SPOOL_BIN = fileURLToPath(new URL("../../cli/bin/spool.js", import.meta.url));
/** `node log-generator.js SIZE`: SIZE bytes of log lines on stdout. */
export const LOG_GENERATOR = built("log-generator.js");
/** `node node-capture.js OUT [--replace NAME]... -- CMD`: the plain Node baselines. */
export const NODE_CAPTURE = built("node-capture.js");
/** `node fixture-child.js NAME`: one of the seed's fixtures. */
export const FIXTURE_CHILD = built("fixture-child.js");

/** `spool ARGS` through this Node and the built binary, as an argv for `measure`. */
export function spoolArgv(args: readonly string[]): string[] {
  return [process.execPath, SPOOL_BIN, ...args];
}
/** `node --expose-gc --single-threaded redact-ratio-child.js [JSON]`: the adversarial timings. */
export const REDACT_RATIO_CHILD = built("redact-ratio-child.js");
