/**
 * A random token joined to a secret's keyword by a hyphen, with no `=` or `:` between them
 * (`acme-secret-<token>`, `ACME_PRIVATE-key-<token>`, `dd-apikey-<token>`): a name and its
 * value written as one word, as in a generated resource name or a label. The keyword's
 * hyphen is in the anchor (`secret-`, `PRIVATE-`, `apikey-`, …), so a keyword alone is no
 * stop; `key-` or `token-` may follow it once (`-PRIVATE-key-…`, `-secret-token-…`).
 *
 * The token is the run of letters and digits after it: 20 to 128 of them, switching
 * between letters and digits 4+ times (random, as a key is: `secret-rotation-policy`,
 * `token-refresh-interval` and `private-registry-mirror` are words), and ending the word (a
 * `-`, `_` or `.` with a letter or digit after it goes on a longer name, as Kubernetes'
 * generated `app-secret-7d9f8b6c5d-x2k9p` does; a UUID's groups are too short).
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("label: acme-secret-k3j9x2m7q4w1z6c5v0b8n2l5");
 * // "label: acme-secret-[REDACTED:secret-assignment]"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { ALNUM, DIGIT } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";

const MIN_TOKEN = 20;
const MAX_TOKEN = 128;
/** Letter-digit switches a token needs (as a vendor's random key, `assignment-rule.ts`). */
const MIN_SWITCHES = 4;
/** What may stand once between the keyword's hyphen and the token. */
const JOINS = ["key-", "KEY-", "Key-", "token-", "TOKEN-", "Token-"];
/** Bytes after which a letter or digit continues the name past the token. */
const NAME_JOIN = new Uint8Array(256);
NAME_JOIN[0x2d] = 1; // -
NAME_JOIN[0x5f] = 1; // _
NAME_JOIN[0x2e] = 1; // .

/** The token after the anchor, or the one join word before it. */
class HyphenJoinedCandidate implements Candidate {
  from: number;
  /** Set once the token ended: the byte after it (or the join byte before a longer name). */
  to: number | undefined = undefined;
  private here: number;
  private run = 0;
  private switches = 0;
  /** The last byte of the run was a digit (for the switches), -1 before the first. */
  private lastDigit = -1;
  /** Bytes of a join word read so far (`key-`), while the run may still be one. */
  private join = "";
  private joined = false;
  /** A name-joining byte ended the run: one more letter or digit makes it a longer name. */
  private pendingJoin = false;

  constructor(anchorLength: number) {
    this.from = anchorLength;
    this.here = anchorLength - 1;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    if (this.pendingJoin) return ALNUM[byte] === 1 ? Verdict.Reject : this.close();
    if (ALNUM[byte] === 1) {
      if (++this.run > MAX_TOKEN) return Verdict.Reject;
      const digit = DIGIT[byte]!;
      if (this.lastDigit >= 0 && digit !== this.lastDigit) this.switches++;
      this.lastDigit = digit;
      if (!this.joined && this.run <= 5) this.join += String.fromCharCode(byte);
      return Verdict.Hold;
    }
    if (byte === 0x2d && !this.joined && JOINS.includes(`${this.join}-`)) {
      // `-PRIVATE-key-…`: the token starts after the join word.
      this.joined = true;
      this.restart(here + 1);
      return Verdict.Hold;
    }
    this.to = here;
    if (NAME_JOIN[byte] === 1) {
      this.pendingJoin = true;
      return Verdict.Hold;
    }
    return this.close();
  }

  private restart(from: number): void {
    this.from = from;
    this.run = 0;
    this.switches = 0;
    this.lastDigit = -1;
  }

  private close(): Verdict {
    return this.run >= MIN_TOKEN && this.switches >= MIN_SWITCHES ? Verdict.Close : Verdict.Reject;
  }

  end(): Verdict {
    if (this.to === undefined) this.to = this.here + 1;
    return this.close();
  }
}

const KEYWORDS = ["secret", "private", "token", "apikey", "password"];

/**
 * Tokens joined to a keyword by a hyphen (see the file's comment).
 *
 * @category redaction
 */
export const HYPHEN_JOINED_RULE: MatcherRule = {
  kind: "matcher",
  name: "secret-assignment",
  anchors: KEYWORDS.flatMap((k) => [
    `${k}-`,
    `${k.toUpperCase()}-`,
    `${k[0]!.toUpperCase()}${k.slice(1)}-`,
  ]),
  maxLength: MAX_TOKEN + 8,
  start: (match): Candidate => new HyphenJoinedCandidate(match.length),
};

keepShape(new HyphenJoinedCandidate(7));
