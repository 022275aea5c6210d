/**
 * A password written into a pipe to a command that reads it from its standard input, in a
 * command line the output shows (a shell trace, a CI log that echoes its commands, a
 * script): `echo 'hunter2' | docker login -u me --password-stdin`, `echo hunter2 | sudo -S
 * apt-get …`, `echo 'deploy:hunter2' | chpasswd`, `printf '%s' hunter2 | gcloud secrets
 * create db --data-file=-`. The value is the secret only because of what reads it, so the
 * rule starts at `echo` or `printf` (a word of its own, a blank after it), reads the
 * value (quoted or not, after `echo`'s flags or `printf`'s `%s` format), a `|`, and the
 * command after it to its end (a line end, `;`, `&`, `|`, `)`, a backtick, a string's `"`
 * or escaped line end), and redacts the value when that command is one of these:
 *
 * - any command with `--password-stdin` (`docker`, `podman`, `helm registry`, `oras`,
 *   `skopeo`, `buildah`, `cosign` … `login`);
 * - `sudo -S` (`--stdin`): sudo's own password;
 * - `chpasswd` (`user:password`: the part after the colon), `passwd --stdin`, `kinit`,
 *   `htpasswd -i`, `smbpasswd -s`;
 * - `gh auth login --with-token`, `gh secret set`, `vault login -`, `docker|podman secret
 *   create NAME -`, `gcloud secrets create|versions add … --data-file=-`, `wrangler secret
 *   put`, `vercel env add`, `pass|gopass insert -e|-m`, `openssl … -pass* stdin`;
 *
 * each also after `sudo` and its options (the table beside `printsSecret`'s, in
 * `secret-commands.ts`). A value that is a variable or a substitution
 * (`"$PASSWORD"`, `$(op read …)`, a backtick) or a placeholder (`%s`, `***`) stays.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("+ echo 'Xk29vLq7Tz' | docker login -u me --password-stdin ghcr.io\n");
 * // "+ echo '[REDACTED:piped-password]' | docker login -u me --password-stdin ghcr.io\n"
 * ```
 */
import { placeholderValue } from "../command-flags.js";
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { readsSecretFromStdin } from "../secret-commands.js";
import { BLANK, byteSet, QUOTES, withControls } from "./byte-classes.js";
import { CLOSED, EscapedLiteral, IN_RUN, OPENED, OPENING } from "./escaped-literal.js";
import { keepShape } from "./kept-shapes.js";
import { withNotAfter, withNotBefore } from "./not-before.js";

/** Most bytes of the value. */
const MAX_VALUE = 256;
/** Most bytes read after `echo`/`printf` in all (the value, the pipe, the command). */
const MAX_LINE = 1024;
const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const PIPE = 0x7c;
/** Bytes that end the command after the pipe (a `"` ends the string the line stands in). */
const ENDS_COMMAND = withControls(byteSet('\r\n;&|`)"'));
/** After a backslash: a string's escaped line end or tab, which ends the command too. */
const ESCAPED_BREAK = byteSet("nrt");
/** Bytes that end an unquoted word. */
const ENDS_WORD = withControls(byteSet(" \t\r\n;&|`)"));
/** A value that is none: a variable, a substitution, a format's conversion, no letter or digit. */
const NO_VALUE = /[$`]|^%[-+ #0]*\d*[sdqvxX]$|^[^A-Za-z0-9]*$/;
/** `echo`'s own flags. */
const ECHO_FLAG = /^-[neE]{1,3}$/;
/** Bytes of a name that `echo` or `printf` would be the end of (`$echo`, `my_echo`, `.echo`). */
const NAME = byteSet("A-Za-z0-9_.$-");

/** Where a candidate stands after its anchor. */
const Part = {
  /** Blanks before the next word (the value, or `echo`'s flags and `printf`'s format). */
  Gap: 0,
  /** An unquoted word's bytes. */
  Word: 1,
  /** A quoted word's bytes (`'…'`, `"…"`, or `\"…\"` inside a JSON string). */
  Quoted: 2,
  /** After a word: blanks, then (after the value) the `|`. */
  After: 3,
  /** Just after the `|`: a second one is `||` (or). */
  Piped: 4,
  /** The command after the pipe, to its end. */
  Command: 5,
} as const;
type Part = (typeof Part)[keyof typeof Part];

