/**
 * A SASL `PLAIN` initial response sent inline (RFC 4616): base64 of `authzid NUL user NUL
 * password`, after SMTP's `AUTH PLAIN` (RFC 4954) or IMAP's `AUTHENTICATE PLAIN` (with
 * SASL-IR, RFC 4959), as a client's debug output prints it (Python's `smtplib` with
 * `set_debuglevel(1)`, swaks, `curl -v smtp://…`). The base64 after one blank is redacted
 * and the command kept; it must be whole base64 (a multiple of four characters, at most
 * two `=` at its end) of 12 to 512 characters holding a capital or a digit, so a server's
 * list of mechanisms (`250-AUTH PLAIN LOGIN`) and prose (`AUTH PLAIN mechanism`) stay.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("send: 'AUTH PLAIN AGJvYgBodW50ZXIy\\r\\n'"); // "send: 'AUTH PLAIN [REDACTED:sasl-plain]\\r\\n'"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";
import { withNotBefore } from "./not-before.js";

const MIN_LENGTH = 12;
const MAX_LENGTH = 512;
const PAD = 0x3d;
const BASE64 = byteSet("A-Za-z0-9+/");
/** A byte that makes the run more than a word: a capital or a digit. */
const SIGNAL = byteSet("A-Z0-9");
const ANCHORS = ["AUTH PLAIN", "AUTHENTICATE PLAIN"];
/** Bytes before an anchor that make it part of a longer word (`X-AUTH PLAIN`). */
const NOT_BEFORE = byteSet("A-Za-z0-9_-");

export const SASL_PLAIN_RULE: MatcherRule = withNotBefore(
  {
    kind: "matcher",
    name: "sasl-plain",
    anchors: ANCHORS,
    maxLength: MAX_LENGTH + 4,
    start(match): Candidate | undefined {
      if (match.before >= 0 && NOT_BEFORE[match.before] === 1) return undefined;
      return new SaslPlainCandidate(match.length);
    },
  },
  NOT_BEFORE,
);

/** The response after one anchor (a class: one allocation a candidate). */
class SaslPlainCandidate implements Candidate {
  /** The response starts after the anchor and its blank. */
  readonly from: number;
  /** -1 before the blank is read, then the response's characters read (padding included). */
  count = -1;
  padding = 0;
  signal = false;

  constructor(anchorLength: number) {
    this.from = anchorLength + 1;
  }

  next(byte: number): Verdict {
    if (this.count < 0) {
      if (byte !== 0x20) return Verdict.Reject;
      this.count = 0;
      return Verdict.Hold;
    }
    if (byte === PAD && this.count > 0 && this.padding < 2) {
      this.padding++;
      return ++this.count > MAX_LENGTH ? Verdict.Reject : Verdict.Hold;
    }
    if (BASE64[byte] === 1 && this.padding === 0) {
      if (SIGNAL[byte] === 1) this.signal = true;
      return ++this.count > MAX_LENGTH ? Verdict.Reject : Verdict.Hold;
    }
    return this.end();
  }

  skip(input: Uint8Array, start: number, end: number): number {
    if (this.count < 0 || this.padding > 0) return start;
    const stop = Math.min(end, start + (MAX_LENGTH - this.count));
    let i = start;
    for (; i < stop && BASE64[input[i]!] === 1; i++)
      if (SIGNAL[input[i]!] === 1) this.signal = true;
    this.count += i - start;
    return i;
  }

  end(): Verdict {
    const whole = this.count >= MIN_LENGTH && this.count % 4 === 0;
    return whole && this.signal ? Verdict.Close : Verdict.Reject;
  }
}

keepShape(new SaslPlainCandidate(0));
