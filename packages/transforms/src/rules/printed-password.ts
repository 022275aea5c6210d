/**
 * Passwords a server prints after a header that names them:
 *
 * - MySQL's temporary root password (`mysql-temporary-password`), the error log's line that
 *   `mysqld --initialize` writes and `grep 'temporary password' /var/log/mysqld.log` prints:
 *   `A temporary password is generated for root@localhost: <password>` (the account, no
 *   blank in it, up to its `: `);
 * - Elasticsearch's `elastic` superuser (`elastic-password`), on a node's first start
 *   (`Password for the elastic user (reset with ``bin/elasticsearch-reset-password -u
 *   elastic``):` and the password alone on the next line, indented) and after
 *   `elasticsearch-reset-password` (`Password for the [elastic] user successfully reset.`
 *   and `New value: <password>` on the next line);
 * - Jenkins' initial admin password (`jenkins-initial-password`), in the log of its first
 *   start (`Please use the following password to proceed to installation:`, a blank line,
 *   the password).
 *
 * Anchored at the header's first words, the others' rules read the rest of that line (at most
 * {@link MAX_LINE} bytes; a header that gives the password on the next line must end with
 * `:`), then blank lines and the next line's blanks (and the reset's `New value:`), and
 * redacts the password to the end of its word: a blank, a line's end, a quote, or an escape
 * ending a line inside a string (`\n`, `\r`, `\t`).
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("Password for the [elastic] user successfully reset.\nNew value: Zq8v*Lm2xQw9rTy6uI=o\n");
 * // "Password for the [elastic] user successfully reset.\nNew value: [REDACTED:elastic-password]\n"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { BLANK, byteSet, CONTROL, ESCAPED_END, withControls } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";

/** Most bytes of the anchor's line after it, and of the blanks before the password. */
const MAX_LINE = 256;
/** Most bytes of the password: MySQL's are 12 characters, Elasticsearch's 20, Jenkins' 32. */
const MAX_PASSWORD = 128;
const BACKSLASH = 0x5c;
/** Bytes that end the password. */
const WORD_END = withControls(byteSet(" \t\r\n\"'"));
/** What the reset's second line says before the password. */
const NEW_VALUE = Buffer.from("New value:");

const COLON = 0x3a;

const Part = {
  /** The anchor's line, to its end. */
  Line: 0,
  /** The next line's blanks (and the reset's `New value:`). */
  Indent: 1,
  Password: 2,
  /** MySQL's account after the header, to its `: `. */
  Account: 3,
} as const;
type Part = (typeof Part)[keyof typeof Part];

class PrintedPasswordCandidate implements Candidate {
  from: number;
  to: number | undefined = undefined;
  private here: number;
  private part: Part;
  private count = 0;
  /** The last byte of the anchor's line that is no blank (the anchor's own, at first). */
  private last: number;
  /** Backslashes in a row just read, and where the run began. */
  private slashes = 0;
  private slashFrom = 0;
  /** Bytes of `New value:` still to read (the reset's form), or 0. */
  private label: number;

