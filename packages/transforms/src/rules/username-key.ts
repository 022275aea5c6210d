/**
 * An API key named only `key` beside the account it belongs to, as Kaggle's `kaggle.json`
 * holds it (`{"username":"bob","key":"<32 hex digits>"}`, what `cat ~/.kaggle/kaggle.json`
 * prints): a JSON object whose `"username"` member is followed at once by `"key"`. The key's
 * value is redacted when it looks like a token (16 to 128 letters, digits, `_` and `-`, with a
 * letter and a digit); the name, the username and the quotes stay. A `"key"` anywhere else
 * names a map's key or a setting and is not read. Inside a JSON string the quotes come
 * escaped, read the same way.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText('{"username":"bob","key":"0123456789abcdef0123456789abcdef"}');
 * // '{"username":"bob","key":"[REDACTED:username-key]"}'
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet } from "./byte-classes.js";
import { IN_ESCAPE, JsonQuotes, TEXT_QUOTE, TOO_DEEP } from "./escaped-literal.js";
import { keepShape } from "./kept-shapes.js";
import { withNamePrefix } from "./not-before.js";

const QUOTE = 0x22;
/** After the anchor's closing quote: `:`, the username, `,`, then this key (quotes as `"`). */
const KEY = Buffer.from('"key":"', "latin1");
/** Most bytes of the username. */
const MAX_USERNAME = 128;
const MIN_KEY = 16;
const MAX_KEY = 128;
const TOKEN = byteSet("A-Za-z0-9_-");
const BLANK = byteSet(" \t\r\n");
const DIGIT = byteSet("0-9");
const LETTER = byteSet("A-Za-z");

const Part = {
  /** The anchor's closing quote. */
  Close: 0,
  /** `:` and the username's opening quote. */
  Colon: 1,
  /** The username, to its closing quote. */
  Username: 2,
  /** `,` and `"key":"`. */
  Key: 3,
  /** The key's value, to its closing quote. */
  Value: 4,
} as const;
type Part = (typeof Part)[keyof typeof Part];

export const USERNAME_KEY_RULE: MatcherRule = withNamePrefix(
  {
    kind: "matcher",
    name: "username-key",
    // The name's end, its `e` read before it: `user` starts a word in most lines of a log, so
    // an anchor that began with it stopped the scan at each (`user=…`, `user_id`).
    anchors: ["rname"],
    maxLength: MAX_KEY + 16,
    start(match): Candidate | undefined {
      // `"username"`: `use` before the anchor in the name, a quote before the name.
      return match.namePrefix === "use" && match.nameBefore === QUOTE
        ? new UsernameKeyCandidate(match.length)
        : undefined;
    },
  },
  () => true,
);

class UsernameKeyCandidate implements Candidate {
  from = Number.MAX_SAFE_INTEGER;
  to: number | undefined = undefined;
  private here: number;
  private part: Part = Part.Close;
  private readonly quotes = new JsonQuotes();
  private count = 0;
  /** Letters and digits seen in the value. */
  private letter = false;
  private digit = false;

  constructor(anchor: number) {
    this.here = anchor - 1;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    const kind = this.quotes.read(byte);
    if (kind === IN_ESCAPE) return Verdict.Hold;
    if (kind === TOO_DEEP) return Verdict.Reject;
    const quote = kind === TEXT_QUOTE;
    const run = this.quotes.run;
    switch (this.part) {
      case Part.Close:
        // `"`, or `\"` inside a string.
        if (!quote) return Verdict.Reject;
        this.part = Part.Colon;
        return Verdict.Hold;
      case Part.Colon:
        if (byte === 0x3a || byte === 0x20) return Verdict.Hold;
        if (!quote) return Verdict.Reject;
        this.part = Part.Username;
        return Verdict.Hold;
      case Part.Username:
        if (quote) {
          this.part = Part.Key;
          this.count = 0;
          return Verdict.Hold;
        }
        return ++this.count > MAX_USERNAME || run > 0 ? Verdict.Reject : Verdict.Hold;
      case Part.Key:
        return this.key(byte, run, quote, here);
      default:
        return this.value(byte, quote, here);
    }
  }

  /** `,` and blanks (line breaks too, escaped or not), then `"key"`, `:` and the value's opening quote. */
  private key(byte: number, run: number, quote: boolean, here: number): Verdict {
    const escapedBlank = run > 0 && (byte === 0x6e || byte === 0x72 || byte === 0x74);
    if (BLANK[byte] === 1 || escapedBlank || (this.count === 0 && byte === 0x2c))
      return Verdict.Hold;
    const expected = KEY[this.count]!;
    if (expected === QUOTE ? !quote : byte !== expected) return Verdict.Reject;
    if (++this.count < KEY.length) return Verdict.Hold;
    this.part = Part.Value;
    this.count = 0;
    this.from = here + 1;
    return Verdict.Hold;
  }

  /** A byte of the key's value: held until its closing quote says whether it is a token. */
  private value(byte: number, quote: boolean, here: number): Verdict {
    if (!quote) {
      if (TOKEN[byte] !== 1 || ++this.count > MAX_KEY) return Verdict.Reject;
      this.letter ||= LETTER[byte] === 1;
      this.digit ||= DIGIT[byte] === 1;
      return Verdict.Hold;
    }
    if (this.count < MIN_KEY || !this.letter || !this.digit) return Verdict.Reject;
    this.to = here - this.quotes.escapes;
    return Verdict.Close;
  }

  end(): Verdict {
    return Verdict.Reject;
  }
}

keepShape(new UsernameKeyCandidate(8));
