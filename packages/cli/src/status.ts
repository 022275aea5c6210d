/** `spool status REF`: print the capture's current receipt (final, else live) as JSON. */
import { parseArgs } from "./args.js";
import { viewCapture } from "./capture-view.js";
import type { Io } from "./io.js";
import { locateCapture } from "./locate-capture.js";

export async function statusCommand(argv: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(argv, { root: { kind: "string" }, json: { kind: "flag" } });
  const view = viewCapture(locateCapture(parsed, io).dir);
  io.stdout(`${JSON.stringify(view.receipt, null, 2)}\n`);
  return 0;
}
