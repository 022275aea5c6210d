/**
 * Byte sets the built-in rules are written with: a 256-entry table per set, so a rule's
 * per-byte test is one array read.
 *
 * @example
 * ```ts
 * import { byteSet } from "./byte-classes.js";
 * const hex = byteSet("0-9a-f");
 * hex[0x61]; // 1 ("a")
 * ```
 */

/** A byte table from a character-class body such as `"A-Za-z0-9_-"` (ASCII only). */
export function byteSet(spec: string): Uint8Array {
  const table = new Uint8Array(256);
  for (let i = 0; i < spec.length; i++) {
    const from = spec.charCodeAt(i);
    if (spec[i + 1] === "-" && i + 2 < spec.length) {
      const to = spec.charCodeAt(i + 2);
      for (let b = from; b <= to; b++) table[b] = 1;
      i += 2;
    } else {
      table[from] = 1;
    }
  }
  return table;
}

/** Letters and digits: a byte before a token's anchor from this set means it is mid-word. */
export const ALNUM = byteSet("A-Za-z0-9");
/** ASCII letters. */
export const ALPHA = byteSet("A-Za-z");
/** ASCII digits. */
export const DIGIT = byteSet("0-9");
/** Base64url alphabet. */
export const BASE64URL = byteSet("A-Za-z0-9_-");
/** The value of each hex digit byte (either case), -1 for any other byte. */
export const HEX_VALUE: Int8Array = (() => {
  const table = new Int8Array(256).fill(-1);
  for (let d = 0; d < 16; d++) {
    table["0123456789abcdef".charCodeAt(d)] = d;
    table["0123456789ABCDEF".charCodeAt(d)] = d;
  }
  return table;
})();
/** Space and tab: the blanks allowed around `=` and `:`. */
export const BLANK = byteSet(" \t");
/**
 * C0 control bytes other than blanks and line ends, and DEL: no value or word holds one,
 * so each ends one (the NUL between `/proc/<pid>/environ`'s or `find -print0`'s entries,
 * a terminal's BEL, ESC and DEL).
 */
export const CONTROL = Uint8Array.from({ length: 256 }, (_, b) =>
  (b < 0x20 && (b < 0x09 || b > 0x0d)) || b === 0x7f ? 1 : 0,
);

/** `set` (a {@link byteSet}) with the {@link CONTROL} bytes in it too: what ends a value. */
export function withControls(set: Uint8Array): Uint8Array {
  return set.map((b, i) => b | CONTROL[i]!);
}
/** The quotes a string literal opens with: double, single, backtick. */
export const QUOTES = byteSet("\"'`");
/** Letters that, after a backslash inside a string, stand for a blank or a line end (`\n`, `\r`, `\t`). */
export const ESCAPED_BLANK = byteSet("nrt");
/** {@link ESCAPED_BLANK} and `"`: after backslashes inside a string, the end of a line or of the string. */
export const ESCAPED_END = byteSet('nrt"');
/**
 * Bytes that, right after a quote inside an unquoted value, show the quote closed a string
 * the value stood in (`{"env":["TOKEN=x","B=2"]}`, `f('pw=x')`): the value ends before the
 * quote. Whitespace and the end of input do too; any other byte keeps the quote in the value
 * (`pa"ss`).
 */
export const QUOTE_CLOSER = byteSet(" \t\r\n\v\f,;:)]}>&|+.");

/**
 * Why `spec` is not a usable character-class body for a user's rule, or null when it is:
 * empty, an empty range (`z-a`), an escape {@link byteSet} does not support (`\w`, `\d`:
 * every character is itself, so `"\\w"` would mean the bytes `\` and `w`), brackets around
 * it, or a non-ASCII character. Each of these would silently match nothing or the wrong bytes.
 */
export function classBodyProblem(spec: string): string | null {
  if (spec.length === 0) return "is empty (it would match nothing)";
  if (/[^\x20-\x7e\t\r\n]/.test(spec)) return "has a non-ASCII or control character";
  const escaped = /\\[A-Za-z0-9]/.exec(spec);
  if (escaped) {
    return `uses ${JSON.stringify(escaped[0])}, which is not supported: write the bytes and ranges out (e.g. "A-Za-z0-9_" for \\w)`;
  }
  if (spec.startsWith("[") && spec.endsWith("]") && spec.length > 1)
    return 'is wrapped in [ ]: give the class body only (e.g. "A-Z0-9")';
  for (let i = 0; i + 2 < spec.length; i++) {
    if (spec[i + 1] === "-") {
      if (spec.charCodeAt(i + 2) < spec.charCodeAt(i))
        return `has the empty range ${JSON.stringify(spec.slice(i, i + 3))} (write it low-high)`;
      i += 2;
    }
  }
  return null;
}

/**
 * Most backslashes in a run before an escaped quote: JSON inside a JSON string escapes its
 * escapes (`\\\"password\\\":`), so rules read a run as its last backslash, up to three
 * levels of strings (`\\\\\\\"`).
 */
export const MAX_BACKSLASHES = 7;
