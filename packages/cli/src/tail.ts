/**
 * `spool tail REF [-n N] [--follow] [--stream S]`: the last N lines (default 10) of a
 * stream's committed bytes; with `--follow`, then every newly committed byte as it
 * becomes readable, until the job ends (or its supervisor is found dead).
 */
import { parseArgs } from "./args.js";
import { viewCapture } from "./capture-view.js";
import { openCommitted } from "./committed-reader.js";
import type { Io } from "./io.js";
import { chosenStream, locateCapture, STREAM_OPTION } from "./locate-capture.js";

/** How often `--follow` looks for newly committed bytes. */
export const FOLLOW_POLL_MS = 20;

export async function tailCommand(argv: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(
    argv,
    {
      root: { kind: "string" },
      lines: { kind: "count" },
      follow: { kind: "flag" },
      stream: STREAM_OPTION,
    },
    { n: "lines", f: "follow" },
  );
  const located = locateCapture(parsed, io);
  const stream = chosenStream(parsed, located);
  const n = (parsed.options.lines as number | undefined) ?? 10;
  let view = viewCapture(located.dir);
  let reader = openCommitted(view, stream);
  let position: number;
  try {
    position = reader.tailStart(n);
    const { end } = reader.span(position, reader.committed - position);
    reader.pipe(position, end, (chunk) => {
      io.stdout(chunk);
      return true;
    });
    position = end;
  } finally {
    reader.close();
  }
  if (parsed.options.follow !== true) return 0;
  for (;;) {
    // Decide "ended" before reading, so the last bytes committed before the end are printed.
    const ended = !view.running;
    reader = openCommitted(view, stream);
    try {
      const { end } = reader.span(position, reader.committed - position);
      reader.pipe(position, end, (chunk) => {
        io.stdout(chunk);
        return true;
      });
      position = end;
    } finally {
      reader.close();
    }
    if (ended) break;
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
    view = viewCapture(located.dir);
  }
  if (view.crashed) io.stderr(`spool tail: the supervisor of ${view.receipt.captureId} died\n`);
  return 0;
}
