/**
 * PostgreSQL's password file (`~/.pgpass`, `PGPASSFILE`), as `cat` prints it: a line
 * `hostname:port:database:username:password` whose first four fields may be `*` and whose
 * `:` and `\` inside a field are escaped (`\:`, `\\`). Anchored at the port field, `5432`
 * (PostgreSQL's port; `15432` too), `6432` (PgBouncer's) or `*`, the rule reads two more fields
 * (no blank, no unescaped `:`) and redacts the password to the end of its line (or of the
 * string the line is escaped in, once or more: `\n`, `\\n`, `\r`, `\t`, `\"`); an
 * unescaped `:` in it, an empty one, one without a letter or a digit (an IPv6 wildcard,
 * `*:*:*:*:*:*:*:*`), a `*` and a sign (the wildcard's last group inside a string) or a line
 * past {@link MAX_LINE} bytes says it is no such line. The host
 * before the anchor stays (it is read as written, never held).
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("db.internal:5432:app:deploy:Vq7pLm2xZ9wR\n");
 * // "db.internal:5432:app:deploy:[REDACTED:pgpass-password]\n"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { ALNUM, byteSet, CONTROL, ESCAPED_END, withControls } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";

/** Most bytes read after the port field (database, user and password). */
const MAX_LINE = 256;
/** Most bytes of the database and user fields. */
const MAX_FIELD = 64;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
/** Bytes no field holds unescaped: blanks, line ends, quotes. */
const FIELD_END = withControls(byteSet(" \t\r\n\"'"));
/** Bytes that may end a host name just before the port field. */
const HOST_END = byteSet("A-Za-z0-9.*]-");

/** The two fields after the port, then the password. */
class PgpassCandidate implements Candidate {
  from: number;
  to: number | undefined = undefined;
  private here: number;
  /** Fields done after the port: 0 reading the database, 1 the user, 2 the password. */
  private field = 0;
  private length = 0;
  /** Backslashes in a row just read, and where the run began. */
  private slashes = 0;
  private slashFrom = 0;
  /** The password holds a letter or a digit (`*:*:*:*:*`, an IPv6 wildcard, is no line). */
  private alnum = false;
  /** The byte just read in the password is `<`. */
  private lt = false;
  /** The password's first byte is `*`. */
  private star = false;
  /** The field being read is `*` so far. */
  private fieldStar = false;

  constructor(anchorLength: number) {
    this.from = anchorLength;
    this.here = anchorLength - 1;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    if (here > MAX_LINE) return Verdict.Reject;
    if (byte === BACKSLASH) {
      if (this.slashes++ === 0) this.slashFrom = here;
      if (this.field < 2) this.from = here + 1;
      return Verdict.Hold;
    }
    const slashes = this.slashes;
    this.slashes = 0;
    // A run of backslashes before an escape's letter ends a line escaped inside a string,
    // once (`\n`) or more (`\\n`, a string inside a string): pgpass's own `\\` is then
    // read as the escape's, since a line end taken for a password's byte would take the
    // next line with it.
    const lineEnd = slashes > 0 && ESCAPED_END[byte] === 1;
    if (this.field < 2) {
      this.from = here + 1;
      if (lineEnd) return Verdict.Reject;
      this.length += slashes >> 1;
      if (slashes % 2 === 1) return this.fieldByte();
      if (byte === COLON) {
        if (this.length === 0) return Verdict.Reject;
        this.field++;
        this.length = 0;
        this.fieldStar = false;
        return Verdict.Hold;
      }
      // `*` stands for a whole field, never beside other bytes (`4*`, `*)`: a glob, as in
      // `config.guess`'s `(mips:*:4*:UMIPS)`).
      if (byte === 0x2a ? this.length > 0 : this.fieldStar) return Verdict.Reject;
      this.fieldStar = byte === 0x2a;
      return FIELD_END[byte] === 1 ? Verdict.Reject : this.fieldByte();
    }
    if (lineEnd) return this.close(this.slashFrom);
    this.length += slashes;
    // `\:`, `\x`: an escaped byte, the password's own.
    if (slashes % 2 === 1) {
      this.length++;
      return Verdict.Hold;
    }
    return this.passwordByte(byte, here);
  }

  private fieldByte(): Verdict {
    return ++this.length > MAX_FIELD ? Verdict.Reject : Verdict.Hold;
  }

  /** An unescaped byte of the password: to the end of its line. */
  private passwordByte(byte: number, here: number): Verdict {
    if (byte === 0x0a || byte === 0x0d || byte === 0x22 || CONTROL[byte] === 1)
      return this.close(here);
    if (byte === COLON) return Verdict.Reject;
    // `*` and no letter or digit: an IPv6 wildcard's last group (`…:*:*:*:*')`), not a
    // password; nor is a blank first (prose after a colon: `(pc:*:*:*): Return …`).
    if (this.length === 0) {
      if (byte === 0x20 || byte === 0x09) return Verdict.Reject;
      this.star = byte === 0x2a;
    } else if (this.length === 1 && this.star && ALNUM[byte] !== 1) return Verdict.Reject;
    if (ALNUM[byte] === 1) this.alnum = true;
    // A closing tag: the line is markup (Maven's `<include>g.a:*:*:*:test</include>`).
    if (this.lt && byte === 0x2f) return Verdict.Reject;
    this.lt = byte === 0x3c;
    this.length++;
    return Verdict.Hold;
  }

  /** The password ends at `end` (from the anchor's start, excluded). */
  private close(end: number): Verdict {
    if (this.length === 0 || !this.alnum) return Verdict.Reject;
    this.to = end;
    return Verdict.Close;
  }

  end(): Verdict {
    if (this.field < 2 || this.length === 0 || !this.alnum) return Verdict.Reject;
    // A lone backslash at the end stays (an escape cut short).
    if (this.slashes % 2 === 1) this.to = this.here;
    return Verdict.Close;
  }
}

export const PGPASS_RULE: MatcherRule = {
  kind: "matcher",
  name: "pgpass-password",
  // `432:` for `:5432:` and `:6432:`: an anchor with the port's first digit would stop the
  // scan at every `host:5432/db` of a connection URL.
  anchors: ["432:", ":*:"],
  maxLength: MAX_LINE + 8,
  start(match): Candidate | undefined {
    if (match.anchor === "432:") {
      // The port's first digit, and the `:` before it (the name run before `432` is `5`).
      if ((match.before !== 0x35 && match.before !== 0x36) || match.nameBefore !== COLON)
        return undefined;
    } else if (match.before < 0 || HOST_END[match.before] !== 1 || match.nameBefore === COLON) {
      // The `*` port field follows a host name (or `*`), not the start of the text or a blank,
      // nor a field of a longer colon list (Maven's `group:artifact:*:jar:*:classes`).
      return undefined;
    }
    return new PgpassCandidate(match.length);
  },
};

keepShape(new PgpassCandidate(6));
