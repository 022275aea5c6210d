/**
 * `spool tail REF [-n N] [--follow] [--stream S]`: the last N lines (default 10) of a
 * stream's committed bytes; with `--follow`, then every newly committed byte as it
 * becomes readable, until the job ends (or its supervisor is found dead).
 */
import type { CommandInput } from "./args.js";
import { viewCapture } from "./capture-view.js";
import type { TAIL } from "./commands.js";
import { openCommitted } from "./committed-reader.js";
import type { Io } from "./io.js";
import { chosenStream, locateCapture } from "./locate-capture.js";

/** How often `--follow` looks for newly committed bytes. */
export const FOLLOW_POLL_MS = 20;

export async function tailCommand(parsed: CommandInput<typeof TAIL>, io: Io): Promise<number> {
  const located = locateCapture(parsed, io);
  const stream = chosenStream(parsed, located);
  const n = parsed.options.lines;
  let view = viewCapture(located.dir);
  // Print what is committed from `from` (null: the start of the last n lines) on; returns
  // where the next look starts.
  const printFrom = (from: number | null): number => {
    const reader = openCommitted(view, stream);
    try {
      const start = from ?? reader.tailStart(n);
      const { end } = reader.span(start, reader.committed - start);
      reader.pipe(start, end, (chunk) => {
        io.stdout(chunk);
        return true;
      });
      return end;
    } finally {
      reader.close();
    }
  };
  let position = printFrom(null);
  if (parsed.options.follow !== true) return 0;
  for (;;) {
    // Decide "ended" before reading, so the last bytes committed before the end are printed.
    const ended = !view.running;
    position = printFrom(position);
    if (ended) break;
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
    view = viewCapture(located.dir);
  }
  if (view.crashed)
    io.stderr(
      `spool tail: the owner of ${view.receipt.captureId} (its supervisor or spool run) died; capture partial (crash)\n`,
    );
  return 0;
}