  /**
   * `match`: the anchor as matched (a blank run in it may be longer than the anchor's);
   * `form`: where the password stands (see the rules below).
   */
  constructor(
    match: { readonly anchor: string; readonly length: number },
    private readonly form: Form,
  ) {
    this.from = match.length;
    this.here = match.length - 1;
    this.last = match.anchor.charCodeAt(match.anchor.length - 1);
    this.label = form === "reset" ? NEW_VALUE.length : 0;
    this.part = form === "account" ? Part.Account : Part.Line;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    const password = this.part === Part.Password;
    if (!password) this.from = here + 1;
    if (++this.count > (password ? MAX_PASSWORD : MAX_LINE)) return Verdict.Reject;
    if (byte === BACKSLASH && this.part !== Part.Account) {
      if (this.slashes++ === 0) this.slashFrom = here;
      return Verdict.Hold;
    }
    // A run of backslashes before an escape's letter: a line's end inside a string, once
    // (`\n`) or more (`\\n`, a string inside a string), as a raw one is.
    const slashes = this.slashes;
    this.slashes = 0;
    if (password) return this.passwordByte(byte, here, slashes);
    if (this.part === Part.Account) return this.accountByte(byte);
    if (slashes > 0) {
      if (byte === 0x6e || byte === 0x72) return this.lineEnd();
      return this.part === Part.Line ? this.lineByte(byte) : Verdict.Reject;
    }
    if (byte === 0x0a || byte === 0x0d) return this.lineEnd();
    if (this.part === Part.Line) return this.lineByte(byte);
    // Blanks before the password (and before `New value:`); the label's own bytes.
    if (BLANK[byte] === 1 && (this.label === NEW_VALUE.length || this.label === 0))
      return Verdict.Hold;
    if (this.label > 0) {
      if (byte !== NEW_VALUE[NEW_VALUE.length - this.label]) return Verdict.Reject;
      this.label--;
      return Verdict.Hold;
    }
    this.part = Part.Password;
    this.from = here;
    this.count = 1;
    return this.passwordByte(byte, here, 0);
  }

  /** MySQL's account (` root@localhost: `): a blank, no blank in it, then `: `. */
  private accountByte(byte: number): Verdict {
    if (this.count === 1) return byte === 0x20 ? Verdict.Hold : Verdict.Reject;
    if (this.last === COLON) {
      if (byte !== 0x20) return Verdict.Reject;
      this.part = Part.Password;
      this.count = 0;
      return Verdict.Hold;
    }
    if (byte === COLON && this.count > 2) this.last = COLON;
    return WORD_END[byte] === 1 ? Verdict.Reject : Verdict.Hold;
  }

  private lineByte(byte: number): Verdict {
    if (BLANK[byte] !== 1) this.last = byte;
    return Verdict.Hold;
  }

  /** A line's end: the anchor's line ends (the first form's with `:`); blank lines go by. */
  private lineEnd(): Verdict {
    if (this.part === Part.Line) {
      if (this.form !== "reset" && this.last !== COLON) return Verdict.Reject;
      this.part = Part.Indent;
      return Verdict.Hold;
    }
    return this.label === NEW_VALUE.length || this.label === 0 ? Verdict.Hold : Verdict.Reject;
  }

  /**
   * A byte of the password (counted), after `slashes` backslashes: to the end of its word,
   * an escaped byte its own.
   */
  private passwordByte(byte: number, here: number, slashes: number): Verdict {
    if (slashes > 0 && ESCAPED_END[byte] === 1) return this.close(this.slashFrom);
    if (slashes % 2 === 0 && WORD_END[byte] === 1) return this.close(here);
    return Verdict.Hold;
  }

  /** The password ends at `end` (from the anchor's start, excluded). */
  private close(end: number): Verdict {
    // Generated passwords are 12 (MySQL), 20 (Elastic) or 32 (Jenkins) bytes long; a shorter
    // word is documentation's (`root@localhost: X`).
    if (end - this.from < MIN_PASSWORD) return Verdict.Reject;
    this.to = end;
    return Verdict.Close;
  }

  end(): Verdict {
    if (this.part !== Part.Password || this.here < this.from) return Verdict.Reject;
    // A lone backslash at the end stays (an escape cut short).
    if (this.slashes % 2 === 1) this.to = this.here;
    const to = this.to ?? this.here + 1;
    return to - this.from >= MIN_PASSWORD ? Verdict.Close : Verdict.Reject;
  }
}

/** Fewest bytes of a printed password. */
const MIN_PASSWORD = 6;

/** Where the password stands after the header (see `PrintedPasswordCandidate`). */
type Form = "account" | "next-line" | "reset";

const RESET = "Password for the [elastic] user successfully reset.";

function printedPasswordRule(
  name: string,
  anchors: readonly string[],
  form: (anchor: string) => Form,
): MatcherRule {
  return {
    kind: "matcher",
    name,
    anchors,
    maxLength: 2 * MAX_LINE + MAX_PASSWORD + 8,
    start: (match) => new PrintedPasswordCandidate(match, form(match.anchor)),
  };
}

