/**
 * JSON Web Tokens (and JWS/JWE): `eyJ` + base64url header, `.`, base64url payload, then
 * more segments. Once the payload has 8 bytes the token is redacted through the end of its
 * last segment, however long. A header still running past 4 KiB without a dot is released
 * (a long base64 JSON blob, not a token), which bounds the hold.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig"); // "Bearer [REDACTED:jwt]" (via the jwt rule)
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { BASE64URL } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";

const MAX_HEADER = 4096;
const MIN_PAYLOAD = 8;
const DOT = 0x2e;
/** Dots of the longest form, a JWE's five segments. */
const MAX_DOTS = 4;

export const JWT_RULE: MatcherRule = {
  kind: "matcher",
  name: "jwt",
  anchors: ["eyJ"],
  maxLength: 3 + MAX_HEADER + 1 + MIN_PAYLOAD + 1,
  start(match): Candidate | undefined {
    if (match.before >= 0 && (BASE64URL[match.before] === 1 || match.before === DOT))
      return undefined;
    return new JwtCandidate();
  },
};

/** One token from its `eyJ` (a class, not a literal of closures: one allocation a token). */
class JwtCandidate implements Candidate {
  readonly from = 0;
  header = 0;
  /** Payload bytes read, -1 while in the header. */
  payload = -1;
  redacting = false;
  /** Dots read (a JWS has two, a JWE four). */
  dots = 0;
  /** The last byte was a dot, held: a segment after it redacts it, anything else keeps it. */
  heldDot = false;

  next(byte: number): Verdict {
    const b64 = BASE64URL[byte] === 1;
    if (this.redacting) {
      if (byte === DOT) {
        // `… <token>. Next`: a full stop, not a segment, unless a segment follows.
        if (this.heldDot || this.dots >= MAX_DOTS) return Verdict.Reject;
        this.dots++;
        this.heldDot = true;
        return Verdict.Hold;
      }
      this.heldDot = false;
      return b64 ? Verdict.Redact : Verdict.Reject;
    }
    if (this.payload < 0) {
      if (b64) return ++this.header > MAX_HEADER ? Verdict.Reject : Verdict.Hold;
      if (byte === DOT && this.header >= 4) {
        this.payload = 0;
        this.dots = 1;
        return Verdict.Hold;
      }
      return Verdict.Reject;
    }
    if (!b64) return Verdict.Reject;
    if (++this.payload < MIN_PAYLOAD) return Verdict.Hold;
    this.redacting = true;
    return Verdict.Redact;
  }

  skip(input: Uint8Array, start: number, end: number): number {
    let i = start;
    if (this.redacting) {
      // Dots go through `next` (held until a segment follows).
      if (this.heldDot) return i;
      while (i < end && BASE64URL[input[i]!] === 1) i++;
      return i;
    }
    if (this.payload < 0) {
      const stop = Math.min(end, i + (MAX_HEADER - this.header));
      while (i < stop && BASE64URL[input[i]!] === 1) i++;
      this.header += i - start;
      return i;
    }
    const stop = Math.min(end, i + (MIN_PAYLOAD - 1 - this.payload));
    while (i < stop && BASE64URL[input[i]!] === 1) i++;
    this.payload += i - start;
    return i;
  }

  stateKey(): number | undefined {
    return this.redacting ? this.dots * 2 + (this.heldDot ? 1 : 0) : undefined;
  }

  end(): Verdict {
    return Verdict.Reject;
  }
}

keepShape(new JwtCandidate());
