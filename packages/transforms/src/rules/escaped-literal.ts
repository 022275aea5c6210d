/**
 * A string literal whose quotes come escaped: code inside a JSON string (`f(\"…\")`), or
 * inside a JSON string inside another (`f(\\\"…\\\")`, a tool's JSON result carried as a
 * string). The run of backslashes before the opening quote is read as one (at most
 * `MAX_BACKSLASHES`), and the same run before the quote closes the literal; any other
 * escape is the literal's own.
 *
 * @example
 * ```ts
 * const literal = new EscapedLiteral();
 * // after `\\\"`: three backslashes, then the quote
 * for (const b of [0x5c, 0x5c, 0x5c]) literal.opening(b);
 * literal.opening(0x22); // OPENED
 * ```
 */
import { MAX_BACKSLASHES } from "./byte-classes.js";

const BACKSLASH = 0x5c;

/** {@link EscapedLiteral.opening}: a backslash of the run, held. */
export const OPENING = -1;
/** {@link EscapedLiteral.opening}: the quote after an odd run opened the literal. */
export const OPENED = -2;
/** {@link EscapedLiteral.opening}: no escaped quote (an even run, or too long a one). */
export const NOT_OPENED = -3;
/** {@link EscapedLiteral.read}: a backslash, held until the byte after its run decides. */
export const IN_RUN = -1;
/** {@link EscapedLiteral.read}: the literal closed; its closing run starts at `runAt`. */
export const CLOSED = -2;

/**
 * A quote after `run` backslashes closes a string whose own quotes come after `escapes`
 * backslashes (0 as written, 1 inside a string, 3 a string deeper): the rest of the run is
 * the string's own backslashes, each written as `escapes + 1` pairs (`"a\\"` closes as
 * written, `\"a\\\\\"` inside a string).
 */
export function closesString(run: number, escapes: number): boolean {
  return run >= escapes && (run - escapes) % (2 * (escapes + 1)) === 0;
}

/** {@link JsonQuotes.read}: a backslash of a run, held until the byte after it. */
export const IN_ESCAPE = 0;
/** {@link JsonQuotes.read}: a run past `MAX_BACKSLASHES`. */
export const TOO_DEEP = 1;
/** {@link JsonQuotes.read}: one of the text's own quotes (the first one sets their escaping). */
export const TEXT_QUOTE = 2;
/** {@link JsonQuotes.read}: any other byte. */
export const OTHER_BYTE = 3;

/**
 * The quotes of JSON text read a byte at a time, the text as written or inside a string (its
 * quotes escaped once, or three times a string deeper): the first quote says which, and a
 * later one is the text's own when its run of backslashes is that escaping and the string's
 * own backslashes before it (see {@link closesString}).
 */
export class JsonQuotes {
  /** Backslashes before each of the text's quotes; -1 until the first. */
  escapes = -1;
  /** Backslashes just before the byte read last. */
  run = 0;
  private pending = 0;

  read(byte: number): number {
    if (byte === BACKSLASH) return ++this.pending > MAX_BACKSLASHES ? TOO_DEEP : IN_ESCAPE;
    this.run = this.pending;
    this.pending = 0;
    if (byte !== 0x22) return OTHER_BYTE;
    if (this.escapes >= 0) return closesString(this.run, this.escapes) ? TEXT_QUOTE : OTHER_BYTE;
    // An even run before the first quote escapes a backslash, not the quote.
    if (this.run > 0 && this.run % 2 === 0) return OTHER_BYTE;
    this.escapes = this.run;
    return TEXT_QUOTE;
  }
}

export class EscapedLiteral {
  /** Backslashes before the opening quote: the run that closes the literal. */
  closing = 0;
  /** Backslashes in the run being read. */
  run = 0;
  /** Where that run started (the caller's offset). */
  runAt = 0;

  /** A byte before the literal: a backslash of the opening run, or the byte after it. */
  opening(byte: number, quotes: Uint8Array): number {
    if (byte === BACKSLASH) return ++this.closing > MAX_BACKSLASHES ? NOT_OPENED : OPENING;
    return quotes[byte] === 1 && this.closing % 2 === 1 ? OPENED : NOT_OPENED;
  }

  /**
   * A byte of the literal at `here`: {@link IN_RUN}, {@link CLOSED}, or how many bytes of an
   * escape's run before `byte` are the literal's (`byte` is too: 0 when none came before it).
   */
  read(byte: number, here: number, quote: number): number {
    if (byte === BACKSLASH) {
      if (this.run++ === 0) this.runAt = here;
      return IN_RUN;
    }
    const run = this.run;
    this.run = 0;
    return byte === quote && run === this.closing ? CLOSED : run;
  }
}
