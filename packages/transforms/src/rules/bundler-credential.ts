/**
 * Bundler's credentials for a gem source, as its documentation gives them: the host's
 * setting `BUNDLE_<HOST>` (dots written `__`: `BUNDLE_GEMS__CONTRIBSYS__COM`) whose value is
 * `user:password`, set in the environment (`BUNDLE_…=user:pass`) or written by
 * `bundle config` to `.bundle/config` (`BUNDLE_…: "user:pass"`). The `user:password`
 * value is redacted, quotes (also escaped, inside a string) kept. A setting without a
 * host (`BUNDLE_PATH`, `BUNDLE_JOBS`), a gem's build flags, mirror or local path
 * (`BUNDLE_BUILD__…`, `BUNDLE_MIRROR__…`, `BUNDLE_LOCAL__…`), or a value without both
 * parts is not read.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("export BUNDLE_GEMS__CONTRIBSYS__COM=a1b2c3d4:e5f6a7b8");
 * // "export BUNDLE_GEMS__CONTRIBSYS__COM=[REDACTED:bundler-credential]"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { BLANK, byteSet, MAX_BACKSLASHES, QUOTES, withControls } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";
import { withNotBefore } from "./not-before.js";

/** Most bytes of the name after `BUNDLE_`. */
const MAX_NAME = 96;
/** Most blanks around the separator. */
const MAX_BLANKS = 8;
/** Most bytes of the user and of the password. */
const MAX_PART = 128;
const NAME = byteSet("A-Z0-9_");
/** Bytes that end the value (or make it no credential, before its `:`). */
const VALUE_END = withControls(byteSet(" \t\r\n\"'`\\"));
/** Settings whose `__` parts name a gem or a URL, not a host with credentials. */
const NOT_HOSTS = new Set(["BUILD", "MIRROR", "LOCAL"]);

const BACKSLASH = 0x5c;
/** Bytes that may not stand before `BUNDLE_` (it would be inside a longer name). */
const NAME_BEFORE = byteSet("A-Za-z0-9_");

const Phase = { Name: 0, Separator: 1, User: 2, Password: 3 } as const;

class BundlerCandidate implements Candidate {
  from: number;
  to: number | undefined = undefined;
  private here: number;
  private phase: number = Phase.Name;
  /** The name's first part (before its first `__`), until that `__` is read. */
  private first = "";
  private host = false;
  private underscores = 0;
  /** Bytes of the name, then of the user, then of the password. */
  private length = 0;
  /** The separator (`=` or `:`) once read, the blanks after it. */
  private separator = 0;
  private blanks = 0;
  /** The value's quote, or a backslash whose quote follows (inside a string), or 0. */
  private quote = 0;
  private backslashes = 0;

  constructor(anchorLength: number) {
    this.from = anchorLength;
    this.here = anchorLength - 1;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    switch (this.phase) {
      case Phase.Name:
        this.from = here + 1;
        if (NAME[byte] === 1) return this.nameByte(byte);
        if (!this.host || this.underscores > 0 || NOT_HOSTS.has(this.first)) return Verdict.Reject;
        this.phase = Phase.Separator;
        return this.separatorByte(byte);
      case Phase.Separator:
        this.from = here + 1;
        return this.separatorByte(byte);
      case Phase.User:
        if (byte === 0x3a && this.length > 0) {
          this.phase = Phase.Password;
          this.length = 0;
          return Verdict.Hold;
        }
        return byte === 0x40 ? Verdict.Reject : this.partByte(byte);
      default:
        // A quoted password may hold a blank; its quote ends it.
        if (VALUE_END[byte] === 1 && !(this.quote !== 0 && BLANK[byte] === 1))
          return this.close(here);
        return ++this.length > MAX_PART ? Verdict.Reject : Verdict.Hold;
    }
  }

  /** Blanks, `=` or `:`, blanks, a quote: then the value's first byte. */
  private separatorByte(byte: number): Verdict {
    if (this.quote === BACKSLASH) {
      // A run of backslashes reads as one (a string inside a string: `\\\"`).
      if (byte === BACKSLASH)
        return ++this.backslashes > MAX_BACKSLASHES ? Verdict.Reject : Verdict.Hold;
      if (QUOTES[byte] !== 1) return Verdict.Reject;
      this.quote = byte;
      return Verdict.Hold;
    }
    if (BLANK[byte] === 1 && this.quote === 0)
      return ++this.blanks > MAX_BLANKS ? Verdict.Reject : Verdict.Hold;
    if (this.separator === 0) {
      if (byte !== 0x3d && byte !== 0x3a) return Verdict.Reject;
      this.separator = byte;
      this.blanks = 0;
      return Verdict.Hold;
    }
    // YAML's `key: value` has a blank after its `:`.
    if (this.separator === 0x3a && this.blanks === 0) return Verdict.Reject;
    if (this.quote === 0 && (QUOTES[byte] === 1 || byte === BACKSLASH)) {
      this.quote = byte;
      return Verdict.Hold;
    }
    this.phase = Phase.User;
    this.length = 0;
    this.from = this.here;
    return this.partByte(byte);
  }

  private nameByte(byte: number): Verdict {
    if (++this.length > MAX_NAME) return Verdict.Reject;
    if (byte === 0x5f) {
      this.underscores++;
      return Verdict.Hold;
    }
    if (this.underscores >= 2) this.host = true;
    else if (!this.host)
      this.first += (this.underscores === 1 ? "_" : "") + String.fromCharCode(byte);
    this.underscores = 0;
    return Verdict.Hold;
  }

  private partByte(byte: number): Verdict {
    if (VALUE_END[byte] === 1) return Verdict.Reject;
    return ++this.length > MAX_PART ? Verdict.Reject : Verdict.Hold;
  }

  private close(end: number): Verdict {
    if (this.length === 0) return Verdict.Reject;
    this.to = end;
    return Verdict.Close;
  }

  end(): Verdict {
    return this.phase === Phase.Password && this.length > 0 ? Verdict.Close : Verdict.Reject;
  }
}

export const BUNDLER_CREDENTIAL_RULE: MatcherRule = withNotBefore(
  {
    kind: "matcher",
    name: "bundler-credential",
    anchors: ["BUNDLE_"],
    maxLength: MAX_NAME + 2 * MAX_PART + 16,
    start(match): Candidate | undefined {
      if (match.before >= 0 && NAME_BEFORE[match.before] === 1) return undefined;
      return new BundlerCandidate(match.length);
    },
  },
  NAME_BEFORE,
);

keepShape(new BundlerCandidate(7));
