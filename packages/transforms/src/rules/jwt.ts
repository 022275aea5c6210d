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
    let header = 0;
    let payload = -1; // -1 while in the header
    let redacting = false;
    return {
      from: 0,
      next(byte) {
        const b64 = BASE64URL[byte] === 1;
        if (redacting) return b64 || byte === DOT ? Verdict.Redact : Verdict.Reject;
        if (payload < 0) {
          if (b64) return ++header > MAX_HEADER ? Verdict.Reject : Verdict.Hold;
          if (byte === DOT && header >= 4) {
            payload = 0;
            return Verdict.Hold;
          }
          return Verdict.Reject;
        }
        if (!b64) return Verdict.Reject;
        if (++payload < MIN_PAYLOAD) return Verdict.Hold;
        redacting = true;
        return Verdict.Redact;
      },
      skip(input, start, end) {
        let i = start;
        if (redacting) {
          for (; i < end; i++) {
            const byte = input[i]!;
            if (BASE64URL[byte] !== 1 && byte !== DOT) break;
          }
          return i;
        }
        if (payload < 0) {
          const stop = Math.min(end, i + (MAX_HEADER - header));
          while (i < stop && BASE64URL[input[i]!] === 1) i++;
          header += i - start;
          return i;
        }
        const stop = Math.min(end, i + (MIN_PAYLOAD - 1 - payload));
        while (i < stop && BASE64URL[input[i]!] === 1) i++;
        payload += i - start;
        return i;
      },
      stateKey: () => (redacting ? 0 : undefined),
      end: () => Verdict.Reject,
    };
  },
};
