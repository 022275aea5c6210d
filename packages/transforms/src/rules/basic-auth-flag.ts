/**
 * `curl -u user:password` and `--user user:password` (also `--proxy-user`): the whole
 * `user:password` is redacted, to the next whitespace byte or closing quote (an API token
 * often stands as the user), or, unquoted, to a quote that closes a string the command
 * stood in (`{"cmd":"curl -u u:p","n":1}`: see `QUOTE_CLOSER`). Nothing is held beyond the
 * user name (at most 128 bytes): without a `:` in it the argument is released.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("curl -u deploy:s3cr3t-pass https://x"); // "curl -u [REDACTED:basic-auth] https://x"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet, ESCAPED_BLANK, QUOTE_CLOSER } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";

const SPACE = byteSet(" \t\r\n\v\f");
/** Shell operators that end an unquoted argument (`-u a:b|jq`, `-u a:b;echo`, `$(… -u a:b)`). */
const SHELL_END = byteSet(";|&<>)`");
const MAX_USER = 128;
const MAX_PASSWORD = 256;
/** A part of `user:password` that is a placeholder (`$USER`, `${pass}`, `<password>`, `[PASSWORD]`). */
const PLACEHOLDER = /^[$<[{]|\$\{/;
/**
 * A user of 8 or more bytes with a digit and, past its first letter, capitals and small
 * letters mixed, or a sign a login name does not hold (not `-_.@`): a token, not
 * `deploy-bot-01` or `Deploy01`.
 */
const TOKEN_USER =
  /^(?=.*[0-9])(?:(?=.+[a-z])(?=.+[A-Z])|(?=.*[A-Za-z])(?=.*[^A-Za-z0-9_.@-])).{8,}$/;

export const BASIC_AUTH_FLAG_RULE: MatcherRule = {
  kind: "matcher",
  name: "basic-auth",
  anchors: ["-u", "--user", "--proxy-user", "-U"],
  maxLength: MAX_USER + MAX_PASSWORD + 16,
  start(match): Candidate | undefined {
    if (match.before !== 0x20 && match.before !== 0x09) return undefined;
    return new BasicAuthCandidate(match.length);
  },
};

/**
 * One `-u user:password`: the whole argument is held (at most {@link MAX_USER} +
 * {@link MAX_PASSWORD} bytes) and redacted when it ends, unless it is a placeholder.
 */
class BasicAuthCandidate implements Candidate {
  /** -1: after the flag, 0: value start, 1: user, 2: password. */
  phase = -1;
  quote = 0;
  claim: number;
  here: number;
  /** The argument so far (latin1), for the placeholder test. */
  value = "";
  colon = -1;
  /** Offset of a quote in an unquoted argument, that ends it if a `QUOTE_CLOSER` follows, or -1. */
  quoteAt = -1;
  /** After `Close`: where the argument ended (a closing quote's offset), or the current byte. */
  to: number | undefined = undefined;
  /** Where the run of backslashes just read began, or -1. */
  slashFrom = -1;

  constructor(anchorLength: number) {
    this.claim = anchorLength;
    this.here = anchorLength - 1;
  }

  get from(): number {
    return this.claim;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    if (this.phase === -1) {
      if (byte !== 0x20 && byte !== 0x3d) return Verdict.Reject;
      this.phase = 0;
      this.claim = here + 1;
      return Verdict.Hold;
    }
    if (this.phase === 0) {
      // More blanks before the argument (`--user  'u:p'`): still before it.
      if (byte === 0x20 || byte === 0x09) {
        this.claim = here + 1;
        return this.claim > 64 ? Verdict.Reject : Verdict.Hold;
      }
      this.phase = 1;
      if (byte === 0x22 || byte === 0x27) {
        this.quote = byte;
        this.claim = here + 1;
        return Verdict.Hold;
      }
    }
    if (this.quoteAt >= 0) {
      // The byte after a quote in an unquoted argument says whether the quote closed a string.
      const at = this.quoteAt;
      this.quoteAt = -1;
      if (QUOTE_CLOSER[byte] === 1) {
        this.value = this.value.slice(0, -1);
        this.to = at;
        return this.phase === 2 && this.credible() ? Verdict.Close : Verdict.Reject;
      }
    }
    if (byte === 0x5c) {
      if (this.slashFrom < 0) this.slashFrom = here;
    } else if (this.slashFrom >= 0) {
      const at = this.slashFrom;
      this.slashFrom = -1;
      // Unquoted, a run of backslashes before `n`, `r` or `t` is a line's end escaped inside
      // a string (`{"log":"curl -u u:p\nnext"}`, once or more): the argument ends there.
      if (this.quote === 0 && ESCAPED_BLANK[byte] === 1) {
        this.value = this.value.slice(0, this.value.length - (here - at));
        this.to = at;
        return this.phase === 2 && this.credible() ? Verdict.Close : Verdict.Reject;
      }
    }
    if (SPACE[byte] === 1 || byte === this.quote || (this.quote === 0 && SHELL_END[byte] === 1)) {
      // The whole `user:password` is the credential as sent (an API token often stands as
      // the user, with an empty password).
      return this.phase === 2 && this.credible() ? Verdict.Close : Verdict.Reject;
    }
    if (this.phase === 1 && byte === 0x3a) {
      this.phase = 2;
      this.colon = this.value.length;
    }
    // `-u redis://:pass@host`: a URL, whose password the URL's rule reads (the host stays).
    if (
      byte === 0x2f &&
      this.phase === 2 &&
      this.value.endsWith(":/") &&
      this.value.length === this.colon + 2
    )
      return Verdict.Reject;
    // An escaped quote (`\"` inside a JSON string) is the argument's own, not a string's end.
    if (this.quote === 0 && (byte === 0x22 || byte === 0x27) && !this.value.endsWith("\\"))
      this.quoteAt = here;
    this.value += String.fromCharCode(byte);
    const limit = this.phase === 1 ? MAX_USER : MAX_USER + MAX_PASSWORD;
    return this.value.length > limit ? Verdict.Reject : Verdict.Hold;
  }

  /**
   * Not a placeholder, a scoped name or a path: a password, or a user that is a token (16 bytes or more, or 8 or more
   * shaped like one: `-u "d2LkV78zLx!t:"`); and not dictionary words of
   * documentation (`test:test`, `user:pass`, `username:password`, `xxx:yyy`).
   */
  credible(): boolean {
    const user = this.value.slice(0, this.colon);
    const password = this.value.slice(this.colon + 1);
    if (PLACEHOLDER.test(user) || PLACEHOLDER.test(password)) return false;
    // A scoped name (`perldoc -u Some::Module`) or a path (`git add -u :/`); an escaped
    // closing quote (`-u \"token:\"` inside a string) is no password of its own.
    const bare = password.replace(/\\*["']$/, "");
    if (password.startsWith(":") || (bare !== "" && !/[A-Za-z0-9]/.test(bare))) return false;
    if (password === "") return user.length >= 16 || TOKEN_USER.test(user);
    return !(/^[A-Za-z]{1,8}$/.test(password) && /^[A-Za-z_]*$/.test(user));
  }

  end(): Verdict {
    if (this.quoteAt >= 0) {
      this.value = this.value.slice(0, -1);
      this.to = this.quoteAt;
    }
    return this.phase === 2 && this.credible() ? Verdict.Close : Verdict.Reject;
  }
}

keepShape(new BasicAuthCandidate(2));
