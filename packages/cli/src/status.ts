/**
 * `spool status REF [--for-remote [--base-url URL]]`: print the capture's current receipt
 * (final, else live) as JSON. `--for-remote` prints it for a reader elsewhere: local paths
 * replaced by the routes of a `spool serve` at `--base-url` (else server-relative), each
 * stream marked `remote: available|unavailable` (`serve/remote-receipt.ts`).
 *
 * A capture that ended or crashed while its process group still runs gets one line on
 * stderr saying so (the receipt says what was observed; `/proc` says what runs now).
 *
 * The looking is `ops/capture-status.ts` (shared with the MCP `status` tool); this is its CLI face.
 */
import { type CommandInput, usageError } from "./args.js";
import type { STATUS } from "./commands.js";
import type { Io } from "./io.js";
import { survivorNote } from "./job-group.js";
import { jsonText } from "./json-text.js";
import { locateCapture } from "./locate-capture.js";
import { captureStatus } from "./ops/capture-status.js";
import { receiptForRemote } from "./serve/remote-receipt.js";

export async function statusCommand(parsed: CommandInput<typeof STATUS>, io: Io): Promise<number> {
  const baseUrl = parsed.options["base-url"] ?? null;
  const forRemote = parsed.options["for-remote"];
  if (baseUrl !== null && !forRemote) throw usageError("--base-url goes with --for-remote");
  if (baseUrl !== null && !/^https?:\/\/[^\s/?#]+$/.test(baseUrl)) {
    throw usageError("--base-url takes http(s)://HOST[:PORT]");
  }
  const { store, captureId } = await locateCapture(parsed, io);
  const { state, groupRunning } = await captureStatus(store, captureId);
  const receipt = forRemote ? receiptForRemote(state.receipt, baseUrl) : state.receipt;
  io.stdout(`${jsonText(receipt, 2)}\n`);
  if (groupRunning !== null) io.stderr(`spool status: ${survivorNote(captureId, groupRunning)}\n`);
  return 0;
}
