/**
 * Redis's passwords in `redis-cli`'s reply to `CONFIG GET` (`CONFIG GET requirepass`,
 * `CONFIG GET *`): the parameter's name is one element of the reply and its value the next,
 * on the line after it (`1) "requirepass"` / `2) "<password>"`); also inside a JSON string,
 * the line break and the quotes escaped. The value's characters are redacted (redis-cli's
 * own escapes, `\"` and `\\`, inside it); its quotes, the numbering and the name stay, and
 * an empty value (no password set) is kept.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText('1) "requirepass"\n2) "hunter2x"'); // '1) "requirepass"\n2) "[REDACTED:redis-config]"'
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet } from "./byte-classes.js";
import { CLOSED, EscapedLiteral, IN_RUN, NOT_OPENED, OPENED, OPENING } from "./escaped-literal.js";
import { keepShape } from "./kept-shapes.js";
import { Break, LineBreak } from "./line-break.js";
import { withNotBefore } from "./not-before.js";

/** The parameters that hold a password: the server's own, and the one it gives its master. */
const NAMES = ["requirepass", "masterauth"];
/** Each name's closing quote as written, escaped once, escaped twice (a string in a string). */
const CLOSINGS = ['"', '\\"', '\\\\\\"'];
/** Most bytes of the value. */
const MAX_VALUE = 256;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const QUOTES = byteSet('"');
/** Only the name's opening quote may stand before it. */
const NOT_QUOTE = Uint8Array.from({ length: 256 }, (_, b) => (b === QUOTE ? 0 : 1));

export const REDIS_CONFIG_RULE: MatcherRule = withNotBefore(
  {
    kind: "matcher",
    name: "redis-config",
    anchors: NAMES.flatMap((name) => CLOSINGS.map((closing) => name + closing)),
    maxLength: MAX_VALUE + 32,
    start(match): Candidate | undefined {
      if (match.before !== QUOTE) return undefined;
      return new RedisConfigCandidate(match.length, match.anchor.split("\\").length - 1);
    },
  },
  NOT_QUOTE,
);

/** Where the candidate is: the line break, the next element's number, the value. */
const Part = { Break: 0, Number: 1, Value: 2 } as const;
type Part = (typeof Part)[keyof typeof Part];

class RedisConfigCandidate implements Candidate {
  from: number;
  to: number | undefined = undefined;
  private here: number;
  private part: Part = Part.Break;
  /** Bytes read in the current part. */
  private count = 0;
  /** A backslash of the value's own escape was read (written as is). */
  private escaping = false;
  private readonly literal = new EscapedLiteral();
  private readonly lineBreak = new LineBreak();

  constructor(
    anchor: number,
    /** Backslashes before each quote and line break (0 as written). */
    private readonly escapes: number,
  ) {
    this.here = anchor - 1;
    this.from = Number.MAX_SAFE_INTEGER;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    if (++this.count > (this.part === Part.Value ? MAX_VALUE : 16)) return Verdict.Reject;
    if (this.part === Part.Break) return this.breakByte(byte);
    if (this.part === Part.Number) return this.number(byte, here);
    return this.escapes === 0 ? this.plainValue(byte, here) : this.escapedValue(byte, here);
  }

  /** `\n` or `\r\n`, raw or escaped (a string's, or Python's repr of the reply). */
  private breakByte(byte: number): Verdict {
    const read = this.lineBreak.read(byte);
    if (read === Break.Held) return Verdict.Hold;
    if (read !== Break.Whole) return Verdict.Reject;
    this.part = Part.Number;
    this.count = 0;
    return Verdict.Hold;
  }

  /** The next element's number, `)` and a blank, then its opening quote. */
  private number(byte: number, here: number): Verdict {
    if (byte >= 0x30 && byte <= 0x39) return Verdict.Hold;
    if (byte === 0x29 || byte === 0x20) return Verdict.Hold;
    const opened =
      this.escapes === 0
        ? byte === QUOTE
          ? OPENED
          : NOT_OPENED
        : this.literal.opening(byte, QUOTES);
    if (opened === OPENING) return Verdict.Hold;
    // Escaped, the value's quote has as many backslashes as the name's.
    if (opened !== OPENED || (this.escapes > 0 && this.literal.closing !== this.escapes))
      return Verdict.Reject;
    this.part = Part.Value;
    this.count = 0;
    this.from = here + 1;
    return Verdict.Hold;
  }

  /** A byte of the value as redis-cli writes it: `\` escapes the next byte, `"` ends it. */
  private plainValue(byte: number, here: number): Verdict {
    if (this.escaping) {
      this.escaping = false;
      return Verdict.Hold;
    }
    if (byte === BACKSLASH) {
      this.escaping = true;
      return Verdict.Hold;
    }
    if (byte === 0x0a || byte === 0x0d) return Verdict.Reject;
    return byte === QUOTE ? this.close(here) : Verdict.Hold;
  }

  /** A byte of the value inside a string: it ends at a quote escaped as the name's was. */
  private escapedValue(byte: number, here: number): Verdict {
    const read = this.literal.read(byte, here, QUOTE);
    if (read === IN_RUN) return Verdict.Hold;
    return read === CLOSED ? this.close(this.literal.runAt) : Verdict.Hold;
  }

  /** The value ends before `at`: redacted unless empty. */
  private close(at: number): Verdict {
    if (at <= this.from) return Verdict.Reject;
    this.to = at;
    return Verdict.Close;
  }

  end(): Verdict {
    return Verdict.Reject;
  }
}

keepShape(new RedisConfigCandidate(12, 0));
