/**
 * Characters that must not reach a person or a model as they are, wherever captured or
 * outside text is shown: the C0 controls but newline and tab, DEL, the C1 controls
 * (U+0080–U+009F; U+009B is a terminal's CSI), and the invisible and bidirectional ones:
 * zero-width spaces, joiners and marks (U+200B–U+200F), the line and paragraph separators
 * and the bidi embeddings and overrides (U+2028–U+202E), the word joiner (U+2060), the
 * bidi isolates (U+2066–U+2069) and the byte-order mark (U+FEFF). Text that holds them can
 * read one way and run another (`file\u202egnp.exe`), or hide a forged line behind an
 * invisible character.
 *
 * @category errors
 * @example
 * ```ts
 * import { UNSAFE_CHARACTERS } from "@spool/core";
 * new RegExp(`[${UNSAFE_CHARACTERS}]`).test("a\u200bb"); // true
 * ```
 */
export const UNSAFE_CHARACTERS = String.raw`\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff`;

/**
 * One unsafe character written out: `\xNN` below U+0100, else `\uXXXX`.
 *
 * @category errors
 * @example
 * ```ts
 * import { writtenOut } from "@spool/core";
 * writtenOut("\u001b"); // "\\x1b"
 * writtenOut("\u202e"); // "\\u202e"
 * ```
 */
export function writtenOut(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

const UNSAFE_OR_TAB_OR_NEWLINE = new RegExp(`[${UNSAFE_CHARACTERS}\\t\\n]`, "g");

/**
 * Text from the outside (a REF, a label) shown in a one-line message or listing: each
 * unsafe character ({@link UNSAFE_CHARACTERS}), tab and newline becomes "?", so a name
 * cannot drive the terminal, break the line or hide what it is.
 *
 * @category errors
 * @example
 * ```ts
 * import { printable } from "@spool/core";
 * printable("a\u001b[2Jb\n"); // "a?[2Jb?"
 * ```
 */
export function printable(s: string): string {
  return s.replace(UNSAFE_OR_TAB_OR_NEWLINE, "?");
}
