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
/** Base64url alphabet. */
export const BASE64URL = byteSet("A-Za-z0-9_-");
/** Space and tab: the blanks allowed around `=` and `:`. */
export const BLANK = byteSet(" \t");
