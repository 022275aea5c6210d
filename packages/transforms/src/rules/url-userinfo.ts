/**
 * Credentials in URLs: the userinfo of `scheme://user:password@host` (with a `:`, so
 * `ssh://git@host` stays). The candidate holds the authority after `://` to its end (a
 * byte that cannot be in it): the userinfo is what stands before its last `@` with a `:`
 * before it (a password may hold an `@`), and nothing is redacted without one; userinfo
 * still open after 512 bytes with a `:` in it and no `@` fails closed and is redacted to
 * its end.
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
const RUN_END = byteSet("/?#\"'<>\\`[] \t\r\n\v\f@");
for (let b = 0; b < 0x20; b++) RUN_END[b] = 1;
RUN_END[0x7f] = 1;
const MAX_USERINFO = 512;
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

  constructor(readonly from: number) {}

  get to(): number | undefined {
    return this.lastAt >= 0 ? this.lastAt : undefined;
  }

  next(byte: number): Verdict {
    if (byte === AT) {
      // A password may hold an `@` (`user:p@ss@host`): the userinfo ends at the
      // authority's last one, as URL parsers read it, so no piece is left after it.
      if (this.colon && (this.length > 0 || this.lastAt >= 0))
        this.lastAt = this.from + this.length;
      this.length++;
      return Verdict.Hold;
    }
    if (NOT_USERINFO[byte] === 1 || byte < 0x20 || byte === 0x7f) {
      if (this.lastAt >= 0) return Verdict.Close;
      return this.overlong ? Verdict.Close : Verdict.Reject;
    }
    if (byte === COLON) this.colon = true;
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
      if (byte === COLON) this.colon = true;
    }
    this.length += i - start;
    return i;
  }

  stateKey(): number | undefined {
    return this.overlong ? 0 : undefined;
  }

  end(): Verdict {
    return this.lastAt >= 0 ? Verdict.Close : Verdict.Reject;
  }
}

keepShape(new UserinfoCandidate(3));
