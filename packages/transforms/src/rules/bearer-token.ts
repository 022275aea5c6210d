/**
 * A bearer token without its header's name: `Bearer <token>` where the `Authorization:` was
 * left out or stands elsewhere (`curl -H "Bearer …"`, a YAML list's `- Bearer …`, a log's
 * `sending Bearer …`). The scheme stays; the token goes when it looks random: 20 to
 * {@link MAX_TOKEN} bytes of RFC 6750's token68, letters and digits switching
 * {@link SWITCHES}+ times (`Bearer tokens expire`, `Bearer authentication` and `Bearer
 * ${token}` stay). It ends at whitespace, a quote, a backslash or a delimiter, as after
 * `Authorization:` (see `authorization-header.ts`, which names a span both find).
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText('curl -H "Bearer 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b" https://api.x');
 * // 'curl -H "Bearer [REDACTED:bearer-token]" https://api.x'
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { ALNUM, byteSet, DIGIT, withControls } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";
import { withNotAfter, withNotBefore } from "./not-before.js";

const MIN_TOKEN = 20;
const MAX_TOKEN = 2048;
/** Switches between a letter and a digit a random token has (hex and base64 have many). */
const SWITCHES = 4;
/** RFC 6750's token68. */
const TOKEN68 = byteSet("A-Za-z0-9._~+/=-");
/** Bytes that end the token (none is in token68). */
const TOKEN_END = withControls(byteSet(" \t\r\n\v\f\"'`\\,;)}]<>&|"));
/** A JSON Web Token's first bytes (`eyJ`, base64 of `{"`). */
const JWT_START = [0x65, 0x79, 0x4a];

export const BEARER_TOKEN_RULE: MatcherRule = withNotAfter(
  withNotBefore(
    {
      kind: "matcher",
      name: "bearer-token",
      anchors: ["Bearer", "bearer", "BEARER"],
      maxLength: 7 + MAX_TOKEN + 1,
      start(match): Candidate | undefined {
        if (match.before >= 0 && ALNUM[match.before] === 1) return undefined;
        return new BearerCandidate(match.length + 1);
      },
    },
    ALNUM,
  ),
  // One space, then the token.
  byteSet(" ").map((b) => 1 - b),
);

/** One token after `Bearer `: held to its end, then judged. */
class BearerCandidate implements Candidate {
  /** Token bytes read. */
  length = 0;
  switches = 0;
  /** The last letter or digit was a digit (1), a letter (2), or none yet (0). */
  last = 0;

  /** The space after the scheme is read. */
  spaced = false;
  /** The token's bytes so far are `eyJ`'s first ones. */
  jwt = true;

  constructor(readonly from: number) {}

  next(byte: number): Verdict {
    if (!this.spaced) {
      this.spaced = true;
      return byte === 0x20 ? Verdict.Hold : Verdict.Reject;
    }
    if (TOKEN68[byte] === 1) {
      if (++this.length > MAX_TOKEN) return Verdict.Reject;
      // A JSON Web Token is the jwt rule's, wherever it stands: not read twice.
      if (this.jwt) {
        if (byte !== JWT_START[this.length - 1]) this.jwt = false;
        else if (this.length === 3) return Verdict.Reject;
      }
      this.note(byte);
      return Verdict.Hold;
    }
    return TOKEN_END[byte] === 1 ? this.decide() : Verdict.Reject;
  }

  skip(input: Uint8Array, start: number, end: number): number {
    // The first bytes go through `next`, which tells a JSON Web Token's `eyJ`.
    if (!this.spaced || this.length < 3) return start;
    const stop = Math.min(end, start + (MAX_TOKEN - this.length));
    let i = start;
    for (; i < stop; i++) {
      const byte = input[i]!;
      if (TOKEN68[byte] !== 1) break;
      this.note(byte);
    }
    this.length += i - start;
    return i;
  }

  private note(byte: number): void {
    if (ALNUM[byte] !== 1) return;
    const kind = DIGIT[byte] === 1 ? 1 : 2;
    if (this.last !== 0 && kind !== this.last) this.switches++;
    this.last = kind;
  }

  private decide(): Verdict {
    return this.length >= MIN_TOKEN && this.switches >= SWITCHES ? Verdict.Close : Verdict.Reject;
  }

  end(): Verdict {
    return this.decide();
  }
}

keepShape(new BearerCandidate(7));
