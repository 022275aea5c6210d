/**
 * A password given to Redis's `AUTH` command as `redis-cli` shows it: after its prompt
 * (`127.0.0.1:6379> AUTH <password>`, with Redis 6's ACL user `AUTH <user> <password>`) and
 * in `MONITOR`'s log of the commands it runs (`"AUTH" "<password>"`, `"auth" "<user>"
 * "<password>"`; inside a JSON string too, its quotes escaped). The last of one or two
 * arguments is redacted, whatever its shape (a Redis password is any string), when only
 * the line's end follows it; the command, the user's name and the quotes stay. A third
 * argument, or none, is no such `AUTH` and stays.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("127.0.0.1:6379> AUTH hunter2x"); // "127.0.0.1:6379> AUTH [REDACTED:redis-auth]"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { ALNUM, CONTROL } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";

/** Most bytes of an argument. */
const MAX_ARGUMENT = 128;
const QUOTE = 0x22;
const BLANK = 0x20;
const BACKSLASH = 0x5c;

/** How the arguments are written: after the prompt, or quoted by `MONITOR` (escaped in a string). */
const Form = { Prompt: 0, Quoted: 1, Escaped: 2 } as const;
type Form = (typeof Form)[keyof typeof Form];

const FORMS: ReadonlyMap<string, Form> = new Map<string, Form>([
  ["> AUTH", Form.Prompt],
  ["> auth", Form.Prompt],
  ['"AUTH" "', Form.Quoted],
  ['"auth" "', Form.Quoted],
  ['\\"AUTH\\" \\"', Form.Escaped],
  ['\\"auth\\" \\"', Form.Escaped],
  // A JSON string inside a JSON string escapes the escapes.
  ['\\\\\\"AUTH\\\\\\" \\\\\\"', Form.Escaped],
  ['\\\\\\"auth\\\\\\" \\\\\\"', Form.Escaped],
]);

export const REDIS_AUTH_RULE: MatcherRule = {
  kind: "matcher",
  name: "redis-auth",
  anchors: [...FORMS.keys()],
  maxLength: 2 * MAX_ARGUMENT + 8,
  start(match): Candidate | undefined {
    const form = FORMS.get(match.anchor) ?? Form.Prompt;
    // The prompt's `>` ends a host's port or a name (`127.0.0.1:6379>`, `redis>`), not a
    // quoted reply's line (`> AUTH is required`).
    if (form === Form.Prompt && !(match.before >= 0 && ALNUM[match.before] === 1)) return undefined;
    // Escaped, the backslashes before a quote (1, or 3 a string deeper).
    return new RedisAuthCandidate(match.length, form, match.anchor.indexOf('"'));
  },
};

const State = {
  /** Before the first unquoted argument: its blank. */
  Blank: 0,
  /** In an argument. */
  Argument: 1,
  /** After the first argument: a blank (and a quote), the second; or the line's end. */
  Between: 2,
  /** After the second argument: only the line's end (unquoted, blanks before it too). */
  After: 3,
} as const;
type State = (typeof State)[keyof typeof State];

/** The arguments after one anchor (a class: one allocation a candidate). */
class RedisAuthCandidate implements Candidate {
  /** Where the argument read last starts, from the anchor's start. */
  from: number;
  /** Where it ends, once it did. */
  to: number | undefined = undefined;
  private here: number;
  private state: State;
  private args = 0;
  private length = 0;
  /** Backslashes read in a row just before this byte. */
  private backslashes = 0;
  /** Bytes of the separator between two quoted arguments read (`" "` or `\" \"`). */
  private gap = 0;

  constructor(
    anchorLength: number,
    private readonly form: Form,
    /** The backslashes before an argument's closing quote (`Form.Escaped`). */
    private readonly closing = 1,
  ) {
    this.from = anchorLength;
    this.here = anchorLength - 1;
    this.state = form === Form.Prompt ? State.Blank : State.Argument;
    if (form !== Form.Prompt) this.args = 1;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    const backslashes = this.backslashes;
    this.backslashes = byte === BACKSLASH ? backslashes + 1 : 0;
    // A line's end: a line break, or inside a string its escape (`\n`) or the string's end.
    const lineEnd =
      byte === 0x0a ||
      byte === 0x0d ||
      CONTROL[byte] === 1 ||
      (this.form !== Form.Quoted &&
        ((backslashes > 0 && (byte === 0x6e || byte === 0x72 || byte === 0x74)) ||
          (byte === QUOTE && (backslashes < this.closing || this.form === Form.Prompt))));
    switch (this.state) {
      case State.Blank:
        return byte === BLANK ? this.open(here + 1) : Verdict.Reject;
      case State.Argument:
        return this.argumentByte(byte, here, lineEnd, backslashes);
      case State.Between:
        if (lineEnd) return Verdict.Close;
        if (this.form === Form.Prompt) {
          if (byte === BLANK) return Verdict.Reject;
          this.open(here);
          return this.argumentByte(byte, here, false, 0);
        }
        return this.separatorByte(byte, here);
      default:
        if (lineEnd) return Verdict.Close;
        if (byte === BACKSLASH && this.form === Form.Escaped) return Verdict.Hold;
        return byte === BLANK && this.form === Form.Prompt ? Verdict.Hold : Verdict.Reject;
    }
  }

  /** A byte between two quoted arguments: a blank and the second's quote (escaped as they are). */
  private separatorByte(byte: number, here: number): Verdict {
    const escaped = this.form === Form.Escaped;
    if (byte === BACKSLASH && escaped) return Verdict.Hold;
    if (this.gap === 0) {
      if (byte !== BLANK) return Verdict.Reject;
      this.gap = 1;
      return Verdict.Hold;
    }
    return byte === QUOTE ? this.open(here + 1) : Verdict.Reject;
  }

  /** The next argument starts at `at` (from the anchor's start). */
  private open(at: number): Verdict {
    this.from = at;
    this.to = undefined;
    this.length = 0;
    this.args++;
    this.state = State.Argument;
    return Verdict.Hold;
  }

  /** A byte of an argument: a blank (unquoted), its closing quote or the line's end ends it. */
  private argumentByte(byte: number, here: number, lineEnd: boolean, backslashes: number): Verdict {
    let ends = byte === BLANK || lineEnd;
    if (this.form === Form.Quoted) ends = byte === QUOTE && backslashes % 2 === 0;
    // Inside a string the delimiting quotes are `\"`, a quote in the argument `\\\"` (a
    // string deeper, `\\\"` and `\\\\\\\"`).
    if (this.form === Form.Escaped) ends = byte === QUOTE && backslashes === this.closing;
    if (!ends) {
      if (lineEnd) return Verdict.Reject;
      return ++this.length > MAX_ARGUMENT ? Verdict.Reject : Verdict.Hold;
    }
    // The argument ends before the backslashes of an escape that ends it (`MONITOR`'s own
    // escapes, `\\` before a quote, are the argument's).
    const end = this.form === Form.Quoted ? here : here - backslashes;
    if (end <= this.from) return Verdict.Reject;
    this.to = end;
    if (lineEnd) return Verdict.Close;
    this.state = this.args < 2 ? State.Between : State.After;
    this.gap = 0;
    return Verdict.Hold;
  }

  end(): Verdict {
    if (this.state === State.Argument && this.form === Form.Prompt && this.length > 0) {
      this.to = undefined;
      return Verdict.Close;
    }
    return this.state === State.Between || this.state === State.After
      ? Verdict.Close
      : Verdict.Reject;
  }
}

keepShape(new RedisAuthCandidate(6, Form.Prompt));
