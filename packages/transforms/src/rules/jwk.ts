/**
 * The private members of a JSON Web Key (RFC 7517, RFC 7518 §6): an RSA key's `d`, `p`, `q`,
 * `dp`, `dq`, `qi`, an elliptic-curve or OKP key's `d`. Each is base64url without padding,
 * 43 characters for a 256-bit curve and hundreds for RSA, so a value is redacted when it is
 * a whole string of at least {@link MIN_VALUE} base64url characters with a digit or a
 * capital (a one-letter key with a short or worded value, `"q": "search terms"`, stays). The
 * public members (`n`, `e`, `x`, `y`, `kty`, `kid`) stay, and so does the rest of the
 * document. Read in JSON as written (`"d": "…"`) and inside a JSON string (`\"d\":\"…\"`).
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText('{"kty":"EC","crv":"P-256","x":"f83O…","d":"Qm9v7Xk2LrT4aZ8pN1cW6yH3jE5sU0gB9dF2vK7oMiQ"}');
 * // '{"kty":"EC","crv":"P-256","x":"f83O…","d":"[REDACTED:jwk-private-key]"}'
 * ```
 */
import { type AnchorMatch, type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { ALNUM, BLANK, byteSet } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";
import { withNotBefore } from "./not-before.js";

/** Fewest characters of a private member: a P-256 or Ed25519 scalar, 32 bytes in base64url. */
const MIN_VALUE = 43;
/** Most characters: an 8192-bit RSA key's `d`. */
const MAX_VALUE = 1400;
/** Blanks between the key, the `:` and the value. */
const MAX_BLANKS = 8;
const BASE64URL = byteSet("A-Za-z0-9_-");
const DIGIT_OR_CAPITAL = byteSet("0-9A-Z");
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

const MEMBERS = ["d", "p", "q", "dp", "dq", "qi"];

const Phase = {
  /** After the key: blanks, then the `:`. */
  Colon: 0,
  /** After the `:`: blanks, then the value's opening quote (`\` first when escaped). */
  Quote: 1,
  /** The `"` after a `\` that opens an escaped value. */
  EscapedQuote: 2,
  /** The value's characters, held until its closing quote. */
  Value: 3,
} as const;

export const JWK_PRIVATE_KEY_RULE: MatcherRule = withNotBefore(
  {
    kind: "matcher",
    name: "jwk-private-key",
    anchors: MEMBERS.flatMap((m) => [`"${m}"`, `\\"${m}\\"`]),
    maxLength: MAX_VALUE + 2 * MAX_BLANKS + 4,
    start(match: AnchorMatch): Candidate | undefined {
      if (match.before >= 0 && ALNUM[match.before] === 1) return undefined;
      return new JwkMemberCandidate(match.length, match.anchor[0] === "\\");
    },
  },
  // A key inside a longer name (`x"d"` cannot be JSON): the byte before a key is `{`, `,` or a blank.
  ALNUM,
);

/** One private member's value, from its key to the closing quote. */
class JwkMemberCandidate implements Candidate {
  phase: number = Phase.Colon;
  here: number;
  claim: number;
  blanks = 0;
  /** Value characters read. */
  length = 0;
  /** A digit or a capital among them (random key bytes have one). */
  mixed = false;

  constructor(
    anchorLength: number,
    /** The key was written with escaped quotes: so is the value. */
    readonly escaped: boolean,
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
        if (this.escaped ? byte !== BACKSLASH : byte !== QUOTE) return Verdict.Reject;
        this.phase = this.escaped ? Phase.EscapedQuote : Phase.Value;
        this.claim = here + 1;
        return Verdict.Hold;
      case Phase.EscapedQuote:
        if (byte !== QUOTE) return Verdict.Reject;
        this.phase = Phase.Value;
        this.claim = here + 1;
        return Verdict.Hold;
      default:
        if (BASE64URL[byte] === 1) {
          if (DIGIT_OR_CAPITAL[byte] === 1) this.mixed = true;
          return ++this.length > MAX_VALUE ? Verdict.Reject : Verdict.Hold;
        }
        // A whole string only: the value ends at its closing quote (the `\` of an escaped one).
        if (byte !== (this.escaped ? BACKSLASH : QUOTE)) return Verdict.Reject;
        return this.length >= MIN_VALUE && this.mixed ? Verdict.Close : Verdict.Reject;
    }
  }

  end(): Verdict {
    return Verdict.Reject;
  }
}

keepShape(new JwkMemberCandidate(3, false));
