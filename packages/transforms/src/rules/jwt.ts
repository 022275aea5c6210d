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

  next(byte: number): Verdict {
    const b64 = BASE64URL[byte] === 1;
    if (this.redacting) return b64 || byte === DOT ? Verdict.Redact : Verdict.Reject;
    if (this.payload < 0) {
      if (b64) return ++this.header > MAX_HEADER ? Verdict.Reject : Verdict.Hold;
      if (byte === DOT && this.header >= 4) {
        this.payload = 0;
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
      for (; i < end; i++) {
        const byte = input[i]!;
        if (BASE64URL[byte] !== 1 && byte !== DOT) break;
      }
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
    return this.redacting ? 0 : undefined;
  }

  end(): Verdict {
    return Verdict.Reject;
  }
}

keepShape(new JwtCandidate());
