/**
 * The random words of an XML element named for a secret (`<secret>`, `<password>`,
 * `<apiToken>`, `<token>`, `<privateKey>`, `<passphrase>`, as Jenkins' credential stores
 * and Maven's settings name them). The assignment rule reads such an element's text as one
 * value and leaves text of several words; here each word of it (blanks, braces, quotes,
 * commas and semicolons apart) of 16+ characters that switches between letters and digits
 * 4+ times is redacted: `<secret>{vendor AQAAABAAA <token>}</secret>` keeps all but the
 * token. The text is read to its closing tag or the line's end, at most {@link MAX_TEXT}
 * bytes; the tags and the other words stay.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("<secret>{acme AQAAABAAA x7Kq2mZ9pL4vN8rT3wY6}</secret>");
 * // "<secret>{acme AQAAABAAA [REDACTED:secret-element]}</secret>"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet, ESCAPED_BLANK } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";

/** Most bytes of an element's text read. */
const MAX_TEXT = 1024;
/** Most bytes of one word held undecided (a longer random one is redacted to its end). */
const MAX_WORD = 256;
/** Fewest bytes of a word redacted. */
const MIN_WORD = 16;
/** Switches between letters and digits a redacted word makes. */
const MIN_SWITCHES = 4;
/** A word's bytes: a token's, base64's, a connection string's. */
const WORD = byteSet("A-Za-z0-9+/=_.:~-");
const DIGIT = byteSet("0-9");
const LETTER = byteSet("A-Za-z");

const ELEMENTS = ["secret", "password", "apiToken", "token", "privateKey", "passphrase"];

export const SECRET_ELEMENT_RULE: MatcherRule = {
  kind: "matcher",
  name: "secret-element",
  anchors: ELEMENTS.map((name) => `<${name}>`),
  maxLength: MAX_WORD + 1,
  start(match): Candidate {
    return new ElementTextCandidate(match.length);
  },
};

/** One element's text, a word at a time. */
class ElementTextCandidate implements Candidate {
  /** Offset (from the anchor) of the byte read last. */
  private here: number;
  /** The first byte of the word being read (held), or the next byte. */
  from: number;
  /** The end of a word just redacted (set with the verdict that redacts it). */
  to: number | undefined = undefined;
  /** Bytes of the current word, or -1 between words. */
  private length = -1;
  /** Letter–digit switches in the current word, and whether its last was a digit (-1: none yet). */
  private switches = 0;
  private lastDigit = -1;
  /** The word reached {@link MAX_WORD} and is random: redacted to its end. */
  private redacting = false;
  /** Backslashes in a row just read (a string's escape: `\n` is a line's end). */
  private slashes = 0;

  constructor(private readonly anchorLength: number) {
    this.here = anchorLength - 1;
    this.from = anchorLength;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    this.to = undefined;
    const escaped = this.slashes > 0;
    this.slashes = byte === 0x5c ? this.slashes + 1 : 0;
    // Inside a string (once or more), `\n` and `\r` end the line as a raw one does, and
    // `\t` is a blank: the escape's letter starts no word.
    if (escaped && ESCAPED_BLANK[byte] === 1) {
      const verdict = this.endWord(here);
      if (byte !== 0x74) return verdict === Verdict.Redact ? Verdict.Close : Verdict.Reject;
      return verdict;
    }
    if (WORD[byte] === 1 && here - this.anchorLength < MAX_TEXT) return this.wordByte(byte, here);
    const verdict = this.endWord(here);
    // The closing tag (or any tag), a line's end or the most text read: done.
    if (byte === 0x3c || byte === 0x0a || byte === 0x0d || here - this.anchorLength >= MAX_TEXT)
      return verdict === Verdict.Redact ? Verdict.Close : Verdict.Reject;
    return verdict;
  }

  end(): Verdict {
    const verdict = this.endWord(this.here + 1);
    return verdict === Verdict.Redact ? Verdict.Close : Verdict.Reject;
  }

  private wordByte(byte: number, here: number): Verdict {
    if (this.length < 0) {
      this.length = 0;
      this.switches = 0;
      this.lastDigit = -1;
      this.from = here;
    }
    this.length++;
    if (DIGIT[byte] === 1 || LETTER[byte] === 1) {
      const digit = DIGIT[byte]!;
      if (this.lastDigit >= 0 && digit !== this.lastDigit) this.switches++;
      this.lastDigit = digit;
    }
    if (this.redacting) return Verdict.Redact;
    if (this.length < MAX_WORD) return Verdict.Hold;
    // A word this long is held no longer: a random one is redacted to its end.
    if (this.switches < MIN_SWITCHES) {
      this.length = -1;
      this.from = here + 1;
      return Verdict.Hold;
    }
    this.redacting = true;
    return Verdict.Redact;
  }

  /**
   * The word (if any) ended before `here`: redacted (`Redact` up to `to`) when it is long
   * and random, else released (`Hold` from the next byte).
   */
  private endWord(here: number): Verdict {
    const secret =
      this.length >= 0 &&
      (this.redacting || (this.length >= MIN_WORD && this.switches >= MIN_SWITCHES));
    this.length = -1;
    this.redacting = false;
    if (secret) {
      this.to = here;
      return Verdict.Redact;
    }
    this.from = here + 1;
    return Verdict.Hold;
  }
}

keepShape(new ElementTextCandidate(8));
