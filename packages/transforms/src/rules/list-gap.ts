/**
 * The bytes between two elements of a list of secrets, read a byte at a time by the rules
 * that read every element (`"api_keys": ["…", "…"]`, `Set-Cookie:\n  - …\n  - …`): a JSON
 * list's closing quote, one `,` and the next element's opening quote, blanks and line
 * breaks between them; a YAML list's line end, the next item's indentation (the first
 * item's), its `-` and a blank; a JSON object's `,`, next member's name and `:`. Inside a
 * string the line breaks and the quotes come
 * escaped (`\n`, `\"`). Anything else (the list's `]`, the next key, a deeper item) ends
 * the list.
 *
 * @example
 * ```ts
 * import { GAP_OPEN, ListGap } from "./list-gap.js";
 * const gap = new ListGap(false, 0x22, false);
 * gap.reset(0, true);
 * [...Buffer.from(', "')].map((b) => gap.read(b)).at(-1) === GAP_OPEN; // true
 * ```
 */
import { BLANK, byteSet } from "./byte-classes.js";

/** {@link ListGap.read}: still between elements. */
export const GAP_HOLD = 0;
/** {@link ListGap.read}: the list ended (or was no list). */
export const GAP_END = 1;
/** {@link ListGap.read}: the next element's value starts after this byte. */
export const GAP_OPEN = 2;

/** A YAML map's key's bytes. */
const KEY = byteSet("A-Za-z0-9_.-");

/** Most bytes between two elements (pretty-printing's line break and indentation). */
const MAX_GAP = 64;
/** Most bytes of an element's rest, kept ({@link GAP_REST}: a cookie's attributes). */
const MAX_REST = 512;

/**
 * {@link ListGap.reset}'s step for the rest of an element, kept, before its end (a
 * `Set-Cookie` value's attributes, `; Path=/; HttpOnly`): any byte but a line break up to
 * the element's closing quote, or a YAML item's line end.
 */
export const GAP_REST = -1;

/** The byte an escape's letter stands for in a string (`\n`, `\r`, `\t`), else 0. */
const ESCAPED_CONTROL = (() => {
  const table = new Uint8Array(256);
  table[0x6e] = 0x0a;
  table[0x72] = 0x0d;
  table[0x74] = 0x09;
  return table;
})();

export class ListGap {
  /**
   * {@link GAP_REST} in the element's rest, 0 before the separator (a JSON list's `,`, a
   * YAML item's line end), 1 after it (for YAML, the indentation), 2 after a YAML item's
   * `-`; for an object's members, 3 in a name, 4 after it, 5 after its `:`.
   */
  private step = 0;
  /** The element's closing quote was read (or needs none). */
  private closed = true;
  /** A backslash was read: the next byte is its escape's letter (a run reads as one). */
  private escape = false;
  private count = 0;
  private indent = 0;
  /** Blanks before a YAML list's items' `-`: the first item's, -1 until it is read. */
  itemIndent = -1;

  constructor(
    /** A YAML list (items a line) rather than a JSON one. */
    readonly yaml: boolean,
    /** The elements' quote, or 0 for either `"` or `'`. */
    private readonly quote: number,
    /** The quotes come escaped (`\"…\"`: the list stands inside a string). */
    private readonly escapedQuotes: boolean,
    /**
     * An object's members rather than a list's elements: each value after its name (any
     * name), `:` and blanks (`{"prod": "…", "staging": "…"}`, YAML's `prod: …` lines).
     */
    private readonly members = false,
  ) {}

  /** Start the gap after an element: at `step` (see above), its closing quote read or not. */
  reset(step: number, closed: boolean): void {
    this.step = step;
    this.closed = closed;
    this.escape = false;
    this.count = 0;
    this.indent = 0;
  }

  /**
   * An element's value ended at `byte` (an escape's letter when `escaped`): true, and the
   * gap begun, when the list may go on from there (the element's closing quote, a YAML
   * item's line end).
   */
  ended(byte: number, escaped: boolean): boolean {
    const lineFeed = escaped ? byte === 0x6e : byte === 0x0a;
    const carriageReturn = escaped ? byte === 0x72 : byte === 0x0d;
    if (this.yaml && (lineFeed || carriageReturn)) this.reset(lineFeed ? 1 : 0, true);
    // (A YAML item's quote is its own, escaped or not.)
    else if (this.isQuote(byte) && (escaped === this.escapedQuotes || this.yaml))
      this.reset(0, true);
    else return false;
    return true;
  }

