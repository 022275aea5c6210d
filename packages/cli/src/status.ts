/**
 * `spool status REF [--for-remote [--base-url URL]]`: print the capture's current receipt
 * (final, else live) as JSON. `--for-remote` prints it for a reader elsewhere: local paths
 * replaced by the routes of a `spool serve` at `--base-url` (else server-relative), each
 * stream marked `remote: available|unavailable` (`serve/remote-receipt.ts`).
 *
 * A capture that ended or crashed while its process group still runs gets one line on
 * stderr saying so (the receipt says what was observed; `/proc` says what runs now).
 */
import { type CommandInput, usageError } from "./args.js";
import type { STATUS } from "./commands.js";
import type { Io } from "./io.js";
import { groupLeft, survivorNote } from "./job-group.js";
import { jsonText } from "./json-text.js";
import { locateCapture } from "./locate-capture.js";
import { receiptForRemote } from "./serve/remote-receipt.js";

export async function statusCommand(parsed: CommandInput<typeof STATUS>, io: Io): Promise<number> {
  const baseUrl = parsed.options["base-url"] ?? null;
  const forRemote = parsed.options["for-remote"];
  if (baseUrl !== null && !forRemote) throw usageError("--base-url goes with --for-remote");
  if (baseUrl !== null && !/^https?:\/\/[^\s/?#]+$/.test(baseUrl)) {
    throw usageError("--base-url takes http(s)://HOST[:PORT]");
  }
  const { store, captureId } = await locateCapture(parsed, io);
  const state = await store.state(captureId);
  const receipt = forRemote ? receiptForRemote(state.receipt, baseUrl) : state.receipt;
  io.stdout(`${jsonText(receipt, 2)}\n`);
  const group = state.condition === "live" ? null : groupLeft(state.receipt);
  if (group !== null) io.stderr(`spool status: ${survivorNote(captureId, group)}\n`);
  return 0;
}
