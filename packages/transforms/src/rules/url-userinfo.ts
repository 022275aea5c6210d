/**
 * Credentials in URLs: the userinfo of `scheme://user:password@host` (with a `:`, so
 * `ssh://git@host` stays), and a token given as the user alone (`https://<token>@dev.azure.com/…`,
 * `git clone https://<token>@github.com/…`) when it looks random: 20+ letters, digits, `_`
 * and `-`, letters and digits switching {@link TOKEN_SWITCHES}+ times (a Sentry DSN's public
 * key, 32 small hex digits, stays). The candidate holds the authority after `://` to its end
 * (a byte that cannot be in it): the userinfo is what stands before its last `@` with a `:`
 * before it (a password may hold an `@`), or before the first `@` of such a user; nothing is
 * redacted without one; userinfo still open after 512 bytes with a `:` in it and no `@` fails
 * closed and is redacted to its end. A password that is a variable or a template's field
 * (`${DB_PASSWORD}`, `$PW`, `{password}`, `%s`, `%(password)s`) stays, as one of `*` alone does.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("git clone https://oauth2:s3cr3t-t0ken@gitlab.example.com/x.git");
 * // "git clone https://[REDACTED:url-userinfo]@gitlab.example.com/x.git"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";

const SCHEME = byteSet("A-Za-z0-9+.-");
/** Bytes that cannot be in userinfo: it ends the candidate without a match. */
const NOT_USERINFO = byteSet("/?#\"'<>\\`[] \t\r\n\v\f");
/** Bytes that end a userinfo run: the above, `@` and control bytes. */
const RUN_END = byteSet("/?#\"'<>\\`[] \t\r\n\v\f@;=");
for (let b = 0; b < 0x20; b++) RUN_END[b] = 1;
RUN_END[0x7f] = 1;
const MAX_USERINFO = 512;
/** A user alone is a token from this many bytes. */
const MIN_TOKEN = 20;
/** …and this many switches between a letter and a digit. */
const TOKEN_SWITCHES = 4;
/** Kinds of a user's bytes: 1 a letter, 2 a digit, 3 `_` or `-`, 0 any other. */
const KIND = new Uint8Array(256);
for (let b = 0x41; b <= 0x5a; b++) KIND[b] = 1;
for (let b = 0x61; b <= 0x7a; b++) KIND[b] = 1;
for (let b = 0x30; b <= 0x39; b++) KIND[b] = 2;
KIND[0x5f] = 3;
KIND[0x2d] = 3;
/** Bytes that are no small hex digit (a Sentry key is 32 of them). */
const NOT_HEX = byteSet("g-zA-Z_-");
/** First bytes of a variable or a template's field (see `UserinfoCandidate.template`). */
const TEMPLATE_START = byteSet("${%");
const TEMPLATE_BYTE = byteSet("A-Za-z0-9_.{}()");
const NAME_END = byteSet("A-Za-z0-9_");
const LETTER = byteSet("A-Za-z");
const AT = 0x40;
const COLON = 0x3a;

export const URL_USERINFO_RULE: MatcherRule = {
  kind: "matcher",
  name: "url-userinfo",
  anchors: ["://"],
  maxLength: 3 + MAX_USERINFO + 1,
  start(match): Candidate | undefined {
    if (match.before < 0 || SCHEME[match.before] !== 1) return undefined;
    return new UserinfoCandidate(match.length);
  },
};

/** One authority after `://` (a class, not a literal of closures: one allocation a URL). */
class UserinfoCandidate implements Candidate {
  /** Authority bytes read. */
  length = 0;
  colon = false;
  overlong = false;
  /** Where the userinfo ends: the last `@` of the authority with a `:` before it, or -1. */
  lastAt = -1;
  /** The user so far as a token: its letter/digit switches, -1 once a byte is no token's. */
  switches = 0;
  /** The kind (see `KIND`) of the user's last letter or digit, and whether one was no hex. */
  lastKind = 0;
  notHex = false;
  /** The password: 0 none yet, 1 `*` alone so far (masked), 2 anything else. */
  masked = 0;
  /** Whether the password is a variable or a template's field. */
  readonly template = new PasswordTemplate();
  /** Digits after the first `:` and nothing else so far (a port), or -1. */
  digits = 0;
  /** A `;` came right after such a port: a `=` before any `@` shows properties follow. */
  portSemi = false;

  constructor(readonly from: number) {}

  get to(): number | undefined {
    return this.lastAt >= 0 ? this.lastAt : undefined;
  }

