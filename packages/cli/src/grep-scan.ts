/**
 * The scan behind `spool grep` and the HTTP server's grep route: a JavaScript regular
 * expression matched line by line over a stream's bytes, in O(window) memory whatever the
 * line lengths (see `line-windows.ts`: a match up to 4 KiB long is found anywhere, even deep
 * inside a 2 MiB line). Feed it the stream's bytes in order with `push`, then `end`.
 *
 * - Line mode: one {@link GrepMatch} per matching line, `offset` the line's byte offset; a
 *   line longer than `columns` bytes is clipped to that many bytes around its first match,
 *   with `textOffset` and `lineBytes` saying exactly what was cut.
 * - `onlyMatching`: one match per match, `offset` the match's own byte offset.
 *
 * The pattern is whatever it is given: `spool grep` and the server both give a
 * linear-time one (`grep-pattern.ts`, RE2 syntax); the server runs this in a worker it
 * stops at a time budget. A binary stream is matched byte for byte (`binary`).
 *
 * @example
 * ```ts
 * import { createGrepScan } from "./grep-scan.js";
 * const scan = createGrepScan({ pattern: /b+/g, max: 10 }, (m) => console.log(m.line, m.offset, m.text));
 * scan.push(Buffer.from("a\nbb\n"));
 * scan.end(); // 2 2 bb
 * ```
 */
import type { GrepPattern } from "./grep-pattern.js";
import { createLineWindows, type LineWindow } from "./line-windows.js";

/** Window of a line the pattern is matched on at once. */
export const GREP_WINDOW_BYTES = 64 * 1024;
/** Longest match found across window boundaries. */
export const GREP_OVERLAP_BYTES = 4 * 1024;
/** Default `columns` (`--max-columns`). */
export const GREP_MAX_COLUMNS = 2048;
/** Bytes shown before the first match of a clipped line. */
const CLIP_LEAD = 64;

/** One result. */
export interface GrepMatch {
  readonly line: number;
  /** Byte offset of the line, or of the match with `onlyMatching`. */
  readonly offset: number;
  readonly text: string;
  /** With `onlyMatching`: the byte offset of the match's line. */
  readonly lineOffset?: number;
  /** Without `onlyMatching`: where `text` starts in the stream, and the line's whole length. */
  readonly textOffset?: number;
  readonly lineBytes?: number;
}

export interface GrepScanOptions {
  /** A global (`g`) regular expression, or anything with its `exec` and `lastIndex`. */
  readonly pattern: GrepPattern;
  /** Most results (lines, or matches with `onlyMatching`). @default 100 */
  readonly max?: number;
  /** Report each match instead of each matching line. @default false */
  readonly onlyMatching?: boolean;
  /** Longest text shown of one line. @default 2048 */
  readonly columns?: number;
  /**
   * Report only results at this stream offset or later (the next page of an earlier
   * search; the scan still starts at 0 so line numbers stay right). @default 0
   */
  readonly from?: number;
  /**
   * The stream holds raw bytes (`--binary keep`): the pattern sees each byte as one
   * character (Latin-1, lossless), so a line holding invalid UTF-8 is matched like any
   * other and offsets stay exact; compile the pattern with `bytes: true` to match.
   * Text shown is still the bytes read as UTF-8. @default false
   */
  readonly binary?: boolean;
}

export interface GrepScan {
  /** Feed the next bytes; `false` once `max` results were found (stop feeding). */
  push(chunk: Buffer): boolean;
  /** The bytes ended: a last line without a newline is scanned now. */
  end(): void;
  /** Results found so far. */
  readonly found: number;
}

/** The plain `LINE:OFFSET:TEXT` form of a result, with a clipped line's cut byte counts. */
export function plainMatch(match: GrepMatch): string {
  if (match.textOffset === undefined || match.lineBytes === undefined) {
    return `${match.line}:${match.offset}:${match.text}`;
  }
  const before = match.textOffset - match.offset;
  const after = match.lineBytes - before - Buffer.byteLength(match.text);
  return `${match.line}:${match.offset}:${before > 0 ? `[… ${before} bytes] ` : ""}${match.text}${after > 0 ? ` [… ${after} bytes]` : ""}`;
}

export function createGrepScan(
  options: GrepScanOptions,
  report: (match: GrepMatch) => void,
): GrepScan {
  const regex = options.pattern;
  const max = options.max ?? 100;
  const columns = options.columns ?? GREP_MAX_COLUMNS;
  const onlyMatching = options.onlyMatching === true;
  const from = options.from ?? 0;
  const decoding = options.binary ? LATIN1 : UTF8;
  let found = 0;
  const print = (match: GrepMatch) => {
    if (match.offset < from) return;
    found++;
    report(match);
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
          const text = decoding.shown(m.text);
          print({ line: w.line, offset: m.offset, text, lineOffset: w.lineOffset });
          if (found >= max) return false;
        } else {
          hit = snippet(w, m.offset, columns);
          break;
        }
      }
    }
    if (w.last && hit && !onlyMatching) {
      const { textOffset, text } = hit;
      print({ line: w.line, offset: w.lineOffset, text, textOffset, lineBytes: w.lineBytes ?? 0 });
      if (found >= max) return false;
    }
    return true;
  };
  const lines = createLineWindows(
    { window: GREP_WINDOW_BYTES, overlap: GREP_OVERLAP_BYTES },
    visit,
  );
  return {
    push: (chunk) => lines.push(chunk),
    end: () => lines.end(),
    get found() {
      return found;
    },
  };

  /** Nonempty matches of this window's own part, from `after` (a stream offset) on. */
  function* matchesIn(w: LineWindow, re: GrepPattern, after: number) {
    const text = decoding.text(w.bytes);
    const startByte = Math.max(w.from, after - w.offset);
    re.lastIndex = decoding.chars(w.bytes, startByte);
    let byteAt = startByte;
    let charAt = re.lastIndex;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      byteAt += decoding.bytes(text.slice(charAt, m.index));
      charAt = m.index;
      if (byteAt >= w.keep) return;
      const offset = w.offset + byteAt;
      resume = offset + decoding.bytes(m[0]);
      yield { offset, text: m[0] };
    }
  }
}

/** How a window's bytes become the text the pattern sees, and back to byte counts. */
interface Decoding {
  text(bytes: Buffer): string;
  /** Characters of the first `n` bytes. */
  chars(bytes: Buffer, n: number): number;
  /** Bytes of a piece of `text`. */
  bytes(piece: string): number;
  /** A match as shown to a reader. */
  shown(piece: string): string;
}

/**
 * Text streams: valid UTF-8 by construction (invalid bytes were stored as U+FFFD), so
 * characters and bytes map one to one.
 */
const UTF8: Decoding = {
  text: (b) => b.toString("utf8"),
  chars: (b, n) => b.subarray(0, n).toString("utf8").length,
  bytes: (piece) => Buffer.byteLength(piece),
  shown: (piece) => piece,
};

/**
 * Binary streams: one character per byte. Decoded as UTF-8, an invalid byte becomes a
 * 3-byte U+FFFD, the byte counts drift past the line's end, and its matches were dropped.
 */
const LATIN1: Decoding = {
  text: (b) => b.toString("latin1"),
  chars: (_b, n) => n,
  bytes: (piece) => piece.length,
  shown: (piece) => Buffer.from(piece, "latin1").toString("utf8"),
};

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
