/**
 * Text from the outside (a REF, a label) shown in a one-line message or listing: each
 * C0 control character, DEL and C1 control (U+0080–U+009F, e.g. U+009B, a terminal's CSI)
 * becomes "?", and so do the line separators U+2028/U+2029, so a name cannot drive the
 * terminal or break the line.
 *
 * @category errors
 * @example
 * ```ts
 * import { printable } from "@spool/core";
 * printable("a\u001b[2Jb\n"); // "a?[2Jb?"
 * ```
 */
export function printable(s: string): string {
  let out = "";
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    out += c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029 ? "?" : ch;
  }
  return out;
}
