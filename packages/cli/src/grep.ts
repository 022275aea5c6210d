/**
 * `spool grep REF PATTERN [--stream S] [--max N] [-i] [-o] [--max-columns N] [--json]`:
 * a bounded streaming scan of a stream's committed bytes for a JavaScript regular
 * expression, line by line, in O(window) memory whatever the line lengths (see
 * `line-windows.ts`: a match up to 4 KiB long is found anywhere, even deep inside a
 * 2 MiB line). Exit 0 with a match, 1 without, like grep.
 *
 * - Default: `LINE:OFFSET:TEXT` per matching line, OFFSET the byte offset of the line
 *   (usable with `read --offset`). A line longer than `--max-columns` bytes (default
 *   2048) is shown as that many bytes around its first match, between exact markers:
 *   `LINE:OFFSET:[… B bytes] TEXT [… A bytes]` (B bytes of the line before TEXT, A after),
 *   so one match in a huge line never floods the reader.
 * - `-o`/`--only-matching`: `LINE:OFFSET:MATCH` per match, OFFSET the byte offset of the
 *   match itself (like GNU `grep -bo`); `--max` then counts matches.
 * - `--json`: one object per line/match: `{line, offset, text}` plus `lineOffset` (with
 *   `-o`) or `textOffset` and `lineBytes` (without).
 */
import { type CommandInput, usageError } from "./args.js";
import type { GREP } from "./commands.js";
import type { Io } from "./io.js";
import { createLineWindows, type LineWindow } from "./line-windows.js";
import { chosenStream, locateCapture } from "./locate-capture.js";

/** Window of a line the pattern is matched on at once. */
export const GREP_WINDOW_BYTES = 64 * 1024;
/** Longest match found across window boundaries. */
export const GREP_OVERLAP_BYTES = 4 * 1024;
/** Default `--max-columns`. */
export const GREP_MAX_COLUMNS = 2048;
/** Bytes shown before the first match of a clipped line. */
const CLIP_LEAD = 64;

/** One printed result. */
export interface GrepMatch {
  line: number;
  /** Byte offset of the line, or of the match with `-o`. */
  offset: number;
  text: string;
}

export async function grepCommand(parsed: CommandInput<typeof GREP>, io: Io): Promise<number> {
  const pattern = parsed.positionals[1];
  if (pattern === undefined) throw usageError("missing PATTERN (spool grep REF PATTERN)");
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, parsed.options["ignore-case"] ? "gi" : "g");
  } catch (error) {
    throw usageError(`PATTERN is not a valid regular expression: ${(error as Error).message}`);
  }
  const max = parsed.options.max;
  const columns = parsed.options["max-columns"];
  if (columns < 1) throw usageError("--max-columns must be at least 1");
  const onlyMatching = parsed.options["only-matching"];
  const json = parsed.options.json;
  const located = await locateCapture(parsed, io, 1);
  const stream = chosenStream(parsed, located);
  const { store } = located;
  const reader = await store.openStream(await store.state(located.captureId), stream);

  const from = parsed.options.from;
  let found = 0;
  const print = (match: GrepMatch & Record<string, unknown>, plain: string) => {
    // An earlier page's results are scanned again (line numbers count from 0) but not shown.
    if (match.offset < from) return;
    found++;
    io.stdout(json ? `${JSON.stringify(match)}\n` : `${match.line}:${match.offset}:${plain}\n`);
  };
  // Line mode: the first match of the current line, as the snippet to show at its end.
  let hit: { textOffset: number; text: string } | null = null;
  // Stream offset where the search of the current line resumes (after the last match).
  let resume = 0;

  const visit = (w: LineWindow): boolean => {
    if (found >= max) return false;
    if (w.offset === w.lineOffset) {
      hit = null;
      resume = w.lineOffset;
    }
    if (!(hit && !onlyMatching)) {
      for (const m of matchesIn(w, regex, resume)) {
        if (onlyMatching) {
          print({ line: w.line, offset: m.offset, text: m.text, lineOffset: w.lineOffset }, m.text);
          if (found >= max) return false;
        } else {
          hit = snippet(w, m.offset, columns);
          break;
        }
      }
    }
    if (w.last && hit && !onlyMatching) {
      const lineBytes = w.lineBytes ?? 0;
      const { textOffset, text } = hit;
      const before = textOffset - w.lineOffset;
      const after = lineBytes - before - Buffer.byteLength(text);
      const plain = `${before > 0 ? `[… ${before} bytes] ` : ""}${text}${after > 0 ? ` [… ${after} bytes]` : ""}`;
      print({ line: w.line, offset: w.lineOffset, text, textOffset, lineBytes }, plain);
      if (found >= max) return false;
    }
    return true;
  };

  try {
    const { end } = await reader.span(0, reader.committed);
    const lines = createLineWindows(
      { window: GREP_WINDOW_BYTES, overlap: GREP_OVERLAP_BYTES },
      visit,
    );
    for await (const chunk of reader.chunks(0, end)) if (!lines.push(chunk)) break;
    lines.end();
  } finally {
    await reader.close();
  }
  return found > 0 ? 0 : 1;

  /** Nonempty matches of this window's own part, from `after` (a stream offset) on. */
  function* matchesIn(w: LineWindow, re: RegExp, after: number) {
    const text = w.bytes.toString("utf8");
    const startByte = Math.max(w.from, after - w.offset);
    re.lastIndex = w.bytes.subarray(0, startByte).toString("utf8").length;
    let byteAt = startByte;
    let charAt = re.lastIndex;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      byteAt += Buffer.byteLength(text.slice(charAt, m.index));
      charAt = m.index;
      if (byteAt >= w.keep) return;
      const offset = w.offset + byteAt;
      resume = offset + Buffer.byteLength(m[0]);
      yield { offset, text: m[0] };
    }
  }
}

/** At most `columns` bytes of the window around a match at stream offset `at`, on character boundaries. */
function snippet(w: LineWindow, at: number, columns: number): { textOffset: number; text: string } {
  const b = w.bytes;
  const fits = w.last && w.offset === w.lineOffset && b.length <= columns;
  if (fits) return { textOffset: w.offset, text: b.toString("utf8") };
  let start = Math.max(0, at - w.offset - CLIP_LEAD);
  while (start > 0 && isContinuation(b[start])) start--;
  let end = Math.min(b.length, start + columns);
  while (end < b.length && end > start && isContinuation(b[end])) end--;
  return { textOffset: w.offset + start, text: b.subarray(start, end).toString("utf8") };
}

const isContinuation = (x: number | undefined) => x !== undefined && (x & 0xc0) === 0x80;
