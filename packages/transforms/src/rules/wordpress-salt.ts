/**
 * WordPress's authentication keys and salts, as `wp-config.php` defines them:
 * `define( 'AUTH_KEY', '…' );` and likewise `SECURE_AUTH_KEY`, `LOGGED_IN_KEY`,
 * `NONCE_KEY` and the four `…_SALT`s. WordPress's generator
 * (`api.wordpress.org/secret-key/1.1/salt/`) writes 64 characters of letters, digits,
 * punctuation and blanks, so no token shape tells them: the name in a `define` call does.
 * The literal between its quotes is redacted (16 to {@link MAX_VALUE} bytes, also `\'…\'`
 * escaped inside a string); the sample file's `put your unique phrase here` stays.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("define( 'NONCE_SALT', 'x9#Kq2!Lm@4z^Rt7&Vw' );");
 * // "define( 'NONCE_SALT', '[REDACTED:wordpress-salt]' );"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { BLANK, QUOTES } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";

/** Most bytes of a key (WordPress writes 64). */
const MAX_VALUE = 256;
/** Fewest bytes of a key. */
const MIN_VALUE = 16;
/** Most bytes between the name and the value's quote. */
const MAX_GAP = 24;
const BACKSLASH = 0x5c;
/** `wp-config-sample.php`'s placeholder. */
const PLACEHOLDER = "put your unique phrase here";

const NAMES = ["AUTH", "SECURE_AUTH", "LOGGED_IN", "NONCE"].flatMap((n) => [
  `${n}_KEY`,
  `${n}_SALT`,
]);

const Phase = { NameQuote: 0, Gap: 1, Value: 2 } as const;

export const WORDPRESS_SALT_RULE: MatcherRule = {
  kind: "matcher",
  name: "wordpress-salt",
  anchors: NAMES,
  maxLength: MAX_VALUE + MAX_GAP + 2,
  start(match): Candidate | undefined {
    // The name is a whole quoted literal: `'AUTH_KEY'`, not `SECURE_AUTH_KEY` or `MY_AUTH_KEY`.
    return QUOTES[match.before] === 1 ? new SaltCandidate(match.length, match.before) : undefined;
  },
};

class SaltCandidate implements Candidate {
  from: number;
  private here: number;
  private phase: number = Phase.NameQuote;
  private count = 0;
  /** The value's quote, once read. */
  private quote = 0;
  /** The value's bytes, for the placeholder test. */
  private value = "";
  /** A backslash came before the quote (`\'` inside a string): one ends the value too. */
  private escaped = false;

  constructor(
    anchorLength: number,
    /** The quote before the name: the same one must close it. */
    private readonly nameQuote: number,
  ) {
    this.from = anchorLength;
    this.here = anchorLength - 1;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    if (this.phase === Phase.Value) return this.valueByte(byte);
    this.from = here + 1;
    if (++this.count > MAX_GAP) return Verdict.Reject;
    if (this.phase === Phase.NameQuote) {
      if (byte === BACKSLASH && !this.escaped) {
        this.escaped = true; // `\"AUTH_KEY\"` inside a string
        return Verdict.Hold;
      }
      if (byte !== this.nameQuote) return Verdict.Reject;
      this.phase = Phase.Gap;
      return Verdict.Hold;
    }
    // Blanks, one `,`, blanks, then the value's quote (`\'` inside a string).
    if (BLANK[byte] === 1 || byte === 0x2c || (byte === BACKSLASH && this.escaped))
      return Verdict.Hold;
    if (QUOTES[byte] !== 1) return Verdict.Reject;
    this.quote = byte;
    this.phase = Phase.Value;
    this.count = 0;
    return Verdict.Hold;
  }

  private valueByte(byte: number): Verdict {
    const ends = byte === this.quote || (this.escaped && byte === BACKSLASH);
    if (!ends) {
      if (byte === 0x0a || ++this.count > MAX_VALUE) return Verdict.Reject;
      if (this.value.length <= PLACEHOLDER.length) this.value += String.fromCharCode(byte);
      return Verdict.Hold;
    }
    return this.count >= MIN_VALUE && this.value !== PLACEHOLDER ? Verdict.Close : Verdict.Reject;
  }

  end(): Verdict {
    return Verdict.Reject;
  }
}

keepShape(new SaltCandidate(8, 0x27));
