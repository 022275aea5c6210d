/**
 * Passwords in SQL, as migrations, database logs and `psql -e` echo them: a string literal
 * after `PASSWORD` (PostgreSQL's `CREATE ROLE … WITH [ENCRYPTED] PASSWORD '…'`, `ALTER USER
 * … PASSWORD '…'`) or after `IDENTIFIED BY` (MySQL, MariaDB, Oracle; also `IDENTIFIED WITH
 * <plugin> BY '…'`, whose `_password BY '` is an anchor, and the hash a dump or `SHOW CREATE
 * USER` prints, `IDENTIFIED WITH 'mysql_native_password' AS '*…'`, `… 'caching_sha2_password'
 * AS '$A$005$…'`, and MariaDB's `IDENTIFIED BY PASSWORD '*…'`). The literal's characters are
 * redacted, its quotes and the statement stay; SQL's doubled quote (`'it''s'`) is part of
 * it, and MySQL's `IDENTIFIED BY "…"` is read the same way, as is MySQL's `SET PASSWORD
 * [FOR account] = '…'` (also `= PASSWORD('…')`, and `PASSWORD('…')` anywhere). Oracle's
 * unquoted `IDENTIFIED BY word` is redacted to the word's end.
 * After a keyword not in capitals (prose also says "a library identified by 'name'",
 * "password 'secret' will be sent"), the literal must look like a password: 6+ bytes with
 * a letter and a digit, no blank; so must Oracle's word, which must also end the statement
 * (`;`, the line's end) or come before one of its clauses (`default tablespace …`): prose
 * says "identified by the server", "identified by sha256 digests". Placeholders (`'${PW}'`,
 * `'%s'`, `':pw'`, `'<password>'`) and an empty literal stay.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("ALTER ROLE app WITH PASSWORD 'Zx9Kq2Lm8'; COMMIT;");
 * // "ALTER ROLE app WITH PASSWORD '[REDACTED:sql-password]'; COMMIT;"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet } from "./byte-classes.js";
import { CLOSED, EscapedLiteral, IN_RUN, OPENED, OPENING } from "./escaped-literal.js";
import { keepShape } from "./kept-shapes.js";

/** Most bytes of a literal (a password, not a document). */
const MAX_LITERAL = 256;
const QUOTE = 0x27;
const EQUALS = 0x3d;
/** MySQL's `PASSWORD(` function before a literal, as compared (lowercase). */
const CALL = "password(";
/** Most bytes of a clause's keyword, and of the blanks before it. */
const MAX_CLAUSE = 10;
const DOUBLE_QUOTE = 0x22;
const DOUBLE_QUOTES = byteSet('"');
const BACKSLASH = 0x5c;
/** Bytes that start a placeholder, not a password (`&pw` is SQL*Plus's; `...`, `…`). */
const PLACEHOLDER = byteSet("$%{<:?&.\x80-\xff");
/** The same after `AS '`, where a hash may start with `$` (`$A$005$…`). */
const HASH_PLACEHOLDER = byteSet("%{<:?&.\x80-\xff");
/** Bytes that end Oracle's unquoted password. */
const WORD_END = byteSet(" \t\r\n;\"'(),\\");
/** Bytes that end a statement after a lowercase `identified by word` (a backslash: a string's `\n`). */
const STATEMENT_END = byteSet("\r\n;\\");
/** Bytes of the account in `SET PASSWORD FOR account =` (`'bob'@'%'`, `app@localhost`). */
const ACCOUNT = byteSet(" \tA-Za-z0-9_.%@'\"`-");
/** Most bytes of `FOR account` before the `=`. */
const MAX_ACCOUNT = 96;
/** Clauses of `CREATE USER`/`ALTER USER` that may follow Oracle's password. */
const USER_CLAUSES = new Set([
  "default",
  "temporary",
  "quota",
  "profile",
  "password",
  "account",
  "container",
]);
const LETTER = 1;
const DIGIT = 2;
const BLANK_SEEN = 4;
/** Per byte: a letter, a digit or a blank (the `strict` test). */
const SHAPE = (() => {
  const table = new Uint8Array(256);
  for (let b = 0x41; b <= 0x5a; b++) table[b] = LETTER;
  for (let b = 0x61; b <= 0x7a; b++) table[b] = LETTER;
  for (let b = 0x30; b <= 0x39; b++) table[b] = DIGIT;
  table[0x20] = BLANK_SEEN;
  table[0x09] = BLANK_SEEN;
  return table;
})();
/** Bytes that may stand before the keyword (not a longer word: `old_password '`). */
const BEFORE = byteSet(" \t\r\n(\"'`");

