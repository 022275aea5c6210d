/**
 * How many lines a stream holds up to its committed end, for the web view's line
 * numbers and scroll range: `GET /api/v1/captures/:id/streams/:stream/lines`. Found
 * through `StoredStream.lineRange` (the store's sparse line index: a seek, then a scan of
 * at most one index step of lines), by a search over line numbers: first over the index's
 * own steps (each probe scans one line), then within the last step. Nothing is read from
 * the start of the stream, so a multi-GB stream is counted with a few dozen short reads.
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
  // Line n exists when it starts before the committed end.
  const exists = async (n: number) => (await reader.lineRange(n, n)).start < committed;
  // The highest index step whose line exists: exponential, then binary search over steps.
  let high = 1;
  while (await exists(high * STEP + 1)) high *= 2;
  let low = 0; // step `low` exists (line 1 always does), step `high` does not
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (await exists(mid * STEP + 1)) low = mid;
    else high = mid;
  }
  // Within the last step: the highest line that exists.
  let first = low * STEP + 1;
  let last = first + STEP; // does not exist
  while (last - first > 1) {
    const mid = Math.floor((first + last) / 2);
    if (await exists(mid)) first = mid;
    else last = mid;
  }
  const lastLineStart = (await reader.lineRange(first, first)).start;
  const tail = await reader.read(committed - 1, 1);
  const endsWithNewline = tail.bytes.at(-1) === 0x0a;
  return { lines: first, lastLineStart, endsWithNewline, committed };
}
