/**
 * MySQL's temporary root password, as `mysqld --initialize` writes it to the error log (and
 * `grep 'temporary password' /var/log/mysqld.log` prints it): `A temporary password is
 * generated for root@localhost: <password>`. Anchored at `password is generated for`, the
 * rule reads the account (no blank, up to its `: `) and redacts the password to the end of
 * its word: a blank, a line's end, a quote, or an escape ending a line inside a string
 * (`\n`, `\r`, `\t`). A password past {@link MAX_PASSWORD} bytes, or an account without its
 * `: `, says it is no such line.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("[Server] A temporary password is generated for root@localhost: k#9QhZu;tQg0w\n");
 * // "[Server] A temporary password is generated for root@localhost: [REDACTED:generated-password]\n"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";

/** Most bytes of the account (`user@host`). */
const MAX_ACCOUNT = 128;
/** Most bytes of the password: MySQL's are 12 characters. */
const MAX_PASSWORD = 64;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
/** Bytes that end the password, or that no account holds. */
const WORD_END = byteSet(" \t\r\n\"'");
/** Bytes after a backslash that end a line escaped inside a string. */
const STRING_ESCAPE = byteSet('nrt"');

/** The account, its `: `, then the password. */
class GeneratedPasswordCandidate implements Candidate {
  from: number;
  to: number | undefined = undefined;
  private here: number;
  /** -1 before the account's blank, 0 reading the account, 1 after its `:`, 2 the password. */
  private part = -1;
  private length = 0;
  private escaped = false;

  constructor(anchorLength: number) {
    this.from = anchorLength;
    this.here = anchorLength - 1;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    if (this.part < 2) {
      this.from = here + 1;
      if (this.part === -1) {
        if (byte !== 0x20) return Verdict.Reject;
        this.part = 0;
        return Verdict.Hold;
      }
      if (this.part === 1) {
        if (byte !== 0x20) return Verdict.Reject;
        this.part = 2;
        return Verdict.Hold;
      }
      if (byte === COLON && this.length > 0) {
        this.part = 1;
        this.length = 0;
        return Verdict.Hold;
      }
      if (WORD_END[byte] === 1 || ++this.length > MAX_ACCOUNT) return Verdict.Reject;
      return Verdict.Hold;
    }
    if (this.escaped) {
      this.escaped = false;
      if (STRING_ESCAPE[byte] === 1) return this.close(here - 1);
      return this.passwordByte(2);
    }
    if (byte === BACKSLASH) {
      this.escaped = true;
      return Verdict.Hold;
    }
    if (WORD_END[byte] === 1) return this.close(here);
    return this.passwordByte(1);
  }

  private passwordByte(bytes: number): Verdict {
    this.length += bytes;
    return this.length > MAX_PASSWORD ? Verdict.Reject : Verdict.Hold;
  }

  /** The password ends at `end` (from the anchor's start, excluded). */
  private close(end: number): Verdict {
    if (this.length === 0) return Verdict.Reject;
    this.to = end;
    return Verdict.Close;
  }

  end(): Verdict {
    if (this.part < 2 || this.length === 0) return Verdict.Reject;
    if (this.escaped) this.to = this.here; // a lone backslash at the end stays
    return Verdict.Close;
  }
}

export const GENERATED_PASSWORD_RULE: MatcherRule = {
  kind: "matcher",
  name: "generated-password",
  anchors: ["password is generated for"],
  maxLength: MAX_ACCOUNT + MAX_PASSWORD + 8,
  start: (match) => new GeneratedPasswordCandidate(match.length),
};

keepShape(new GeneratedPasswordCandidate(25));
