/**
 * Passwords in SQL, as migrations, database logs and `psql -e` echo them: a string literal
 * after `PASSWORD` (PostgreSQL's `CREATE ROLE … WITH [ENCRYPTED] PASSWORD '…'`, `ALTER USER
 * … PASSWORD '…'`) or after `IDENTIFIED BY` (MySQL, MariaDB, Oracle; also `IDENTIFIED WITH
 * <plugin> BY '…'`, whose `_password BY '` is an anchor). The literal's characters are
 * redacted, its quotes and the statement stay; SQL's doubled quote (`'it''s'`) is part of
 * it, and MySQL's `IDENTIFIED BY "…"` is read the same way. Oracle's unquoted `IDENTIFIED
 * BY word` (in capitals: prose says "identified by the…") is redacted to the word's end.
 * After a keyword not in capitals (prose also says "a library identified by 'name'",
 * "password 'secret' will be sent"), the literal must look like a password: 6+ bytes with
 * a letter and a digit, no blank. Placeholders (`'${PW}'`, `'%s'`, `':pw'`, `'<password>'`)
 * and an empty literal stay.
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
const BACKSLASH = 0x5c;
/** Bytes that start a placeholder, not a password (`&pw` is SQL*Plus's; `...`, `…`). */
const PLACEHOLDER = byteSet("$%{<:?&.\x80-\xff");
/** Bytes that end Oracle's unquoted password. */
const WORD_END = byteSet(" \t\r\n;\"'(),\\");
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
    // Keywords not in capitals are also prose ("a library identified by 'name'"): their
    // literal must look like a password (6+ bytes with a letter and a digit, no blank).
    const strict = !inWord && match.anchor !== match.anchor.toUpperCase();
    return new SqlPasswordCandidate(match.length, mode, strict);
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
  /** The literal's quotes are escaped (`\"…\"`, inside a JSON string). */
  escapedQuote = false;
  /** The first bytes of Oracle's word (`VALUES` is a hash's keyword, not a password). */
  word = "";

  /** Letters, digits and blanks seen in the literal (for `strict`). */
  shape = 0;

  constructor(
    anchorLength: number,
    mode: number,
    /** The literal must look like a password (see `SQL_PASSWORD_RULE.start`). */
    private readonly strict: boolean,
  ) {
    this.from = anchorLength;
    this.here = anchorLength - 1;
    this.mode = mode;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    if (this.mode === Mode.Before || this.mode === Mode.BeforeQuote) {
      this.from = here + 1;
      if (byte === 0x20 || byte === 0x09) return here > 64 ? Verdict.Reject : Verdict.Hold;
      // `IDENTIFIED BY \"…\"` inside a JSON string: the literal ends at `\"`.
      if (byte === BACKSLASH && !this.escapedQuote) {
        this.escapedQuote = true;
        return Verdict.Hold;
      }
      if (this.escapedQuote && byte !== DOUBLE_QUOTE) return Verdict.Reject;
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
    if (this.escapedQuote && this.mode === Mode.Quoted) return this.escapedLiteral(byte, here);
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
        return this.credible() ? Verdict.Close : Verdict.Reject;
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
    this.shape |= SHAPE[byte]!;
    return ++this.length > MAX_LITERAL ? Verdict.Reject : Verdict.Hold;
  }

  /** A byte of a literal whose quotes are escaped (`\"…\"`): a backslash and the quote end it. */
  private escapedLiteral(byte: number, here: number): Verdict {
    if (this.quoteAt >= 0) {
      if (byte !== DOUBLE_QUOTE) {
        this.quoteAt = -1; // another escape: the password's
        this.length += 2;
        return Verdict.Hold;
      }
      this.to = this.quoteAt;
      return this.credible() ? Verdict.Close : Verdict.Reject;
    }
    if (byte === BACKSLASH) {
      this.quoteAt = here;
      return Verdict.Hold;
    }
    if (byte === 0x0a || byte === 0x0d) return Verdict.Reject;
    this.shape |= SHAPE[byte]!;
    return ++this.length > MAX_LITERAL ? Verdict.Reject : Verdict.Hold;
  }

  /** A literal to redact: any, after a keyword in capitals; else one shaped like a password. */
  private credible(): boolean {
    if (this.length === 0) return false;
    return !this.strict || (this.length >= 6 && this.shape === (LETTER | DIGIT));
  }

  private get keyword(): boolean {
    return this.length === 6 && this.word === "VALUES";
  }

  end(): Verdict {
    if (this.mode === Mode.Quoted) {
      if (this.quoteAt < 0 || !this.credible()) return Verdict.Reject;
      this.to = this.quoteAt;
      return Verdict.Close;
    }
    return this.mode === Mode.Word && this.length > 0 && !this.keyword
      ? Verdict.Close
      : Verdict.Reject;
  }
}

keepShape(new SqlPasswordCandidate(10, Mode.Quoted, false));
