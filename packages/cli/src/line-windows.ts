/**
 * Split a byte stream into lines and hand each line to a matcher in bounded windows:
 * the whole line when it fits one window, else overlapping windows of it, so a search
 * sees every part of a line of any length (a 2 MiB JSON line included) in O(window)
 * memory. A window tells the matcher which matches are its own (`from` ≤ start <
 * `keep`); the rest start in the next window of the same line, which repeats the
 * `overlap` bytes before its own part. A match up to `overlap` bytes long is found
 * wherever it lies; a longer one can be missed across a window boundary.
 *
 * @example
 * ```ts
 * import { createLineWindows } from "./line-windows.js";
 * const lines = createLineWindows({}, (w) => {
 *   console.log(w.line, w.offset, w.bytes.toString());
 *   return true;
 * });
 * lines.push(Buffer.from("a\nb"));
 * lines.end(); // 1 0 a, then 2 2 b
 * ```
 */

/** One window of one line (never including its newline). */
export interface LineWindow {
  /** 1-based line number. */
  readonly line: number;
  /** Byte offset of the line's first byte in the stream. */
  readonly lineOffset: number;
  /** Byte offset of `bytes[0]` in the stream. */
  readonly offset: number;
  readonly bytes: Buffer;
  /** Matches of this window start at byte index ≥ `from` (the bytes before are context from the previous window). */
  readonly from: number;
  /** Matches starting at byte index ≥ `keep` belong to the next window of the line. */
  readonly keep: number;
  /** The line ends in this window; `lineBytes` is then its length. */
  readonly last: boolean;
  readonly lineBytes: number | null;
}

export interface LineWindowsOptions {
  /** Largest window in bytes (at least 16). @default 65536 */
  readonly window?: number;
  /** Bytes the next window repeats, so matches up to this long are never cut (at most half the window). @default 4096 */
  readonly overlap?: number;
}

export interface LineWindows {
  /** Feed the next bytes of the stream; `false` once the visitor asked to stop. */
  push(chunk: Buffer): boolean;
  /** The stream ended: a last line without a newline is visited now. */
  end(): void;
}

/** `visit` returns `false` to stop the scan. */
export function createLineWindows(
  options: LineWindowsOptions,
  visit: (window: LineWindow) => boolean,
): LineWindows {
  // At least 16 bytes and an overlap of at most half: every slide moves past whole characters.
  const size = Math.max(16, options.window ?? 64 * 1024);
  const overlap = Math.min(options.overlap ?? 4096, Math.floor(size / 2));
  const s: ScanState = {
    base: 0,
    line: 1,
    lineOffset: 0,
    windowOffset: 0,
    from: 0,
    pending: [],
    pendingBytes: 0,
    stopped: false,
  };
  const emit = (w: LineWindow) => {
    if (!visit(w)) s.stopped = true;
  };

  return {
    push(chunk) {
      let at = 0;
      while (at < chunk.length && !s.stopped) {
        const nl = chunk.indexOf(0x0a, at);
        const stop = nl === -1 ? chunk.length : nl;
        while (at < stop && !s.stopped) {
          if (s.pendingBytes === size) {
            slide(s, overlap, emit);
            continue;
          }
          const take = Math.min(stop - at, size - s.pendingBytes);
          s.pending.push(chunk.subarray(at, at + take));
          s.pendingBytes += take;
          at += take;
        }
        if (nl === -1 || s.stopped) break;
        finishLine(s, s.base + nl, emit);
        s.line++;
        s.lineOffset = s.base + nl + 1;
        s.windowOffset = s.lineOffset;
        at = nl + 1;
      }
      s.base += chunk.length;
      return !s.stopped;
    },
    end() {
      if (!s.stopped && s.base > s.lineOffset) finishLine(s, s.base, emit);
    },
  };
}

/** Where the scan stands: the line being collected and the bytes held of it. */
interface ScanState {
  /** Stream offset of the next pushed byte. */
  base: number;
  line: number;
  lineOffset: number;
  windowOffset: number;
  from: number;
  pending: Buffer[];
  pendingBytes: number;
  stopped: boolean;
}

/** The window is full and the line goes on: hand it over, keep the overlap. */
function slide(s: ScanState, overlap: number, emit: (w: LineWindow) => void): void {
  const bytes = Buffer.concat(s.pending, s.pendingBytes);
  let keep = s.pendingBytes - overlap;
  while (keep > 0 && isContinuation(bytes[keep])) keep--;
  emit({
    line: s.line,
    lineOffset: s.lineOffset,
    offset: s.windowOffset,
    bytes,
    from: s.from,
    keep,
    last: false,
    lineBytes: null,
  });
  // One character before `keep` stays as context, so `^` and lookbehinds do not see a line start.
  let context = keep - 1;
  while (context > 0 && isContinuation(bytes[context])) context--;
  context = Math.max(0, context);
  s.pending = [bytes.subarray(context)];
  s.pendingBytes = bytes.length - context;
  s.windowOffset += context;
  s.from = keep - context;
}

/** The line ended at stream offset `end`: hand over its last window. */
function finishLine(s: ScanState, end: number, emit: (w: LineWindow) => void): void {
  const bytes = Buffer.concat(s.pending, s.pendingBytes);
  emit({
    line: s.line,
    lineOffset: s.lineOffset,
    offset: s.windowOffset,
    bytes,
    from: s.from,
    keep: bytes.length,
    last: true,
    lineBytes: end - s.lineOffset,
  });
  s.pending = [];
  s.pendingBytes = 0;
  s.from = 0;
}

const isContinuation = (b: number | undefined) => b !== undefined && (b & 0xc0) === 0x80;
