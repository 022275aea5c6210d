/**
 * A child's text made safe for a person's terminal, chunk by chunk: what `spool run` shows
 * live is the redacted text that goes to disk, with every control character but newline
 * and tab written as `\xNN` (C1 controls too: U+009B is a terminal's CSI), a carriage
 * return kept only before a newline, the invisible and bidirectional controls written as
 * `\uXXXX` (zero-width spaces and joiners, U+2060, U+FEFF, the line and paragraph
 * separators, bidi embeddings, overrides and isolates: text that reads one way and runs
 * another), and a line that starts like spool's own status line (`[spool]`) given a
 * backslash. With `keepAnsi`, SGR sequences (colours: `ESC [ digits;… m`) pass as they
 * are; any other escape sequence is written out.
 *
 * The decision at a chunk's end may need bytes of the next chunk (a UTF-8 sequence, a
 * carriage return, an SGR sequence, `[spool]` at a line's start): those few bytes are
 * held and decided with the next chunk, so the result is the same however the text is
 * split; `end()` decides what is held with what there is.
 *
 * @example
 * ```ts
 * import { TerminalText } from "./terminal-text.js";
 * const text = new TerminalText({ keepAnsi: false });
 * Buffer.concat([text.push(Buffer.from("a\u001b[2Jb\r")), text.end()]).toString(); // "a\\x1b[2Jb\\x0d"
 * ```
 */

const BACKSLASH = 0x5c;
const ESC = 0x1b;
const LF = 0x0a;
const CR = 0x0d;
const TAB = 0x09;
/** Longest SGR sequence passed as it is; a longer one is written out. */
const MAX_SGR = 64;
const STATUS_OPENING = Buffer.from("[spool]");

/** Options of {@link TerminalText}. */
export interface TerminalTextOptions {
  /** Pass SGR colour sequences as they are (`--keep-ansi`). */
  readonly keepAnsi: boolean;
}

/** Byte classes: plain text, a newline, `[` (special at a line's start), and the rest. */
const PLAIN = 0;
const NEWLINE = 1;
const BRACKET = 2;
const SPECIAL = 3;

/**
 * Each byte's class: controls (but tab), DEL and the lead bytes of the escaped characters
 * (0xc2: C1 controls; 0xe2, 0xef: invisible and bidi ones) need a decision.
 */
const BYTE_CLASS = (() => {
  const table = new Uint8Array(256);
  for (let b = 0; b < 0x20; b++) table[b] = SPECIAL;
  table[TAB] = PLAIN;
  table[LF] = NEWLINE;
  table[0x5b] = BRACKET;
  for (const b of [0x7f, 0xc2, 0xe2, 0xef]) table[b] = SPECIAL;
  return table;
})();

/** A decision at `i`: the bytes it covers and their text, or "more bytes are needed". */
const NEED_MORE = -1;

export class TerminalText {
  private held: Uint8Array = new Uint8Array(0);
  /** True when the next byte starts a line. */
  private lineStart = true;
  private readonly keepAnsi: boolean;

  constructor(options: TerminalTextOptions) {
    this.keepAnsi = options.keepAnsi;
  }

  /** The terminal text of `chunk` (plus what was held), holding back what the next chunk decides. */
  push(chunk: Uint8Array): Uint8Array {
    return this.convert(chunk, false);
  }

  /** The terminal text of what is still held. */
  end(): Uint8Array {
    return this.convert(new Uint8Array(0), true);
  }

