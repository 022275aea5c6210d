/** `spool status REF`: print the capture's current receipt (final, else live) as JSON. */
import type { CommandInput } from "./args.js";
import type { STATUS } from "./commands.js";
import type { Io } from "./io.js";
import { locateCapture } from "./locate-capture.js";

export async function statusCommand(parsed: CommandInput<typeof STATUS>, io: Io): Promise<number> {
  const { store, captureId } = await locateCapture(parsed, io);
  const state = await store.state(captureId);
  io.stdout(`${JSON.stringify(state.receipt, null, 2)}\n`);
  return 0;
}
