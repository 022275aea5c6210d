/**
 * A line break read a byte at a time, raw (`\n`, `\r\n`) or escaped inside a string (`\n`,
 * `\r\n`; a run of backslashes reads as one, `\\n` a string deeper), for the rules whose
 * secret spans lines or stands on the line after its label.
 *
 * @example
 * ```ts
 * import { Break, LineBreak } from "./line-break.js";
 * const lineBreak = new LineBreak();
 * [...Buffer.from("\\n")].map((b) => lineBreak.read(b)); // [Break.Held, Break.Whole]
 * ```
 */

const BACKSLASH = 0x5c;

/** What {@link LineBreak.read} says of a byte. */
export const Break = {
  /** No part of a line break. */
  None: 0,
  /** A backslash, an escaped `r` or a CR: held until a later byte decides. */
  Held: 1,
  /** The break's end (a line feed, or `n` after backslashes). */
  Whole: 2,
  /** The byte after backslashes makes another escape (`\"`, `\t`): no line break. */
  Escape: 3,
} as const;
export type Break = (typeof Break)[keyof typeof Break];

export class LineBreak {
  private escaping = false;

  read(byte: number): Break {
    if (this.escaping) {
      if (byte === BACKSLASH) return Break.Held;
      this.escaping = false;
      if (byte === 0x6e) return Break.Whole;
      return byte === 0x72 ? Break.Held : Break.Escape;
    }
    if (byte === BACKSLASH) {
      this.escaping = true;
      return Break.Held;
    }
    if (byte === 0x0a) return Break.Whole;
    return byte === 0x0d ? Break.Held : Break.None;
  }
}
