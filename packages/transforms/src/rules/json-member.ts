/**
 * Credentials that are the string value of a JSON member with a known key, told apart by
 * the value itself: a JSON Web Key's private members (RFC 7517, RFC 7518 §6: an RSA key's
 * `d`, `p`, `q`, `dp`, `dq`, `qi`, an elliptic-curve or OKP key's `d`), and Docker's
 * `config.json` `auth` (base64 of `user:password`). Only the value's characters are
 * redacted, and only a whole string that passes its format's test; the key and the rest of
 * the document stay. Read in JSON as written (`"d": "…"`), inside a JSON string
 * (`\"d\":\"…\"`) and inside a JSON string inside another (`\\\"d\\\":\\\"…\\\"`).
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText('{"kty":"EC","crv":"P-256","x":"f83O…","d":"Qm9v7Xk2LrT4aZ8pN1cW6yH3jE5sU0gB9dF2vK7oMiQ"}');
 * // '{"kty":"EC","crv":"P-256","x":"f83O…","d":"[REDACTED:jwk-private-key]"}'
 * redactText('{"auths":{"ghcr.io":{"auth":"Ym9iOnMzY3IzdC1wYXNz"}}}');
 * // '{"auths":{"ghcr.io":{"auth":"[REDACTED:docker-auth]"}}}'
 * ```
 */
import { type AnchorMatch, type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { ALNUM, BLANK, byteSet } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";
import { withNotBefore } from "./not-before.js";

/** Blanks between the key, the `:` and the value. */
const MAX_BLANKS = 8;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** A format: the keys it stands under and what its value must be. */
interface MemberFormat {
  readonly name: string;
  readonly keys: readonly string[];
  /** The value's alphabet (1 per byte). */
  readonly alphabet: Uint8Array;
  readonly minValue: number;
  readonly maxValue: number;
  /** The whole value (latin1) is this format's secret. */
  accept(value: string): boolean;
}

const Phase = {
  /** After the key: blanks, then the `:`. */
  Colon: 0,
  /** After the `:`: blanks, then the value's opening quote (`\` first when escaped). */
  Quote: 1,
  /** The `"` after the backslashes that open an escaped value. */
  EscapedQuote: 2,
  /** The value's characters, held until its closing quote. */
  Value: 3,
} as const;

/** A key's quotes: as written, escaped, and escaped again (a string inside a string). */
const QUOTINGS = ['"', '\\"', '\\\\\\"'];

/** A rule for `format`'s keys (as written and escaped), started only after `{`, `,` or a blank. */
function memberRule(format: MemberFormat): MatcherRule {
  return withNotBefore(
    {
      kind: "matcher",
      name: format.name,
      anchors: format.keys.flatMap((k) => QUOTINGS.map((q) => `${q}${k}${q}`)),
      maxLength: format.maxValue + 2 * MAX_BLANKS + 4,
      start(match: AnchorMatch): Candidate | undefined {
        // A key inside a longer name (`x"d"`) is no JSON key.
        if (match.before >= 0 && ALNUM[match.before] === 1) return undefined;
        return new JsonMemberCandidate(match.length, match.anchor.indexOf('"'), format);
      },
    },
    ALNUM,
  );
}

/** One member's value, from its key to the closing quote. */
class JsonMemberCandidate implements Candidate {
  phase: number = Phase.Colon;
  here: number;
  claim: number;
  blanks = 0;
  /** Backslashes of the value's opening quote read. */
  run = 0;
  /** The value's characters read so far. */
  value = "";

  constructor(
    anchorLength: number,
    /** The backslashes before the key's quotes (0, 1, 3): so are the value's quoted. */
    readonly escapes: number,
    readonly format: MemberFormat,
  ) {
    this.here = anchorLength - 1;
    this.claim = anchorLength;
  }

  get from(): number {
    return this.claim;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    switch (this.phase) {
      case Phase.Colon:
      case Phase.Quote:
        if (BLANK[byte] === 1) return ++this.blanks > MAX_BLANKS ? Verdict.Reject : Verdict.Hold;
        if (this.phase === Phase.Colon) {
          if (byte !== 0x3a) return Verdict.Reject;
          this.phase = Phase.Quote;
          return Verdict.Hold;
        }
        if (this.escapes > 0 ? byte !== BACKSLASH : byte !== QUOTE) return Verdict.Reject;
        this.phase = this.escapes > 0 ? Phase.EscapedQuote : Phase.Value;
        this.run = 1;
        this.claim = here + 1;
        return Verdict.Hold;
      case Phase.EscapedQuote:
        if (byte === BACKSLASH && this.run < this.escapes) {
          this.run++;
          return Verdict.Hold;
        }
        if (byte !== QUOTE || this.run !== this.escapes) return Verdict.Reject;
        this.phase = Phase.Value;
        this.claim = here + 1;
        return Verdict.Hold;
      default: {
        const { format } = this;
        if (format.alphabet[byte] === 1) {
          if (this.value.length >= format.maxValue) return Verdict.Reject;
          this.value += String.fromCharCode(byte);
          return Verdict.Hold;
        }
        // A whole string only: the value ends at its closing quote (the `\` of an escaped one).
        if (byte !== (this.escapes > 0 ? BACKSLASH : QUOTE)) return Verdict.Reject;
        const { value } = this;
        return value.length >= format.minValue && format.accept(value)
          ? Verdict.Close
          : Verdict.Reject;
      }
    }
  }

  end(): Verdict {
    return Verdict.Reject;
  }
}

const DIGIT_OR_CAPITAL = /[0-9A-Z]/;

/**
 * A JSON Web Key's private members: base64url without padding, 43 characters for a 256-bit
 * curve (P-256, Ed25519) up to an 8192-bit RSA key's `d`, with a digit or a capital (random
 * key bytes have one; a worded value such as `"q": "search terms"` is no key). A symmetric
 * key's `k` is not read: a 128-bit one is 22 characters, too short to tell.
 */
const JWK: MemberFormat = {
  name: "jwk-private-key",
  keys: ["d", "p", "q", "dp", "dq", "qi"],
  alphabet: byteSet("A-Za-z0-9_-"),
  minValue: 43,
  maxValue: 1400,
  accept: (value) => DIGIT_OR_CAPITAL.test(value),
};
export const JWK_PRIVATE_KEY_RULE: MatcherRule = memberRule(JWK);

/** Printable ASCII, a `:`, printable ASCII: a `user:password` pair. */
const USER_PASSWORD = /^[\x20-\x39\x3b-\x7e]+:[\x20-\x7e]+$/;

/**
 * Docker's `auth` (`~/.docker/config.json`, a registry's entry under `auths`): base64 of
 * `user:password` (or `user:token`), redacted when it decodes to such a pair.
 */
export const DOCKER_AUTH_RULE: MatcherRule = memberRule({
  name: "docker-auth",
  keys: ["auth"],
  alphabet: byteSet("A-Za-z0-9+/="),
  minValue: 8,
  maxValue: 4096,
  accept: (value) =>
    value.length % 4 === 0 && USER_PASSWORD.test(Buffer.from(value, "base64").toString("latin1")),
});

keepShape(new JsonMemberCandidate(3, 0, JWK));
