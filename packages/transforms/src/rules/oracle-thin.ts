/**
 * Oracle's JDBC thin URL with its credentials inline, `jdbc:oracle:thin:user/password@host…`
 * (as Oracle's JDBC Developer's Guide writes it: `jdbc:oracle:thin:scott/tiger@//myhost:1521/orcl`),
 * in a properties file, a data source's XML or a log line: the password between the user's
 * `/` and the `@` that starts the connect descriptor. The user is a name (letters, digits,
 * `_`, `$`, `#`, `.`); the password holds no blank, quote, `/` or `@` (a quoted one is not
 * read); `jdbc:oracle:thin:@host…` (no user), a user with no `/` and a placeholder
 * (`scott/${DB_PASSWORD}@…`) stay.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("url=jdbc:oracle:thin:scott/Tiger123x@//db:1521/XE");
 * // "url=jdbc:oracle:thin:scott/[REDACTED:url-userinfo]@//db:1521/XE"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";

/** Most bytes of the user name, and of the password. */
const MAX_USER = 128;
const MAX_PASSWORD = 128;
const USER = byteSet("A-Za-z0-9_$#.");
/** Bytes no unquoted password holds: it is no such URL. */
const NOT_PASSWORD = byteSet(" \t\r\n\v\f\"'/\\<>;,");
/** First bytes of a placeholder (`${DB_PASSWORD}`, `%PW%`, `{pw}`). */
const PLACEHOLDER = byteSet("$%{");
const SLASH = 0x2f;
const AT = 0x40;

/** The user, its `/`, then the password to its `@`. */
class OracleThinCandidate implements Candidate {
  from: number;
  to: number | undefined = undefined;
  private here: number;
  private user = 0;
  private password = -1;

  constructor(anchorLength: number) {
    this.from = anchorLength;
    this.here = anchorLength - 1;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    if (this.password < 0) {
      // Nothing before the password is held.
      this.from = here + 1;
      if (byte === SLASH && this.user > 0) {
        this.password = 0;
        return Verdict.Hold;
      }
      return USER[byte] === 1 && ++this.user <= MAX_USER ? Verdict.Hold : Verdict.Reject;
    }
    if (byte === AT) {
      if (this.password === 0) return Verdict.Reject;
      this.to = here;
      return Verdict.Close;
    }
    if (NOT_PASSWORD[byte] === 1 || ++this.password > MAX_PASSWORD) return Verdict.Reject;
    return this.password === 1 && PLACEHOLDER[byte] === 1 ? Verdict.Reject : Verdict.Hold;
  }

  end(): Verdict {
    return Verdict.Reject;
  }
}

export const ORACLE_THIN_RULE: MatcherRule = {
  kind: "matcher",
  name: "url-userinfo",
  anchors: ["jdbc:oracle:thin:"],
  maxLength: MAX_PASSWORD + 2,
  start: (match): Candidate => new OracleThinCandidate(match.length),
};

keepShape(new OracleThinCandidate(17));