const Mode = {
  /** After `IDENTIFIED BY`: blanks, then a literal or a word. */
  Before: 0,
  /** Inside the literal. */
  Quoted: 1,
  /** Oracle's unquoted word. */
  Word: 2,
  /** After a lowercase `identified by`: a literal, or a word that ends the statement. */
  BeforeQuote: 3,
  /** After `SET PASSWORD`: the account and `=` before the literal (see `SetPasswordLead`). */
  Account: 4,
} as const;

export const SQL_PASSWORD_RULE: MatcherRule = {
  kind: "matcher",
  name: "sql-password",
  anchors: [
    "PASSWORD '",
    "password '",
    "Password '",
    "_password BY '",
    "_password by '",
    "_password AS '",
    "_password as '",
    "_password' AS '",
    "_password' as '",
    "BY VALUES '",
    "by values '",
    "IDENTIFIED BY",
    "identified by",
    "SET PASSWORD",
    "set password",
    "PASSWORD('",
    "password('",
  ],
  // A literal and its quotes, or Oracle's word, a blank and a clause's keyword.
  maxLength: MAX_LITERAL + 16,
  start(match): Candidate | undefined {
    // `_password BY '` stands inside `mysql_native_password BY '`: its own word before it.
    const inWord = match.anchor.startsWith("_");
    if (!inWord && match.before >= 0 && BEFORE[match.before] !== 1) return undefined;
    const anchor = match.anchor;
    const mode = anchor.endsWith("'")
      ? Mode.Quoted
      : anchor === "IDENTIFIED BY"
        ? Mode.Before
        : anchor === "identified by"
          ? Mode.BeforeQuote
          : Mode.Account;
    // Keywords not in capitals are also prose ("a library identified by 'name'"): their
    // literal must look like a password (6+ bytes with a letter and a digit, no blank).
    const strict = !inWord && match.anchor !== match.anchor.toUpperCase();
    const hash = / (as|values) '$/i.test(anchor);
    return new SqlPasswordCandidate(
      match.length,
      mode,
      strict,
      hash ? HASH_PLACEHOLDER : PLACEHOLDER,
    );
  },
};

/** One SQL password literal (or Oracle word), from the byte after its anchor. */
class SqlPasswordCandidate implements Candidate {
  from: number;
  mode: number;
  /** Offset (from the anchor) of the byte read last. */
  here: number;
  /** Bytes of the password read. */
  length = 0;
  /** A quote was read: it closes the literal unless another quote follows (`''`). */
  quoteAt = -1;
  to: number | undefined = undefined;
  /** The literal's quote. */
  quote = QUOTE;
  /** The backslashes before the literal's quote when escaped (inside a JSON string: `\"…\"`). */
  escapes: EscapedLiteral | null = null;
  /** The first bytes of Oracle's word (`VALUES` is a hash's keyword, not a password). */
  word = "";
  /** `SET PASSWORD`'s account and `=` before the literal (in `Mode.Account`). */
  lead: SetPasswordLead | null = null;
  /** After a lowercase `identified by word` and a blank: the clause that may follow. */
  clause: ClauseWord | null = null;
  /** Letters, digits and blanks seen in the literal (for `strict`). */
  shape = 0;

