/**
 * Keyword assignments percent-encoded as a whole: a query string inside a URL parameter
 * (`?next=%2Fcb%3Fpassword%3Dhunter2%26user%3Dbob`, a redirect or a logged form body), or a
 * JSON member (`%22password%22%3A%22hunter2%22`). The name and its `%3D` (or `%22%3A%22`) are
 * the anchor; the value is redacted up to what ends it in the text encoded once more: a raw
 * `&`, `+`, quote, `<`, `>`, `;`, `,`, `|`, backslash, closing bracket or whitespace, or an
 * escape of `&`, `+`, a quote, `<`, `>`, `;`, `#` or whitespace (`%26`, `%20`, `%22`…). A raw
 * byte outside ASCII says it is not encoded text at all. The value's own escapes stay in it: an
 * `&` of the password itself was escaped twice (`%2526`). Placeholders (`$…`, `{…`, `<…`,
 * raw or escaped) and values under 4 bytes stay.
 *
 * A JSON member whose quotes are written as an HTML entity (`&quot;password&quot;:&quot;…`,
 * JSON in an HTML attribute) or a `\u0022` escape (.NET's System.Text.Json escapes a quote
 * inside a string so; a logged request body) is read the same way
 * ({@link ESCAPED_QUOTE_ASSIGNMENT_RULE}): the value runs to the `&` or backslash that
 * starts its closing quote.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("GET /login?next=%2Fapp%3Fpassword%3Dhunter2x%26lang%3Den HTTP/1.1");
 * // "GET /login?next=%2Fapp%3Fpassword%3D[REDACTED:secret-assignment]%26lang%3Den HTTP/1.1"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { ALPHA, byteSet, HEX_VALUE } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";
import { keywordSpellings } from "./keyword-spellings.js";

/** Most bytes of an encoded value. */
const MAX_VALUE = 1024;
/** Shortest value redacted, in bytes as written. */
const MIN_VALUE = 4;
/**
 * Raw bytes that end the value: what an encoder escapes, and code's brackets around a
 * string (`(token%3Dx)`).
 */
const RAW_END = byteSet(" \t\r\n\v\f&+\"'<>`;,)]}|\\");
/** Bytes whose escape ends the value (the text encoded once less has them raw). */
const ENDS_ESCAPED = byteSet(" \t\r\n&+;#\"'<>");
/** First bytes of a placeholder, a mask or a marker between escaped quotes (`%s`, `***`, `[REDACTED…]`). */
const QUOTED_PLACEHOLDER = byteSet("${<[*%");
/** Escaped first bytes of a placeholder: `$`, `{`, `<`. */
const PLACEHOLDER = byteSet("${<");

const KEYWORDS: readonly (readonly string[])[] = [
  ["password"],
  ["passwd"],
  ["secret"],
  ["token"],
  ["api", "key"],
  ["access", "key"],
  ["private", "key"],
];

/**
 * What stands between the name and its value, encoded: `=`, and a JSON member's `":"`
 * (`%7B%22password%22%3A%22…%22%7D`, a JSON body in a query parameter), either hex case.
 */
const SEPARATORS = ["%3D", "%3d", "%22%3A%22", "%22%3a%22", "%22%3A%20%22", "%22%3a%20%22"];

/** The keywords, each spelling followed by each of `separators`. */
const anchorsWith = (separators: readonly string[]): string[] =>
  KEYWORDS.flatMap((words) =>
    keywordSpellings([...words])
      .filter((spelling) => !spelling.includes(" "))
      .flatMap((spelling) => separators.map((separator) => spelling + separator)),
  );

export const ENCODED_ASSIGNMENT_RULE: MatcherRule = {
  kind: "matcher",
  name: "secret-assignment",
  anchors: anchorsWith(SEPARATORS),
  maxLength: MAX_VALUE + 3,
  start: (match) => new EncodedValueCandidate(match.length),
};

/** A JSON member's `":"` with its quotes as an HTML entity or a `\u0022` escape. */
const ESCAPED_QUOTE_SEPARATORS = [
  "&quot;:&quot;",
  "&quot;: &quot;",
  "&#34;:&#34;",
  "\\u0022:\\u0022",
  "\\u0022: \\u0022",
];
/** Bytes that rule such a value out: a raw quote, markup, a blank. */
const ESCAPED_QUOTE_END = byteSet(" \t\r\n\v\f\"'<>");
/** What follows the `&` of a closing quote written as an entity, and the backslash of `\u0022`. */
const ENTITY_QUOTES = ["quot;", "#34;"];
const ESCAPE_QUOTES = ["u0022"];

export const ESCAPED_QUOTE_ASSIGNMENT_RULE: MatcherRule = {
  kind: "matcher",
  name: "secret-assignment",
  anchors: anchorsWith(ESCAPED_QUOTE_SEPARATORS),
  // The value, and its closing quote's `&` and the bytes read after it.
  maxLength: MAX_VALUE + 6,
  start: (match) => new EscapedQuoteValueCandidate(match.length),
};

