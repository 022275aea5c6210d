/**
 * Cookies as HTTP dumps, `curl -v` and HAR-like JSON show them: a session cookie is a
 * bearer credential, whatever its name (`sessionid`, `PHPSESSID`, `connect.sid`). In a
 * `Cookie:` header every cookie's value is redacted, in `Set-Cookie:` the cookie's (its
 * attributes, `Path=/; HttpOnly`, stay); names and separators stay either way. A value
 * counts when it is long enough to be a credential (16 bytes, or 8 with a letter and a
 * digit): `theme=dark` and `lang=en-US` stay.
 *
 * Read as a header (`Cookie: a=b; c=d`), a JSON or YAML key (`"Cookie": "a=b"`), curl's
 * `--cookie "a=b"`, and inside a JSON string (`\"Cookie\": \"…\"`, after `\n`). A value ends at `;`, a blank, a
 * quote, a backslash or a line end; from its 16th byte on it is redacted as it is read, so
 * a value of any length ends where it ends.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("> Cookie: theme=dark; sessionid=8f2k3j4h5g6f7d8s9a0q1w2e3r4t5y6u\n");
 * // "> Cookie: theme=dark; sessionid=[REDACTED:cookie]\n"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { ALPHA, BLANK, byteSet, DIGIT, withControls } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";
import { keywordSpellings } from "./keyword-spellings.js";
import { GAP_END, GAP_OPEN, GAP_REST, ListGap } from "./list-gap.js";

/** A value this long is a credential, whatever it holds. */
const LONG_VALUE = 16;
/** Most bytes of a cookie's name, and of blanks and quotes before the value. */
const MAX_NAME = 64;
/** A cookie name's bytes (RFC 6265's token: no separators, no blanks). */
const COOKIE_NAME = byteSet("A-Za-z0-9!#$%&'*+.^_`|~-");
/** Bytes that end a value: `;`, `,`, blanks, quotes, a backslash, line ends. */
const VALUE_END = withControls(byteSet(" \t\r\n\v\f;,\"'\\"));
/** Bytes that may stand before a value's first cookie: its quote, or a backslash escaping it. */
const QUOTE_OR_ESCAPE = byteSet("\"'\\");
/** Bytes before the keyword where a header or key starts (the `-` of `Set-Cookie`). */
const BEFORE = byteSet(" \t\r\n<>\"'{,-");

const Phase = {
  /** After the keyword: its closing quote, blanks, then `:` or `=`. */
  AfterName: 0,
  /** Blanks and the value's opening quote. */
  ValueStart: 1,
  /** A cookie's name. */
  Name: 2,
  /** A cookie's value. */
  Value: 3,
  /** After a value's `;`: blanks, then the next cookie (a `Cookie:` header only). */
  Next: 4,
  /** Between a list's elements (`ListGap`), a `Set-Cookie` value's attributes first. */
  Between: 5,
} as const;

export const COOKIE_HEADER_RULE: MatcherRule = {
  kind: "matcher",
  name: "cookie",
  anchors: keywordSpellings(["cookie"]),
  // A value's first bytes, before it is long enough to be one (names are not held).
  maxLength: LONG_VALUE + MAX_NAME + 2,
  start(match): Candidate | undefined {
    if (match.before >= 0 && BEFORE[match.before] !== 1) return undefined;
    return new CookieCandidate(match.length, match.before === 0x2d);
  },
};

/** One `Cookie` or `Set-Cookie` value, read a cookie at a time. */
class CookieCandidate implements Candidate {
  phase: number = Phase.AfterName;
  /** Offset (from the anchor) of the byte read last. */
  here: number;
  claim: number;
  /** Where the value just redacted ends (set with the verdict that redacts it). */
  to: number | undefined = undefined;
  keyQuoted = false;
  /** The key's quote came escaped (`\"Set-Cookie\":` inside a string). */
  escapedKey = false;
  count = 0;
  /** The value's start (offset), its letters and digits seen. */
  valueAt = 0;
  letter = false;
  digit = false;
  /**
   * The value is a list (Go's `http.Header` as JSON: `"Cookie": ["…", "…"]`, a recorded
   * response's YAML: `Set-Cookie:\n  - …\n  - …`), every element read: the bytes between them.
   */
  gap: ListGap | null = null;
  /** A backslash was read before the value: the next byte is its escape's letter. */
  escape = false;

  constructor(
    anchorLength: number,
    /** After a `-`: `Set-Cookie` (one cookie, then its attributes, kept) or curl's `--cookie`. */
    private set: boolean,
  ) {
    this.here = anchorLength - 1;
    this.claim = anchorLength;
  }

