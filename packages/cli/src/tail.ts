/**
 * `spool tail REF [-n N] [--follow] [--stream S]`: the last N lines (default 10) of a
 * stream's committed bytes; with `--follow`, then every newly committed byte as it
 * becomes readable, until the job ends (or its supervisor is found dead).
 *
 * The tailing is `ops/tail-capture.ts` (shared with the MCP `tail` tool); this is its CLI face.
 */
import type { CommandInput } from "./args.js";
import type { TAIL } from "./commands.js";
import type { Io } from "./io.js";
import { chosenStream, locateCapture } from "./locate-capture.js";
import { tailCapture } from "./ops/tail-capture.js";

export async function tailCommand(parsed: CommandInput<typeof TAIL>, io: Io): Promise<number> {
  const { store, captureId, ...ref } = await locateCapture(parsed, io);
  const follow = parsed.options.follow === true;
  const { state } = await tailCapture(
    store,
    { captureId, stream: chosenStream(parsed, ref), lines: parsed.options.lines, follow },
    (chunk) => io.stdout(chunk),
  );
  if (follow && state.condition === "crashed")
    io.stderr(
      `spool tail: the owner of ${state.receipt.captureId} (its supervisor or spool run) died; capture partial (crash)\n`,
    );
  return 0;
}
