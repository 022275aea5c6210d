/**
 * A secret's data as HashiCorp Vault's CLI prints a key/value secret (`vault kv get`): under
 * the `====== Data ======` heading, a table of `Key` and `Value` columns whose every value is
 * the secret's, whatever its key is named (`conn    postgres://…`, `dsn    …`). The values
 * are redacted to their line's end, the keys, the heading and the column rules kept; the
 * table ends at an empty line or the next heading. Inside a JSON string the line breaks come
 * escaped (`\n`), read the same way. A version 1 store's secret (`vault kv get`, `vault
 * read`) has no heading: its rows follow the `refresh_interval` row, which stays. (The
 * `Metadata` table holds no secret, and `-format=json` is read by the keyword rules only.)
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("====== Data ======\nKey     Value\n---     -----\nconn    hunter2x\n");
 * // "====== Data ======\nKey     Value\n---     -----\nconn    [REDACTED:vault-kv-data]\n"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { CONTROL } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";
import { Break, LineBreak } from "./line-break.js";
import { withNotBefore } from "./not-before.js";

const LF = 0x0a;
const SPACE = 0x20;
/** Most bytes of a key, and of the blanks after it. */
const MAX_KEY = 128;
const MAX_BLANKS = 64;
/** Fewest blanks between the columns (Vault pads them to line up; YAML's `key: value` has one). */
const MIN_PADDING = 2;
/** Bytes of a key: anything but a blank, a line end or a control byte. */
const KEY = Uint8Array.from({ length: 256 }, (_, b) => (b > SPACE && CONTROL[b] === 0 ? 1 : 0));
/** The heading's `=` run stands before `= Data =`; a line break before `refresh_interval`. */
const NOT_BEFORE = Uint8Array.from({ length: 256 }, (_, b) => (b === 0x3d || b === LF ? 0 : 1));
const HEADER_WORDS = ["Key", "---"];

export const VAULT_KV_DATA_RULE: MatcherRule = withNotBefore(
  {
    kind: "matcher",
    name: "vault-kv-data",
    anchors: ["= Data =", "refresh_interval"],
    maxLength: 64,
    start(match): Candidate | undefined {
      const v1 = match.anchor === "refresh_interval";
      if (match.before !== (v1 ? LF : 0x3d)) return undefined;
      return new VaultDataCandidate(match.length, v1);
    },
  },
  NOT_BEFORE,
);

/** Where the candidate is in a line: its start, the key, the blanks after it, the value. */
const Part = {
  Heading: 0,
  LineStart: 1,
  Key: 2,
  Blanks: 3,
  Value: 4,
  Rest: 5,
  Padding: 6,
} as const;
type Part = (typeof Part)[keyof typeof Part];

class VaultDataCandidate implements Candidate {
  from = Number.MAX_SAFE_INTEGER;
  private here: number;
  private part: Part = Part.Heading;
  /** Lines read after the heading (the two column lines, then rows). */
  private line = 0;
  private count = 0;
  private readonly lineBreak = new LineBreak();

  constructor(anchor: number, afterRefresh: boolean) {
    this.here = anchor - 1;
    // After `refresh_interval`: its column's padding, the rest of its row, then the rows.
    if (afterRefresh) {
      this.part = Part.Padding;
      this.line = HEADER_WORDS.length;
    }
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    // A backslash, a `\r` or a CR is held: it may begin a line break (a value's own is
    // redacted with the byte after it).
    const read = this.lineBreak.read(byte);
    if (read === Break.Whole) return this.lineEnd();
    if (read === Break.Held) return Verdict.Hold;
    if (read === Break.Escape && this.part !== Part.Value) return Verdict.Reject;
    return this.lineByte(byte, here);
  }

  private lineByte(byte: number, here: number): Verdict {
    switch (this.part) {
      case Part.Heading:
        return byte === 0x3d ? Verdict.Hold : Verdict.Reject;
      case Part.LineStart:
        // The column lines (`Key  Value`, `---  -----`), then the rows; a heading ends the table.
        if (this.line <= HEADER_WORDS.length) {
          if (byte !== HEADER_WORDS[this.line - 1]!.charCodeAt(0)) return Verdict.Reject;
          this.part = Part.Rest;
          return Verdict.Hold;
        }
        if (KEY[byte] !== 1 || byte === 0x3d) return Verdict.Reject;
        this.part = Part.Key;
        this.count = 1;
        return Verdict.Hold;
      case Part.Key:
        if (byte === SPACE) {
          this.part = Part.Blanks;
          this.count = 1;
          return Verdict.Hold;
        }
        return KEY[byte] === 1 && ++this.count <= MAX_KEY ? Verdict.Hold : Verdict.Reject;
      case Part.Padding:
        if (byte === SPACE) return ++this.count <= MAX_BLANKS ? Verdict.Hold : Verdict.Reject;
        if (this.count < MIN_PADDING || CONTROL[byte] === 1) return Verdict.Reject;
        this.part = Part.Rest;
        return Verdict.Hold;
      case Part.Blanks:
        if (byte === SPACE) return ++this.count <= MAX_BLANKS ? Verdict.Hold : Verdict.Reject;
        // A column's padding (a `key: value` line, one blank, is no row).
        if (this.count < MIN_PADDING || CONTROL[byte] === 1) return Verdict.Reject;
        this.part = Part.Value;
        this.from = here;
        return Verdict.Redact;
      case Part.Value:
        return CONTROL[byte] === 1 ? Verdict.Reject : Verdict.Redact;
      default:
        return CONTROL[byte] === 1 ? Verdict.Reject : Verdict.Hold;
    }
  }

  /**
   * A line ends (its break, raw or escaped): the next starts, and a value ended before the
   * break, which stays. An empty line, or a key alone, ends the table.
   */
  private lineEnd(): Verdict {
    if (this.part === Part.LineStart || this.part === Part.Key) return Verdict.Reject;
    this.part = Part.LineStart;
    this.line++;
    this.from = Number.MAX_SAFE_INTEGER;
    return Verdict.Hold;
  }

  end(): Verdict {
    return Verdict.Reject;
  }
}

keepShape(new VaultDataCandidate(8, false));