  constructor(
    anchorLength: number,
    mode: number,
    /** The literal must look like a password (see `SQL_PASSWORD_RULE.start`). */
    private readonly strict: boolean,
    /** Bytes that, first in the literal, make it a placeholder. */
    private readonly placeholder: Uint8Array,
  ) {
    this.from = anchorLength;
    this.here = anchorLength - 1;
    this.mode = mode;
    if (mode === Mode.Account) this.lead = new SetPasswordLead();
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    if (this.mode === Mode.Account) return this.account(byte, here);
    if (this.clause !== null) return this.clause.next(byte, here);
    if (this.mode === Mode.Before || this.mode === Mode.BeforeQuote) {
      this.from = here + 1;
      if (byte === 0x20 || byte === 0x09) return here > 64 ? Verdict.Reject : Verdict.Hold;
      // `IDENTIFIED BY \"…\"` inside a JSON string: the literal ends at `\"`.
      if (byte === BACKSLASH || this.escapes !== null) {
        this.escapes ??= new EscapedLiteral();
        const opened = this.escapes.opening(byte, DOUBLE_QUOTES);
        if (opened !== OPENED) return opened === OPENING ? Verdict.Hold : Verdict.Reject;
      }
      if (byte === QUOTE || byte === DOUBLE_QUOTE) {
        // MySQL also takes `IDENTIFIED BY "…"`.
        this.quote = byte;
        this.mode = Mode.Quoted;
        return Verdict.Hold;
      }
      this.from = here;
      this.mode = Mode.Word;
    }
    if (this.length === 0 && this.quoteAt < 0 && this.placeholder[byte] === 1)
      return Verdict.Reject;
    // `'${HASH}'` after `AS '`, where a `$` may start a hash: a template's placeholder.
    if (this.length === 1 && byte === 0x7b && this.placeholder === HASH_PLACEHOLDER)
      return Verdict.Reject;
    if (this.escapes !== null && this.mode === Mode.Quoted) return this.escapedLiteral(byte, here);
    if (this.mode === Mode.Word) {
      if (WORD_END[byte] === 1) {
        if (this.strict) return this.wordEnd(byte, here);
        return this.length > 0 && !isKeyword(this.word, this.length)
          ? Verdict.Close
          : Verdict.Reject;
      }
      if (this.length < 8) this.word += String.fromCharCode(byte);
      this.shape |= SHAPE[byte]!;
      return ++this.length > MAX_LITERAL ? Verdict.Reject : Verdict.Hold;
    }
    if (this.quoteAt >= 0) {
      if (byte !== this.quote) return this.closed(); // the quote closed the literal
      this.quoteAt = -1; // `''`: a quote inside the password
      this.length += 2;
      return Verdict.Hold;
    }
    if (byte === this.quote) {
      this.quoteAt = here;
      return Verdict.Hold;
    }
    if (byte === 0x0a || byte === 0x0d) return Verdict.Reject;
    this.shape |= SHAPE[byte]!;
    return ++this.length > MAX_LITERAL ? Verdict.Reject : Verdict.Hold;
  }

  /** A byte of `SET PASSWORD`'s account and `=`: nothing is claimed before the literal. */
  private account(byte: number, here: number): Verdict {
    this.from = here + 1;
    const quote = this.lead!.next(byte, here);
    if (quote === LEAD_REJECT) return Verdict.Reject;
    if (quote !== LEAD_HOLD) [this.quote, this.mode] = [quote, Mode.Quoted];
    return Verdict.Hold;
  }

  /**
   * The byte after a lowercase `identified by word`: the word is the password when shaped
   * like one and the statement ends here, or a blank and a clause's keyword follow.
   */
  private wordEnd(byte: number, here: number): Verdict {
    if (!this.credible()) return Verdict.Reject;
    if (STATEMENT_END[byte] === 1) return Verdict.Close;
    if (byte !== 0x20 && byte !== 0x09) return Verdict.Reject;
    this.to = here;
    this.clause = new ClauseWord(here);
    return Verdict.Hold;
  }

