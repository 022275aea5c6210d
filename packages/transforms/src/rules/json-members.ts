/**
 * The members of a JSON object read a byte at a time, up to the value of the member named
 * `key` at the object's own level: strings, their escapes and nested objects and lists are
 * followed (the caller says which quotes are the text's own, escaped or not as they are).
 * Used by the rules that find a secret by where it stands in a tool's JSON output (a
 * Kubernetes Secret's `data`, Vault's `data.data`, Key Vault's `value`).
 *
 * @example
 * ```ts
 * import { MembersToKey } from "./json-members.js";
 * const members = new MembersToKey("data", 0x7b, 4096);
 * [...Buffer.from(', "kind": "x", "data": {')].map((b) => members.read(b, b === 0x22)).at(-1); // 1
 * ```
 */

const QUOTE = 0x22;

export class MembersToKey {
  private depth = 0;
  private inString = false;
  /** The object's own key read last (one byte past `key`'s length at most), and whether its `:` came. */
  private name = "";
  private colon = false;
  private bytes = 0;

  constructor(
    private readonly key: string,
    /** What the value must open with: `{` (an object) or `"` (a string). */
    private readonly opener: number,
    /** Most bytes read. */
    private readonly max: number,
  ) {}

  /**
   * 1 once the member's value opens with `opener` (this byte), -1 when the object ended or
   * the bytes ran out first, 0 otherwise. `quote`: the byte is one of the text's own quotes.
   */
  read(byte: number, quote: boolean): number {
    if (++this.bytes > this.max) return -1;
    if (this.inString) {
      if (quote) this.inString = false;
      else if (this.depth === 0 && !this.colon && this.name.length <= this.key.length)
        this.name += String.fromCharCode(byte);
      return 0;
    }
    const opens = this.depth === 0 && this.colon && this.name === this.key;
    if (quote) {
      if (opens && this.opener === QUOTE) return 1;
      this.inString = true;
      if (this.depth === 0 && !this.colon) this.name = "";
      return 0;
    }
    if (byte === 0x3a && this.depth === 0) this.colon = true;
    else if (byte === 0x7b || byte === 0x5b) {
      if (opens && byte === this.opener) return 1;
      this.depth++;
    } else if (byte === 0x7d || byte === 0x5d) {
      if (--this.depth < 0) return -1;
    } else if (byte === 0x2c && this.depth === 0) this.colon = false;
    return 0;
  }
}
