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
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("GET /login?next=%2Fapp%3Fpassword%3Dhunter2x%26lang%3Den HTTP/1.1");
 * // "GET /login?next=%2Fapp%3Fpassword%3D[REDACTED:secret-assignment]%26lang%3Den HTTP/1.1"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet, HEX_VALUE } from "./byte-classes.js";
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

export const ENCODED_ASSIGNMENT_RULE: MatcherRule = {
  kind: "matcher",
  name: "secret-assignment",
  anchors: KEYWORDS.flatMap((words) =>
    keywordSpellings([...words])
      .filter((spelling) => !spelling.includes(" "))
      .flatMap((spelling) => SEPARATORS.map((separator) => spelling + separator)),
  ),
  maxLength: MAX_VALUE + 3,
  start: (match) => new EncodedValueCandidate(match.length),
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