  /** A byte of a literal whose quotes are escaped (see `EscapedLiteral`). */
  private escapedLiteral(byte: number, here: number): Verdict {
    const read = this.escapes!.read(byte, here, DOUBLE_QUOTE);
    if (read === IN_RUN) {
      this.quoteAt = this.escapes!.runAt; // the literal's end, if the input ends here
      return this.length + this.escapes!.run > MAX_LITERAL ? Verdict.Reject : Verdict.Hold;
    }
    if (read === CLOSED) return this.closed();
    this.quoteAt = -1;
    if (read > 0) {
      this.length += read + 1; // another escape: the password's
      return Verdict.Hold;
    }
    if (byte === 0x0a || byte === 0x0d) return Verdict.Reject;
    this.shape |= SHAPE[byte]!;
    return ++this.length > MAX_LITERAL ? Verdict.Reject : Verdict.Hold;
  }

  /** The literal closed at `quoteAt`: redacted up to there when credible. */
  private closed(): Verdict {
    this.to = this.quoteAt;
    return this.credible() ? Verdict.Close : Verdict.Reject;
  }

  /** A literal to redact: any, after a keyword in capitals; else one shaped like a password. */
  private credible(): boolean {
    if (this.length === 0) return false;
    return !this.strict || (this.length >= 6 && this.shape === (LETTER | DIGIT));
  }

  end(): Verdict {
    if (this.mode === Mode.Quoted) return this.quoteAt < 0 ? Verdict.Reject : this.closed();
    if (this.clause !== null) return this.clause.end();
    if (this.mode !== Mode.Word || isKeyword(this.word, this.length)) return Verdict.Reject;
    return this.credible() ? Verdict.Close : Verdict.Reject;
  }
}

/** {@link SetPasswordLead.next}: hold the byte; no literal follows. Else the literal's quote. */
const LEAD_HOLD = 0;
const LEAD_REJECT = -1;

/** MySQL's `SET PASSWORD [FOR account] = [PASSWORD(]` up to the literal's quote. */
class SetPasswordLead {
  private assigned = false;
  /** `PASSWORD(` as read so far, lowercase. */
  private call = "";

  /** {@link LEAD_HOLD}, {@link LEAD_REJECT}, or the quote that opens the literal. */
  next(byte: number, here: number): number {
    if (!this.assigned) {
      if (byte === EQUALS) this.assigned = true;
      else if (ACCOUNT[byte] !== 1 || here > MAX_ACCOUNT) return LEAD_REJECT;
      return LEAD_HOLD;
    }
    if (byte === 0x20 || byte === 0x09) return this.call === "" ? LEAD_HOLD : LEAD_REJECT;
    if ((byte === QUOTE || byte === DOUBLE_QUOTE) && (this.call === "" || this.call === CALL))
      return byte;
    this.call += String.fromCharCode(byte | 0x20);
    return CALL.startsWith(this.call) ? LEAD_HOLD : LEAD_REJECT;
  }
}

/** The word after Oracle's password and its blank, up to the byte after it: a clause's keyword? */
class ClauseWord {
  private word = "";

  /** `at`: the blank after the password. */
  constructor(private readonly at: number) {}

  next(byte: number, here: number): Verdict {
    const lower = byte | 0x20;
    if (lower >= 0x61 && lower <= 0x7a && this.word.length < MAX_CLAUSE) {
      this.word += String.fromCharCode(lower);
      return Verdict.Hold;
    }
    if (this.word === "" && (byte === 0x20 || byte === 0x09) && here - this.at < MAX_CLAUSE)
      return Verdict.Hold;
    return this.end();
  }

  end(): Verdict {
    return USER_CLAUSES.has(this.word) ? Verdict.Close : Verdict.Reject;
  }
}

keepShape(new SqlPasswordCandidate(10, Mode.Quoted, false, PLACEHOLDER));

/** Oracle's `VALUES` (a hash's literal follows) or MariaDB's `PASSWORD` (`BY PASSWORD '*…'`). */
function isKeyword(word: string, length: number): boolean {
  return (length === 6 && word === "VALUES") || (length === 8 && word.toUpperCase() === "PASSWORD");
}