  private convert(chunk: Uint8Array, final: boolean): Uint8Array {
    const buf = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk]);
    this.held = new Uint8Array(0);
    const out: Uint8Array[] = [];
    let plain = 0;
    let i = 0;
    const n = buf.length;
    // The state in a local while the bytes are plain (the common case: a table lookup a byte).
    let lineStart = this.lineStart;
    while (i < n) {
      const start = i;
      while (i < n && BYTE_CLASS[buf[i]!] === PLAIN) i++;
      if (i > start) lineStart = false;
      if (i >= n) break;
      const kind = BYTE_CLASS[buf[i]!];
      if (kind === NEWLINE) {
        lineStart = true;
        i++;
        continue;
      }
      if (kind === BRACKET && !lineStart) {
        i++;
        continue;
      }
      if (ordinaryLead(buf, i)) {
        // A character that only starts like an escaped one (—, ✓, é…): plain text.
        lineStart = false;
        i++;
        continue;
      }
      this.lineStart = lineStart;
      const taken = this.decide(buf, i, final, out, plain);
      if (taken === NEED_MORE) {
        this.held = buf.slice(i);
        if (i > plain) out.push(buf.subarray(plain, i));
        return joined(out);
      }
      lineStart = this.lineStart;
      i += taken;
      plain = i;
    }
    this.lineStart = lineStart;
    if (n > plain) out.push(buf.subarray(plain, n));
    return joined(out);
  }

  /**
   * The byte at `i` is special: push the plain bytes before it and its text to `out`, and
   * return how many bytes it covers (or {@link NEED_MORE}).
   */
  private decide(
    buf: Uint8Array,
    i: number,
    final: boolean,
    out: Uint8Array[],
    plain: number,
  ): number {
    const b = buf[i]!;
    const left = buf.length - i;
    let text: Uint8Array | string | null;
    let taken = 1;
    if (b === 0x5b) {
      if (left < STATUS_OPENING.length && !final && endsWithStartOf(buf, i, STATUS_OPENING))
        return NEED_MORE;
      text = startsWith(buf, i, STATUS_OPENING) ? "\\[" : "[";
      this.lineStart = false;
    } else if (b === CR) {
      if (left < 2 && !final) return NEED_MORE;
      text = buf[i + 1] === LF ? "\r" : "\\x0d";
      this.lineStart = false;
    } else if (b === ESC && this.keepAnsi) {
      const end = sgrEnd(buf, i);
      if (end === NEED_MORE && !final && left < MAX_SGR) return NEED_MORE;
      if (end > 0) {
        taken = end - i;
        text = buf.subarray(i, end);
      } else text = hexEscape(b);
      this.lineStart = false;
    } else if (b < 0x20 || b === 0x7f) {
      text = hexEscape(b);
      this.lineStart = false;
    } else {
      // 0xc2, 0xe2, 0xef: a C1 control, an invisible or bidi control, or ordinary text.
      const need = b === 0xc2 ? 2 : 3;
      if (left < need && !final) return NEED_MORE;
      const code = left >= need ? invisibleCode(buf, i) : -1;
      if (code >= 0) {
        taken = need;
        text = code < 0x100 ? hexEscape(code) : `\\u${code.toString(16).padStart(4, "0")}`;
      } else text = buf.subarray(i, i + 1);
      this.lineStart = false;
    }
    if (i > plain) out.push(buf.subarray(plain, i));
    out.push(typeof text === "string" ? Buffer.from(text, "latin1") : text);
    return taken;
  }
}

/** `\xNN` for byte (or C1 code point) `code`. */
function hexEscape(code: number): string {
  return `${String.fromCharCode(BACKSLASH)}x${code.toString(16).padStart(2, "0")}`;
}

/** Whether the lead byte at `i` (0xc2, 0xe2, 0xef) starts an ordinary character, its bytes all there. */
function ordinaryLead(buf: Uint8Array, i: number): boolean {
  const b = buf[i]!;
  const need = b === 0xc2 ? 2 : b === 0xe2 || b === 0xef ? 3 : 0;
  return need > 0 && buf.length - i >= need && invisibleCode(buf, i) < 0;
}

/**
 * The code point at `i` if it is a C1 control or an invisible or bidi control (see the
 * file comment), else -1. `buf[i]` is 0xc2, 0xe2 or 0xef, with its continuation bytes present.
 */
function invisibleCode(buf: Uint8Array, i: number): number {
  const b = buf[i]!;
  const c1 = buf[i + 1]!;
  if (b === 0xc2) return c1 >= 0x80 && c1 <= 0x9f ? c1 : -1;
  const c2 = buf[i + 2]!;
  if ((c1 & 0xc0) !== 0x80 || (c2 & 0xc0) !== 0x80) return -1;
  const code = ((b & 0x0f) << 12) | ((c1 & 0x3f) << 6) | (c2 & 0x3f);
  const invisible =
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x2028 && code <= 0x202e) ||
    code === 0x2060 ||
    (code >= 0x2066 && code <= 0x2069) ||
    code === 0xfeff;
  return invisible ? code : -1;
}

/**
 * The end of an SGR sequence (`ESC [ [0-9;:]* m`) at `i`; 0 when what is there is not
 * one; {@link NEED_MORE} when the bytes end before it could be told.
 */
function sgrEnd(buf: Uint8Array, i: number): number {
  if (i + 1 >= buf.length) return NEED_MORE;
  if (buf[i + 1] !== 0x5b) return 0;
  for (let j = i + 2; j < buf.length && j - i <= MAX_SGR; j++) {
    const c = buf[j]!;
    if (c === 0x6d) return j + 1;
    if (!((c >= 0x30 && c <= 0x39) || c === 0x3b || c === 0x3a)) return 0;
  }
  return buf.length - i > MAX_SGR ? 0 : NEED_MORE;
}

function startsWith(buf: Uint8Array, i: number, what: Uint8Array): boolean {
  if (buf.length - i < what.length) return false;
  for (let k = 0; k < what.length; k++) if (buf[i + k] !== what[k]) return false;
  return true;
}

/** Whether the bytes from `i` to the end are a prefix of `what`. */
function endsWithStartOf(buf: Uint8Array, i: number, what: Uint8Array): boolean {
  for (let k = 0; i + k < buf.length; k++) if (buf[i + k] !== what[k]) return false;
  return true;
}

function joined(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  return Buffer.concat(parts);
}