/** One encoded value, from the byte after its `%3D`. */
class EncodedValueCandidate implements Candidate {
  readonly from: number;
  here: number;
  /** Value bytes read (as written). */
  length = 0;
  /** Inside an escape: 0 after its `%`, 1 after its first digit; -1 outside one. */
  escape = -1;
  high = 0;
  escapeAt = 0;
  to: number | undefined = undefined;

  constructor(anchorLength: number) {
    this.from = anchorLength;
    this.here = anchorLength - 1;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    if (this.escape >= 0) return this.escapeByte(byte);
    if (byte === 0x25) {
      this.escape = 0;
      this.escapeAt = here;
      return Verdict.Hold;
    }
    if (RAW_END[byte] === 1) return this.ended(here);
    // Raw text outside ASCII (`token%3Dghp_…` in prose) is not an encoded value.
    if (byte >= 0x80) return Verdict.Reject;
    if (this.length === 0 && PLACEHOLDER[byte] === 1) return Verdict.Reject;
    return ++this.length > MAX_VALUE ? Verdict.Reject : Verdict.Hold;
  }

  private escapeByte(byte: number): Verdict {
    const digit = HEX_VALUE[byte]!;
    if (digit < 0) {
      // Not an escape: the `%` and this byte are the value's (or this byte ends it).
      this.escape = -1;
      this.length++;
      if (RAW_END[byte] === 1) return this.ended(this.here);
      this.length++;
      return Verdict.Hold;
    }
    if (this.escape === 0) {
      this.escape = 1;
      this.high = digit;
      return Verdict.Hold;
    }
    this.escape = -1;
    const decoded = this.high * 16 + digit;
    if (ENDS_ESCAPED[decoded] === 1) return this.ended(this.escapeAt);
    if (this.length === 0 && PLACEHOLDER[decoded] === 1) return Verdict.Reject;
    this.length += 3;
    return this.length > MAX_VALUE ? Verdict.Reject : Verdict.Hold;
  }

  /** The value ended before offset `at`. */
  private ended(at: number): Verdict {
    if (this.length < MIN_VALUE) return Verdict.Reject;
    this.to = at;
    return Verdict.Close;
  }

  end(): Verdict {
    // An escape cut off by the end is not the value's.
    return this.ended(this.escape >= 0 ? this.escapeAt : this.here + 1);
  }
}

keepShape(new EncodedValueCandidate(11));

/**
 * One value between escaped quotes, from the byte after its opening quote, to its closing
 * quote (`&quot;`, `&#34;`, `\u0022`; another escape or entity, `\u002B` or `&amp;`, is the
 * value's own): redacted when it has a letter and a digit or a sign, as a token or a
 * password has (a word there is a label or a setting: `&quot;password&quot;:&quot;Password&quot;`
 * in a page's translations).
 */
class EscapedQuoteValueCandidate implements Candidate {
  readonly from: number;
  to: number | undefined = undefined;
  private here: number;
  private length = 0;
  private letter = false;
  private other = false;
  /** Where a `&` or backslash that may start the closing quote stands, or -1. */
  private closeAt = -1;
  /** The bytes read after it. */
  private closing = "";
  private closers: readonly string[] = [];

  constructor(anchorLength: number) {
    this.from = anchorLength;
    this.here = anchorLength - 1;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    if (this.closeAt >= 0) {
      this.closing += String.fromCharCode(byte);
      if (this.closers.includes(this.closing)) return this.closed();
      if (this.closers.some((closer) => closer.startsWith(this.closing))) return Verdict.Hold;
      // The value's own escape or entity: its bytes before this one are the value's.
      this.length += this.closing.length;
      this.other = true;
      this.closeAt = -1;
    }
    if (byte === 0x26 || byte === 0x5c) {
      this.closeAt = here;
      this.closing = "";
      this.closers = byte === 0x26 ? ENTITY_QUOTES : ESCAPE_QUOTES;
      return Verdict.Hold;
    }
    if (ESCAPED_QUOTE_END[byte] === 1) return Verdict.Reject;
    if (this.length === 0 && QUOTED_PLACEHOLDER[byte] === 1) return Verdict.Reject;
    if (ALPHA[byte] === 1) this.letter = true;
    else this.other = true;
    return ++this.length > MAX_VALUE ? Verdict.Reject : Verdict.Hold;
  }

  /** The closing quote was read (or the input ended): the value before it, if it looks like a secret. */
  private closed(): Verdict {
    if (this.length < MIN_VALUE || !this.letter || !this.other) return Verdict.Reject;
    this.to = this.closeAt;
    return Verdict.Close;
  }

  end(): Verdict {
    // Cut by the end of the output: up to a closing quote begun there, else all of it.
    if (this.closeAt < 0) this.closeAt = this.here + 1;
    return this.closed();
  }
}

keepShape(new EscapedQuoteValueCandidate(14));
