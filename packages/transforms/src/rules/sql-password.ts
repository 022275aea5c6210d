/**
 * Passwords in SQL, as migrations, database logs and `psql -e` echo them: a string literal
 * after `PASSWORD` (PostgreSQL's `CREATE ROLE … WITH [ENCRYPTED] PASSWORD '…'`, `ALTER USER
 * … PASSWORD '…'`) or after `IDENTIFIED BY` (MySQL, MariaDB, Oracle; also `IDENTIFIED WITH
 * <plugin> BY '…'`, whose `_password BY '` is an anchor). The literal's characters are
 * redacted, its quotes and the statement stay; SQL's doubled quote (`'it''s'`) is part of
 * it, and MySQL's `IDENTIFIED BY "…"` is read the same way. Oracle's unquoted `IDENTIFIED
 * BY word` (in capitals: prose says "identified by the…") is redacted to the word's end.
 * Placeholders (`'${PW}'`, `'%s'`, `':pw'`, `'<password>'`) and an empty literal stay.
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
import { keepShape } from "./kept-shapes.js";

/** Most bytes of a literal (a password, not a document). */
const MAX_LITERAL = 256;
const QUOTE = 0x27;
const DOUBLE_QUOTE = 0x22;
/** Bytes that start a placeholder, not a password (`&pw` is SQL*Plus's). */
const PLACEHOLDER = byteSet("$%{<:?&");
/** Bytes that end Oracle's unquoted password. */
const WORD_END = byteSet(" \t\r\n;\"'(),\\");
/** Bytes that may stand before the keyword (not a longer word: `old_password '`). */
const BEFORE = byteSet(" \t\r\n(\"'`");

const Mode = {
  /** After `IDENTIFIED BY`: blanks, then a literal or a word. */
  Before: 0,
  /** Inside the literal. */
  Quoted: 1,
  /** Oracle's unquoted word. */
  Word: 2,
  /** After a lowercase `identified by` (prose says "identified by the …"): a literal only. */
  BeforeQuote: 3,
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
    "IDENTIFIED BY",
    "identified by",
  ],
  maxLength: MAX_LITERAL + 2,
  start(match): Candidate | undefined {
    // `_password BY '` stands inside `mysql_native_password BY '`: its own word before it.
    const inWord = match.anchor.startsWith("_");
    if (!inWord && match.before >= 0 && BEFORE[match.before] !== 1) return undefined;
    const mode = match.anchor.endsWith("'")
      ? Mode.Quoted
      : match.anchor === "IDENTIFIED BY"
        ? Mode.Before
        : Mode.BeforeQuote;
    return new SqlPasswordCandidate(match.length, mode);
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
  /** The first bytes of Oracle's word (`VALUES` is a hash's keyword, not a password). */
  word = "";

  constructor(anchorLength: number, mode: number) {
    this.from = anchorLength;
    this.here = anchorLength - 1;
    this.mode = mode;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    if (this.mode === Mode.Before || this.mode === Mode.BeforeQuote) {
      this.from = here + 1;
      if (byte === 0x20 || byte === 0x09) return here > 64 ? Verdict.Reject : Verdict.Hold;
      if (byte === QUOTE || byte === DOUBLE_QUOTE) {
        // MySQL also takes `IDENTIFIED BY "…"`.
        this.quote = byte;
        this.mode = Mode.Quoted;
        return Verdict.Hold;
      }
      if (this.mode === Mode.BeforeQuote) return Verdict.Reject;
      this.from = here;
      this.mode = Mode.Word;
    }
    if (this.length === 0 && this.quoteAt < 0 && PLACEHOLDER[byte] === 1) return Verdict.Reject;
    if (this.mode === Mode.Word) {
      if (WORD_END[byte] === 1)
        return this.length > 0 && !this.keyword ? Verdict.Close : Verdict.Reject;
      if (this.length < 6) this.word += String.fromCharCode(byte);
      return ++this.length > MAX_LITERAL ? Verdict.Reject : Verdict.Hold;
    }
    if (this.quoteAt >= 0) {
      if (byte !== this.quote) {
        // The quote closed the literal.
        this.to = this.quoteAt;
        return this.length > 0 ? Verdict.Close : Verdict.Reject;
      }
      this.quoteAt = -1; // `''`: a quote inside the password
      this.length += 2;
      return Verdict.Hold;
    }
    if (byte === this.quote) {
      this.quoteAt = here;
      return Verdict.Hold;
    }
    if (byte === 0x0a || byte === 0x0d) return Verdict.Reject;
    return ++this.length > MAX_LITERAL ? Verdict.Reject : Verdict.Hold;
  }

  private get keyword(): boolean {
    return this.length === 6 && this.word === "VALUES";
  }

  end(): Verdict {
    if (this.mode === Mode.Quoted) {
      if (this.quoteAt < 0 || this.length === 0) return Verdict.Reject;
      this.to = this.quoteAt;
      return Verdict.Close;
    }
    return this.mode === Mode.Word && this.length > 0 && !this.keyword
      ? Verdict.Close
      : Verdict.Reject;
  }
}

keepShape(new SqlPasswordCandidate(10, Mode.Quoted));
