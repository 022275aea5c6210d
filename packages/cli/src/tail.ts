/**
 * `spool tail REF [-n N] [--follow] [--stream S]`: the last N lines (default 10) of a
 * stream's committed bytes; with `--follow`, then every newly committed byte as it
 * becomes readable, until the job ends (or its supervisor is found dead).
 */
import type { StoredCapture } from "@spool/core";
import type { CommandInput } from "./args.js";
import type { TAIL } from "./commands.js";
import type { Io } from "./io.js";
import { chosenStream, locateCapture } from "./locate-capture.js";

export async function tailCommand(parsed: CommandInput<typeof TAIL>, io: Io): Promise<number> {
  const { store, captureId, ...ref } = await locateCapture(parsed, io);
  const stream = chosenStream(parsed, ref);
  const n = parsed.options.lines;
  // Print what `view` has committed from `from` (null: the start of the last n lines) on;
  // returns where the next look starts.
  const printFrom = async (view: StoredCapture, from: number | null): Promise<number> => {
    const reader = await store.openStream(view, stream);
    try {
      const start = from ?? (await reader.tailStart(n));
      const { end } = await reader.span(start, reader.committed - start);
      for await (const chunk of reader.chunks(start, end)) io.stdout(chunk);
      return end;
    } finally {
      await reader.close();
    }
  };
  let view = await store.state(captureId);
  let position = await printFrom(view, null);
  if (parsed.options.follow !== true) return 0;
  // Each state bounds what is printed, so the last bytes committed before the end are printed.
  for await (const next of store.watch(captureId)) {
    view = next;
    position = await printFrom(view, position);
  }
  if (view.condition === "crashed")
    io.stderr(
      `spool tail: the owner of ${view.receipt.captureId} (its supervisor or spool run) died; capture partial (crash)\n`,
    );
  return 0;
}
