/**
 * A Terraform (HCL) input variable named for a secret, with its default written in the
 * block (`variable "db_password" { … default = "…" … }`, as Terraform's documentation
 * declares one): the default is the secret, a few lines below its name, after other
 * arguments (`description`, `type`, `sensitive`). The anchor is `variable "`; the label must
 * name a secret (PASSWORD, PASSWD, SECRET, TOKEN, API_KEY, APIKEY, PRIVATE_KEY, ACCESS_KEY,
 * CREDENTIAL), and the rule reads the block's top level (nested blocks skipped, at most
 * {@link MAX_BLOCK} bytes) for `default = "…"`, a string of 1+ bytes on one line that is no
 * interpolation (`"${var.x}"`). Inside a JSON string the block's quotes and line breaks are
 * escaped (`\"`, `\n`): read the same.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText('variable "db_password" {\n  type    = string\n  default = "Zq8vLm2R!x"\n}');
 * // 'variable "db_password" {\n  type    = string\n  default = "[REDACTED:secret-assignment]"\n}'
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { BLANK, byteSet, MAX_BACKSLASHES } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";

/** Most bytes from the label to the default's closing quote. */
const MAX_BLOCK = 1024;
const MAX_LABEL = 64;
/** Most nesting of `{` in the block. */
const MAX_DEPTH = 4;
const MAX_VALUE = 256;
/** A label names a secret when it holds one of these (lowercase, `_` and `-` dropped). */
const SECRET_LABEL = /password|passwd|secret|token|apikey|privatekey|accesskey|credential/;
const LABEL = byteSet("A-Za-z0-9_-");
const BACKSLASH = 0x5c;
const QUOTE = 0x22;

const Part = {
  Label: 0,
  /** After the label's quote: blanks, then the block's `{`. */
  Open: 1,
  /** The block's body: a line's first word is read at the top level. */
  Body: 2,
  /** `default` was a line's first word: blanks and `=`, then the value's quote. */
  Equals: 3,
  Value: 4,
} as const;
type Part = (typeof Part)[keyof typeof Part];

/** The label, then the block up to its `default`'s string. */
class TerraformVariableCandidate implements Candidate {
  from: number;
  to: number | undefined = undefined;
  private here: number;
  private part: Part = Part.Label;
  private label = "";
  /** Nesting of `{` in the body (1 at the block's top level). */
  private depth = 0;
  /** The current line's first word, while it is read at the block's top level. */
  private word = "";
  /** The line's first word is done. */
  private wordDone = false;
  /** Inside a string of the body (skipped). */
  private inString = false;
  /** Backslashes just read, and the offset of the first: an escape of the next byte. */
  private backslashes = 0;
  private escapeAt = -1;
  private equals = false;
  private value = 0;
  /** The value's first byte (`$`: an interpolation). */
  private first = -1;

  constructor(anchorLength: number) {
    this.from = anchorLength;
    this.here = anchorLength - 1;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    if (here > MAX_BLOCK) return Verdict.Reject;
    if (this.part !== Part.Value) this.from = here + 1;
    if (byte === BACKSLASH) {
      if (this.backslashes++ === 0) this.escapeAt = here;
      return this.backslashes > MAX_BACKSLASHES ? Verdict.Reject : Verdict.Hold;
    }
    if (this.backslashes === 0) return this.plain(byte, here);
    // A run of backslashes escapes the next byte (the JSON string the block is written in,
    // and one inside that): `\"` is a quote, `\n` a line break.
    this.backslashes = 0;
    if (byte === QUOTE) return this.quote(this.escapeAt);
    if (byte === 0x6e || byte === 0x72) return this.plain(0x0a, here);
    if (byte === 0x74) return this.plain(0x20, here);
    return this.part === Part.Value ? this.valueByte(byte) : Verdict.Hold;
  }

  /** A quote, at `at` (its first backslash's offset when escaped). */
  private quote(at: number): Verdict {
    switch (this.part) {
      case Part.Label:
        if (this.label === "") return Verdict.Reject;
        this.part = Part.Open;
        return SECRET_LABEL.test(this.label.toLowerCase().replace(/[_-]/g, ""))
          ? Verdict.Hold
          : Verdict.Reject;
      case Part.Equals:
        if (!this.equals) return Verdict.Reject;
        this.part = Part.Value;
        this.from = this.here + 1;
        return Verdict.Hold;
      case Part.Value:
        if (this.value === 0 || this.first === 0x24) return Verdict.Reject;
        this.to = at;
        return Verdict.Close;
      case Part.Body:
        this.inString = !this.inString;
        return Verdict.Hold;
      default:
        return Verdict.Reject;
    }
  }

  private plain(byte: number, here: number): Verdict {
    if (byte === QUOTE) return this.quote(here);
    switch (this.part) {
      case Part.Label:
        if (LABEL[byte] !== 1 || this.label.length >= MAX_LABEL) return Verdict.Reject;
        this.label += String.fromCharCode(byte);
        return Verdict.Hold;
      case Part.Open:
        if (byte !== 0x7b) return BLANK[byte] === 1 ? Verdict.Hold : Verdict.Reject;
        this.part = Part.Body;
        this.depth = 1;
        return Verdict.Hold;
      case Part.Body:
        return this.bodyByte(byte);
      case Part.Equals:
        if (byte !== 0x3d || this.equals) return BLANK[byte] === 1 ? Verdict.Hold : Verdict.Reject;
        this.equals = true;
        return Verdict.Hold;
      default:
        return byte === 0x0a ? Verdict.Reject : this.valueByte(byte);
    }
  }

  private valueByte(byte: number): Verdict {
    if (this.value === 0) this.first = byte;
    return ++this.value > MAX_VALUE ? Verdict.Reject : Verdict.Hold;
  }

  /** A byte of the block's body outside strings: lines, their first words, nesting. */
  private bodyByte(byte: number): Verdict {
    if (this.inString) return Verdict.Hold;
    if (byte === 0x7b) {
      // Nested blocks are few and shallow (`validation { … }`, `object({ … })`): text that
      // opens more is no variable's block, and a candidate holds no more of it.
      if (++this.depth > MAX_DEPTH) return Verdict.Reject;
    } else if (byte === 0x7d && --this.depth === 0) return Verdict.Reject;
    if (byte === 0x0a) {
      this.word = "";
      this.wordDone = false;
      return Verdict.Hold;
    }
    if (this.depth !== 1 || this.wordDone) return Verdict.Hold;
    if (LABEL[byte] === 1) {
      if (this.word.length < 8) this.word += String.fromCharCode(byte);
      return Verdict.Hold;
    }
    if (this.word === "") return Verdict.Hold; // indentation
    this.wordDone = true;
    if (this.word !== "default") return Verdict.Hold;
    this.part = Part.Equals;
    return this.plain(byte, this.here);
  }

  end(): Verdict {
    return Verdict.Reject;
  }
}

/**
 * Terraform input variables named for a secret, their `default` string (see the file's
 * comment).
 *
 * @category redaction
 */
export const TERRAFORM_VARIABLE_RULE: MatcherRule = {
  kind: "matcher",
  name: "secret-assignment",
  // As written, and inside a JSON string and a JSON string inside one (`variable \\"…`).
  anchors: ['variable "', 'variable \\"', 'variable \\\\\\"'],
  maxLength: MAX_BLOCK + 8,
  start: (match): Candidate => new TerraformVariableCandidate(match.length),
};

keepShape(new TerraformVariableCandidate(10));
