/**
 * `spool status REF [--for-remote [--base-url URL]]`: print the capture's current receipt
 * (final, else live) as JSON. `--for-remote` prints it for a reader elsewhere: local paths
 * replaced by the routes of a `spool serve` at `--base-url` (else server-relative), each
 * stream marked `remote: available|unavailable` (`serve/remote-receipt.ts`).
 */
import { parseArgs, usageError } from "./args.js";
import type { Io } from "./io.js";
import { locateCapture } from "./locate-capture.js";
import { receiptForRemote } from "./serve/remote-receipt.js";

export async function statusCommand(argv: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(argv, {
    root: { kind: "string" },
    json: { kind: "flag" },
    "for-remote": { kind: "flag" },
    "base-url": { kind: "string" },
  });
  const baseUrl = (parsed.options["base-url"] as string | undefined) ?? null;
  const forRemote = parsed.options["for-remote"] === true;
  if (baseUrl !== null && !forRemote) throw usageError("--base-url goes with --for-remote");
  if (baseUrl !== null && !/^https?:\/\/[^\s/?#]+$/.test(baseUrl)) {
    throw usageError("--base-url takes http(s)://HOST[:PORT]");
  }
  const { store, captureId } = await locateCapture(parsed, io);
  const state = await store.state(captureId);
  const receipt = forRemote ? receiptForRemote(state.receipt, baseUrl) : state.receipt;
  io.stdout(`${JSON.stringify(receipt, null, 2)}\n`);
  return 0;
}
