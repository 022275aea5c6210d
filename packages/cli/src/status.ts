/** `spool status REF`: print the capture's current receipt (final, else live) as JSON. */
import { parseArgs } from "./args.js";
import type { Io } from "./io.js";
import { locateCapture } from "./locate-capture.js";

export async function statusCommand(argv: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(argv, { root: { kind: "string" }, json: { kind: "flag" } });
  const { store, captureId } = await locateCapture(parsed, io);
  const state = await store.state(captureId);
  io.stdout(`${JSON.stringify(state.receipt, null, 2)}\n`);
  return 0;
}