class PipedPasswordCandidate implements Candidate {
  from: number;
  to: number | undefined = undefined;
  private here: number;
  private part: Part = Part.Gap;
  /** The word's first byte after its quote (from the anchor's start) and its quote. */
  private wordFrom = 0;
  private quote = 0;
  /** The quote's backslashes when it is escaped (`\"…\"`, in a JSON string), else null. */
  private escapes: EscapedLiteral | null = null;
  /** The last byte was a backslash (a run of them reads as one). */
  private slash = false;
  private word = "";
  /** `printf`'s format was read; the value's text and end; the command after the pipe. */
  private formatRead = false;
  private value = "";
  private valueTo = 0;
  private command: PipedCommand | null = null;

  constructor(
    length: number,
    private readonly printf: boolean,
  ) {
    this.from = length;
    this.here = length - 1;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    if (here >= MAX_LINE) return Verdict.Reject;
    switch (this.part) {
      case Part.Gap:
        if (BLANK[byte] === 1) return Verdict.Hold;
        if (here === this.from) return Verdict.Reject; // a blank must follow the name
        return this.startWord(byte, here);
      case Part.Word:
        if (ENDS_WORD[byte] !== 1) return this.add(byte, here);
        return this.wordEnd(here) ? this.afterWord(byte) : Verdict.Reject;
      case Part.Quoted:
        return this.quotedByte(byte, here);
      case Part.After:
        return this.afterWord(byte);
      case Part.Piped:
        if (byte === PIPE) return Verdict.Reject;
        this.part = Part.Command;
        this.command = new PipedCommand();
        return this.commandByte(byte);
      default:
        return this.commandByte(byte);
    }
  }

  end(): Verdict {
    return this.part === Part.Command ? this.decide() : Verdict.Reject;
  }

  private startWord(byte: number, here: number): Verdict {
    this.word = "";
    this.quote = byte === QUOTE || byte === APOSTROPHE ? byte : 0;
    // `\"` opens a word quoted inside a JSON string (the quote is checked next).
    this.escapes = byte === BACKSLASH ? new EscapedLiteral() : null;
    this.escapes?.opening(byte, QUOTES);
    this.part = this.quote === 0 && this.escapes === null ? Part.Word : Part.Quoted;
    this.wordFrom = this.part === Part.Word ? here : here + 1;
    return this.part === Part.Word ? this.add(byte, here) : Verdict.Hold;
  }

  private add(byte: number, here: number): Verdict {
    if (here - this.wordFrom >= MAX_VALUE) return Verdict.Reject;
    this.word += String.fromCharCode(byte);
    return Verdict.Hold;
  }

  private quotedByte(byte: number, here: number): Verdict {
    if (byte === 0x0a || byte === 0x0d) return Verdict.Reject;
    if (this.escapes !== null) return this.escapedByte(byte, here);
    const slash = this.slash;
    this.slash = false;
    if (byte === BACKSLASH && this.quote !== APOSTROPHE && !slash) {
      this.slash = true;
      return Verdict.Hold;
    }
    if (!slash && byte === this.quote) return this.quotedEnd(here);
    if (slash) this.add(BACKSLASH, here);
    return this.add(byte, here);
  }

  /** A byte of a word whose quotes are escaped (see `EscapedLiteral`). */
  private escapedByte(byte: number, here: number): Verdict {
    const escapes = this.escapes!;
    if (this.quote === 0) {
      const opened = escapes.opening(byte, QUOTES);
      if (opened === OPENING) return Verdict.Hold;
      if (opened !== OPENED || byte !== QUOTE) return Verdict.Reject; // no value
      this.quote = QUOTE;
      this.wordFrom = here + 1;
      return Verdict.Hold;
    }
    const read = escapes.read(byte, here, QUOTE);
    if (read === IN_RUN) return here - this.wordFrom >= MAX_VALUE ? Verdict.Reject : Verdict.Hold;
    if (read === CLOSED) return this.quotedEnd(escapes.runAt);
    if (read > 0) this.add(BACKSLASH, here);
    return this.add(byte, here);
  }

  /** The quoted word ended before `to`. */
  private quotedEnd(to: number): Verdict {
    if (!this.wordEnd(to)) return Verdict.Reject;
    this.part = Part.After;
    return Verdict.Hold;
  }

