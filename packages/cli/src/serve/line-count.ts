/**
 * How many lines a stream holds up to its committed end, for the web view's line
 * numbers and scroll range: `GET /api/v1/captures/:id/streams/:stream/lines`. Found
 * through `StoredStream.lineRange` (the store's sparse line index): a search over the
 * index's own steps (lines `k·1024 + 1`, each probe a seek and no scan), then one pass
 * over the lines of the last step. Nothing is read from the start of the stream, so a
 * multi-GB stream is counted with a few dozen index reads and one short scan. (A stream
 * without an index, which a store may have, is scanned from its start by each probe.)
 *
 * Lines are counted as the receipt counts them: a last line without a newline is a line.
 */
import type { StoredStream } from "@spool/core";

/** The line index's step (`LINE_INDEX_EVERY` in `@spool/sinks`): probes at `k·STEP + 1` need no scan. */
const STEP = 1024;

export interface LineCount {
  /** Lines in `[0, committed)`. */
  readonly lines: number;
  /** Where the last line starts (`committed` when there is none). */
  readonly lastLineStart: number;
  /** The committed bytes end with a newline (or there are none). */
  readonly endsWithNewline: boolean;
  readonly committed: number;
}

/** Count the lines of `reader` (see the module's comment). */
export async function countLines(reader: StoredStream): Promise<LineCount> {
  const committed = reader.committed;
  if (committed === 0) return { lines: 0, lastLineStart: 0, endsWithNewline: true, committed };
  // Where line n starts: an empty range (last < first) costs the index's seek and the
  // skip to n, and no scan past it; a line that starts before the end exists.
  const startOf = async (n: number) => (await reader.lineRange(n, n - 1)).start;
  const exists = async (n: number) => (await startOf(n)) < committed;
  // The highest index step whose first line exists: exponential, then binary search.
  let high = 1;
  while (await exists(high * STEP + 1)) high *= 2;
  let low = 0; // step `low` exists (line 1 always does), step `high` does not
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (await exists(mid * STEP + 1)) low = mid;
    else high = mid;
  }
  const base = low * STEP + 1;
  return countFrom(reader, base, await startOf(base));
}

/** Count the lines from line `base` (starting at byte `from`) to the end: one pass over at most a step of lines. */
async function countFrom(reader: StoredStream, base: number, from: number): Promise<LineCount> {
  const committed = reader.committed;
  let newlines = 0;
  let lastEnd = from; // just past the last newline seen (a line starts there)
  let previousEnd = from;
  let at = from;
  let lastByte = -1;
  for await (const chunk of reader.chunks(from, committed)) {
    for (let i = chunk.indexOf(NEWLINE); i !== -1; i = chunk.indexOf(NEWLINE, i + 1)) {
      newlines++;
      previousEnd = lastEnd;
      lastEnd = at + i + 1;
    }
    at += chunk.length;
    if (chunk.length > 0) lastByte = chunk[chunk.length - 1]!;
  }
  const endsWithNewline = lastByte === NEWLINE;
  return {
    lines: base - 1 + newlines + (endsWithNewline ? 0 : 1),
    lastLineStart: endsWithNewline ? previousEnd : lastEnd,
    endsWithNewline,
    committed,
  };
}

const NEWLINE = 0x0a;