  get from(): number {
    return this.claim;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    // A value redacted with the verdict before (up to `to`) is done.
    this.to = undefined;
    switch (this.phase) {
      case Phase.AfterName:
        this.claim = here + 1;
        if ((byte === 0x22 || byte === 0x27 || byte === 0x5c) && !this.keyQuoted) {
          // `"Cookie":`, `\"Cookie\":` inside a string (the backslash, then its quote).
          if (byte !== 0x5c) this.keyQuoted = true;
          else this.escapedKey = true;
          return ++this.count > MAX_NAME ? Verdict.Reject : Verdict.Hold;
        }
        if (BLANK[byte] === 1) {
          if (this.set && this.count === 0) {
            // curl's `--cookie "a=b; c=d"`: every cookie, after one blank.
            this.set = false;
            this.phase = Phase.ValueStart;
            return Verdict.Hold;
          }
          return ++this.count > MAX_NAME ? Verdict.Reject : Verdict.Hold;
        }
        if (byte !== 0x3a && byte !== 0x3d) return Verdict.Reject;
        this.phase = Phase.ValueStart;
        this.count = 0;
        return Verdict.Hold;
      case Phase.ValueStart:
      case Phase.Next:
        this.claim = here + 1;
        if (this.phase === Phase.ValueStart && this.gap === null) {
          const list = this.listStart(byte);
          if (list !== undefined) return list;
        }
        if (BLANK[byte] === 1 || (this.phase === Phase.ValueStart && QUOTE_OR_ESCAPE[byte] === 1))
          return ++this.count > MAX_NAME ? Verdict.Reject : Verdict.Hold;
        if (COOKIE_NAME[byte] !== 1 || byte === 0x27) return Verdict.Reject;
        this.phase = Phase.Name;
        this.count = 1;
        return Verdict.Hold;
      case Phase.Name:
        this.claim = here + 1;
        if (byte === 0x3d) {
          this.phase = Phase.Value;
          this.valueAt = here + 1;
          this.letter = false;
          this.digit = false;
          return Verdict.Hold;
        }
        if (COOKIE_NAME[byte] !== 1 || byte === 0x27) return Verdict.Reject;
        return ++this.count > MAX_NAME ? Verdict.Reject : Verdict.Hold;
      case Phase.Between: {
        this.claim = here + 1;
        const read = this.gap!.read(byte);
        if (read === GAP_OPEN) {
          this.phase = Phase.ValueStart;
          this.count = 0;
        }
        return read === GAP_END ? Verdict.Reject : Verdict.Hold;
      }
      default:
        // A quoted value (RFC 6265's `sid="…"`, `sid=\"…\"` inside a string): its quotes stay.
        if ((byte === 0x22 || byte === 0x5c) && here === this.valueAt) {
          this.valueAt = here + 1;
          return Verdict.Hold;
        }
        if (VALUE_END[byte] !== 1) {
          if (ALPHA[byte] === 1) this.letter = true;
          else if (DIGIT[byte] === 1) this.digit = true;
          // Long enough to be a credential whatever follows: redacted as it is read, so a
          // value longer than the hold is not failed closed over what comes after it.
          if (here + 1 - this.valueAt < LONG_VALUE) return Verdict.Hold;
          this.claim = this.valueAt;
          return Verdict.Redact;
        }
        return this.valueEnd(byte, here);
    }
  }

  /**
   * The value ended at `here` (`byte` is not its own): redact it if credible, read on after
   * `;`, and in a list after its element's end.
   */
  private valueEnd(byte: number, here: number): Verdict {
    let more = byte === 0x3b && !this.set;
    if (more) {
      this.phase = Phase.Next;
      this.count = 0;
    } else if (this.gap !== null) more = this.elementEnd(this.gap, byte);
    if (!this.credible(here)) {
      if (!more) return Verdict.Reject;
      this.claim = here + 1;
      return Verdict.Hold;
    }
    this.claim = this.valueAt;
    this.to = here;
    if (!more) return Verdict.Close;
    return Verdict.Redact;
  }

  /**
   * A list's element's cookie value ended at `byte`: a `Set-Cookie` value's attributes, or
   * the element's end, follow. False when the list's shape does not go on.
   */
  private elementEnd(gap: ListGap, byte: number): boolean {
    // A `Set-Cookie` value's attributes (kept); the backslash of the element's closing quote
    // inside a string (the quote is the gap's first byte).
    if (byte === 0x3b || byte === 0x5c) {
      gap.reset(byte === 0x3b ? GAP_REST : 0, false);
      if (byte === 0x5c) gap.read(byte);
    } else if (!gap.ended(byte, false)) return false;
    this.phase = Phase.Between;
    return true;
  }

  /**
   * Before the value: a JSON list's `[` after a quoted key (its first element's quote
   * follows, after line breaks when pretty-printed), or the name's line end (also escaped,
   * inside a string) before a YAML list's items. `undefined` for any other byte.
   */
  private listStart(byte: number): Verdict | undefined {
    const escaped = this.escape;
    this.escape = byte === 0x5c;
    const lineFeed = escaped ? byte === 0x6e : byte === 0x0a;
    const yaml = lineFeed || (escaped ? byte === 0x72 : byte === 0x0d);
    if (!yaml && !(byte === 0x5b && this.keyQuoted)) return undefined;
    this.gap = new ListGap(yaml, 0, this.escapedKey);
    this.gap.reset(lineFeed || !yaml ? 1 : 0, false);
    this.phase = Phase.Between;
    return Verdict.Hold;
  }

  private credible(end: number): boolean {
    const length = end - this.valueAt;
    return length >= LONG_VALUE || (length >= 8 && this.letter && this.digit);
  }

  end(): Verdict {
    if (this.phase !== Phase.Value || !this.credible(this.here + 1)) return Verdict.Reject;
    this.claim = this.valueAt;
    return Verdict.Close;
  }
}

keepShape(new CookieCandidate(6, false));