  next(byte: number): Verdict {
    if (byte === AT) {
      // A password of `*` alone is one a tool masked (pip's `https://user:****@host`); an
      // empty one is none (`https://username:@pypi…`).
      if (this.colon && (this.masked === 1 || (this.masked === 0 && this.lastAt < 0)))
        return Verdict.Reject;
      // A variable or a template's field stands for the password (`https://user:${PASSWORD}@…`).
      if (this.colon && this.lastAt < 0 && this.template.templated()) return Verdict.Reject;
      // A password may hold an `@` (`user:p@ss@host`): the userinfo ends at the
      // authority's last one, as URL parsers read it, so no piece is left after it.
      if (this.colon && (this.length > 0 || this.lastAt >= 0))
        this.lastAt = this.from + this.length;
      else if (this.lastAt < 0 && this.tokenUser()) return this.userEnds();
      this.length++;
      return Verdict.Hold;
    }
    // A port, then `;` and the driver's properties (`jdbc:sqlserver://host:1433;user=u@x;…`):
    // no userinfo, though an `@` may follow.
    if (byte === 0x3b && this.digits > 0 && this.lastAt < 0) this.portSemi = true;
    if (byte === 0x3d && this.portSemi && this.lastAt < 0) return Verdict.Reject;
    if (NOT_USERINFO[byte] === 1 || byte < 0x20 || byte === 0x7f) {
      if (this.lastAt >= 0) return Verdict.Close;
      return this.overlong ? Verdict.Close : Verdict.Reject;
    }
    this.notePassword(byte);
    if (byte === COLON) this.colon = true;
    else if (this.switches >= 0) this.userByte(byte);
    if (++this.length > MAX_USERINFO) {
      if (this.lastAt >= 0) return Verdict.Close;
      if (!this.colon) return Verdict.Reject;
      this.overlong = true;
      return Verdict.Redact;
    }
    return Verdict.Hold;
  }

  skip(input: Uint8Array, start: number, end: number): number {
    // Userinfo bytes: held up to the limit, redacted past it.
    const stop = this.overlong ? end : Math.min(end, start + (MAX_USERINFO - this.length));
    let i = start;
    for (; i < stop; i++) {
      const byte = input[i]!;
      if (RUN_END[byte] === 1) break;
      this.notePassword(byte);
      if (byte === COLON) this.colon = true;
      else if (this.switches >= 0) this.userByte(byte);
    }
    this.length += i - start;
    return i;
  }

  /** After the first `:`: whether the password so far is `*` alone (see `masked`). */
  notePassword(byte: number): void {
    if (!this.colon) return;
    if (this.digits >= 0) this.digits = byte >= 0x30 && byte <= 0x39 ? this.digits + 1 : -1;
    if (byte !== 0x2a) this.masked = 2;
    else if (this.masked === 0) this.masked = 1;
    this.template.note(byte);
  }

  /** A byte of the user (no `:` yet, or one after it: then no token user is read). */
  userByte(byte: number): void {
    const kind = KIND[byte]!;
    if (kind === 0 || this.colon) {
      this.switches = -1;
      return;
    }
    if (kind !== 3) {
      if (this.lastKind !== 0 && kind !== this.lastKind) this.switches++;
      this.lastKind = kind;
    }
    if (NOT_HEX[byte] === 1) this.notHex = true;
  }

  /** The bytes before this `@` are a user that is a token (see the file's comment). */
  tokenUser(): boolean {
    return (
      !this.colon &&
      this.switches >= TOKEN_SWITCHES &&
      this.length >= MIN_TOKEN &&
      (this.notHex || this.length !== 32)
    );
  }

  /** The token user ends at this `@`: the span closes here, the host is not read. */
  userEnds(): Verdict {
    this.lastAt = this.from + this.length;
    return Verdict.Close;
  }

  stateKey(): number | undefined {
    return this.overlong ? 0 : undefined;
  }

  end(): Verdict {
    return this.lastAt >= 0 ? Verdict.Close : Verdict.Reject;
  }
}

/**
 * A URL's password as a variable or a template's field (`${PASSWORD}`, `$DB_PASS`,
 * `{password}`, `%s`, `%(password)s`), read a byte at a time.
 */
class PasswordTemplate {
  /** 0 nothing read yet, 1 a template so far, 2 not one. */
  state = 0;
  /** The password's first byte, its second and its last. */
  first = -1;
  second = -1;
  last = -1;

  note(byte: number): void {
    if (this.state === 0) {
      this.state = TEMPLATE_START[byte] === 1 ? 1 : 2;
      this.first = byte;
    } else if (this.state === 1 && TEMPLATE_BYTE[byte] !== 1) this.state = 2;
    if (this.second < 0 && this.last >= 0) this.second = byte;
    // After `$NAME` only the name's bytes: `$PW}x` is none.
    if (this.state === 1 && this.first === 0x24 && this.second !== 0x7b && byte === 0x7d)
      this.state = 2;
    this.last = byte;
  }

  /** The password read is one (see the class). */
  templated(): boolean {
    if (this.state !== 1) return false;
    const last = this.last;
    // `{password}` and `${PASSWORD}` close their brace; `$PASSWORD` ends a name; `%s` and
    // `%(password)s` end at a conversion's letter.
    if (this.first === 0x7b) return last === 0x7d;
    if (this.first === 0x24) return this.second === 0x7b ? last === 0x7d : NAME_END[last] === 1;
    return LETTER[last] === 1;
  }
}

keepShape(new UserinfoCandidate(3));