  /** A word ended before `to`: a flag or a format goes by; false when it is no value. */
  private wordEnd(to: number): boolean {
    const role = wordRole(this.word, this.quote !== 0, this.printf && !this.formatRead);
    if (role === null) return false;
    if (role === "format") this.formatRead = true;
    if (role === "value") {
      this.value = this.word;
      this.from = this.wordFrom;
      this.valueTo = to;
    }
    this.part = Part.After;
    return true;
  }

  /** A byte after a word: blanks, then (after the value) the `|`. */
  private afterWord(byte: number): Verdict {
    const value = this.value !== "";
    if (BLANK[byte] === 1) {
      this.part = value ? Part.After : Part.Gap;
      return Verdict.Hold;
    }
    if (byte !== PIPE || !value) return Verdict.Reject;
    this.part = Part.Piped;
    return Verdict.Hold;
  }

  private commandByte(byte: number): Verdict {
    return this.command!.ends(byte) ? this.decide() : Verdict.Hold;
  }

  private decide(): Verdict {
    const at = secretStart(this.value, readsSecretFromStdin(wordsOf(this.command!.text)));
    if (at < 0) return Verdict.Reject;
    this.from += at;
    this.to = this.valueTo;
    return Verdict.Close;
  }
}

/** The command after the pipe, read to its end (see `ENDS_COMMAND`). */
class PipedCommand {
  text = "";
  /** Inside a `"…"` of the command; the last byte was a backslash (a run reads as one). */
  private inQuote = false;
  private slash = false;

  /** True at the byte that ends the command (not its); else the byte is the command's. */
  ends(byte: number): boolean {
    const slash = this.slash;
    this.slash = false;
    if (slash && ESCAPED_BREAK[byte] === 1) return true;
    if (byte === BACKSLASH) {
      this.slash = true; // `\\n` inside a string inside a string: one escape
      return false;
    }
    // A quote, escaped or not (`\"` inside a string), opens a word or ends the string.
    if (byte === QUOTE) {
      const last = this.text.charCodeAt(this.text.length - 1);
      if (this.inQuote || BLANK[last] === 1 || last === 0x3d) {
        this.inQuote = !this.inQuote;
        return false;
      }
    }
    if ((!slash || byte === QUOTE) && !this.inQuote && ENDS_COMMAND[byte] === 1) return true;
    this.text += String.fromCharCode(byte);
    return false;
  }
}

/**
 * What a word after `echo`/`printf` is: `echo`'s flag or `printf`'s format (`format`: one
 * is still expected), both passed by, or the value; null when it is no value.
 */
function wordRole(
  word: string,
  quoted: boolean,
  format: boolean,
): "skip" | "format" | "value" | null {
  if (!quoted && ECHO_FLAG.test(word)) return "skip";
  // Only a format that prints the value as it is (`%s`, `%s\n`).
  if (format && word.includes("%")) return /^%s(?:\\n)?$/.test(word) ? "format" : null;
  return NO_VALUE.test(word) || placeholderValue(word, [0, word.length]) ? null : "value";
}

/** A command's words: split at blanks, quotes dropped. */
function wordsOf(command: string): string[] {
  return command
    .trim()
    .split(/[ \t]+/)
    .map((word) => word.replace(/["']/g, ""));
}

/** Where the secret starts in `value` for a command that reads it so, or -1. */
function secretStart(value: string, reads: "whole" | "after-colon" | null): number {
  if (reads === "whole") return 0;
  if (reads === null) return -1;
  const colon = value.indexOf(":");
  return colon < 0 || colon === value.length - 1 ? -1 : colon + 1;
}

export const PIPED_PASSWORD_RULE: MatcherRule = withNotAfter(
  withNotBefore(
    {
      kind: "matcher",
      name: "piped-password",
      anchors: ["echo", "printf"],
      maxLength: MAX_LINE + 8,
      start(match): Candidate | undefined {
        if (match.before >= 0 && NAME[match.before] === 1) return undefined;
        return new PipedPasswordCandidate(match.length, match.anchor === "printf");
      },
    },
    NAME,
  ),
  // A blank after the name.
  BLANK.map((b) => 1 - b),
);

keepShape(new PipedPasswordCandidate(4, false));