export const MYSQL_PASSWORD_RULE = printedPasswordRule(
  "mysql-temporary-password",
  ["password is generated for"],
  () => "account",
);

export const ELASTIC_PASSWORD_RULE = printedPasswordRule(
  "elastic-password",
  ["Password for the elastic user", RESET],
  (anchor) => (anchor === RESET ? "reset" : "next-line"),
);

export const JENKINS_PASSWORD_RULE = printedPasswordRule(
  "jenkins-initial-password",
  ["Please use the following password to proceed to installation:"],
  () => "next-line",
);

keepShape(new PrintedPasswordCandidate({ anchor: RESET, length: RESET.length }, "reset"));

/** A WPA passphrase's length: 8 to 63 printable bytes (IEEE 802.11i). */
const MIN_PASSPHRASE = 8;
const MAX_PASSPHRASE = 63;
/** Bytes that may stand before `Key Content`: a line's indentation, or its start. */
const KEY_CONTENT_BEFORE = byteSet(' \t\r\n"');

/**
 * A Wi-Fi network's passphrase as Windows prints it (`netsh wlan show profile name=…
 * key=clear`: `    Key Content            : <passphrase>`): blanks, the `:`, one blank, then
 * the passphrase to the end of its line (blanks in it too), also inside a string (`\r\n`).
 */
export const WIFI_KEY_RULE: MatcherRule = {
  kind: "matcher",
  name: "wifi-key",
  anchors: ["Key Content"],
  maxLength: MAX_LINE + MAX_PASSPHRASE + 2,
  start: (match) =>
    match.before >= 0 && KEY_CONTENT_BEFORE[match.before] !== 1
      ? undefined
      : new KeyContentCandidate(match.length),
};

/** `Key Content`'s line from after the label: its padding and `: `, then the passphrase. */
class KeyContentCandidate implements Candidate {
  from: number;
  to: number | undefined = undefined;
  private here: number;
  /** 0 the padding, 1 the blank after the `:`, 2 the passphrase. */
  private part = 0;
  private length = 0;
  /** Where the run of backslashes just read in the passphrase began, or -1. */
  private slashAt = -1;

  constructor(anchorLength: number) {
    this.from = anchorLength;
    this.here = anchorLength - 1;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    if (this.part < 2) {
      this.from = here + 1;
      if (++this.length > MAX_LINE) return Verdict.Reject;
      if (this.part === 0 && BLANK[byte] === 1) return Verdict.Hold;
      if (byte !== (this.part === 0 ? COLON : 0x20)) return Verdict.Reject;
      if (++this.part === 2) this.length = 0;
      return Verdict.Hold;
    }
    // A line's end, raw or escaped inside a string (`\r\n`, a run of backslashes as one),
    // or the string's own end.
    if (byte === BACKSLASH) {
      if (this.slashAt < 0) this.slashAt = here;
      return ++this.length > MAX_PASSPHRASE + 1 ? Verdict.Reject : Verdict.Hold;
    }
    const escaped = this.slashAt >= 0;
    if (escaped && (byte === 0x6e || byte === 0x72)) return this.close(this.slashAt);
    this.slashAt = -1;
    if (byte === 0x0a || byte === 0x0d || CONTROL[byte] === 1 || (byte === 0x22 && !escaped))
      return this.close(here);
    return ++this.length > MAX_PASSPHRASE + 1 ? Verdict.Reject : Verdict.Hold;
  }

  /** The passphrase ends at `end` (excluded). */
  private close(end: number): Verdict {
    const length = end - this.from;
    if (length < MIN_PASSPHRASE || length > MAX_PASSPHRASE) return Verdict.Reject;
    this.to = end;
    return Verdict.Close;
  }

  end(): Verdict {
    return this.part === 2 ? this.close(this.here + 1) : Verdict.Reject;
  }
}

keepShape(new KeyContentCandidate(11));