  read(byte: number): number {
    if (++this.count > (this.step === GAP_REST ? MAX_REST : this.members ? 2 * MAX_GAP : MAX_GAP))
      return GAP_END;
    let b = byte;
    if (byte === 0x5c) {
      this.escape = true;
      return GAP_HOLD;
    }
    if (this.step === GAP_REST) return this.rest(byte);
    if (this.escape) {
      this.escape = false;
      b = ESCAPED_CONTROL[byte]!;
      if (b === 0 && !(this.escapedQuotes && this.isQuote(byte))) return GAP_END;
      if (b === 0) b = byte;
    } else if (this.escapedQuotes && (byte === 0x22 || byte === 0x27)) return GAP_END;
    return this.yaml ? this.item(b) : this.element(b);
  }

  /** The element's rest: up to its closing quote (escaped if the quotes are) or its line's end. */
  private rest(byte: number): number {
    const escaped = this.escape;
    this.escape = false;
    const lineFeed = escaped ? byte === 0x6e : byte === 0x0a;
    if (this.yaml) {
      if (lineFeed) this.reset(1, true);
      return GAP_HOLD;
    }
    if (this.isQuote(byte) && escaped === this.escapedQuotes) this.reset(0, true);
    else if (byte === 0x0a || byte === 0x0d) return GAP_END;
    return GAP_HOLD;
  }

  private isQuote(b: number): boolean {
    return this.quote === 0 ? b === 0x22 || b === 0x27 : b === this.quote;
  }

  /** A JSON list's gap, a byte read as its escape says. */
  private element(b: number): number {
    if (this.step === 3) {
      // A member's name: anything to its closing quote, on one line.
      if (this.isQuote(b)) this.step = 4;
      return b === 0x0a || b === 0x0d ? GAP_END : GAP_HOLD;
    }
    if (BLANK[b] === 1 || b === 0x0a || b === 0x0d) return GAP_HOLD;
    if (this.step === 0) {
      if (this.isQuote(b) && !this.closed) {
        this.closed = true;
        return GAP_HOLD;
      }
      // Blanks alone part a shell array's elements (`TOKENS=("…" "…")`) and strings joined.
      if (this.isQuote(b) && !this.members) return GAP_OPEN;
      return b === 0x2c ? this.to(1) : GAP_END;
    }
    if (this.step === 4) return b === 0x3a ? this.to(5) : GAP_END;
    if (!this.isQuote(b)) return GAP_END;
    // An object's next member: its name first, then its value's quote.
    return this.step === 1 && this.members ? this.to(3) : GAP_OPEN;
  }

  /** Go on to `step` (the byte read is held). */
  private to(step: number): number {
    this.step = step;
    return GAP_HOLD;
  }

  /**
   * A YAML list's gap: the line's end, the first item's indentation, `-`, a blank; for a
   * map's members the next one's name (at that indentation), `:` and a blank.
   */
  private item(b: number): number {
    if (this.step === 0) {
      if (b === 0x0a) this.step = 1;
      else if (this.isQuote(b) && !this.closed) this.closed = true;
      else if (BLANK[b] !== 1 && b !== 0x0d) return GAP_END;
      return GAP_HOLD;
    }
    if (this.step === 3) {
      if (b === 0x3a) this.step = 5;
      return b === 0x3a || KEY[b] === 1 ? GAP_HOLD : GAP_END;
    }
    if (this.step === 5) return b === 0x20 ? GAP_OPEN : GAP_END;
    if (this.step === 1) {
      if (b === 0x20) {
        this.indent++;
        return GAP_HOLD;
      }
      if (this.members)
        return KEY[b] === 1 && this.indent === this.itemIndent ? this.to(3) : GAP_END;
      if (b !== 0x2d) return GAP_END;
      if (this.itemIndent < 0) this.itemIndent = this.indent;
      return this.indent === this.itemIndent ? this.to(2) : GAP_END;
    }
    return b === 0x20 ? GAP_OPEN : GAP_END;
  }
}
