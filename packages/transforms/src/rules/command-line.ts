/**
 * Passwords in the flags of a command line written into the output (a shell trace, a CI
 * log that echoes its commands, a process listing): `mysql -u root -phunter2`, `sshpass -p
 * hunter2 ssh …`, `docker login -u me -p hunter2`, `redis-cli -a hunter2`, `htpasswd -b f
 * user hunter2`. The same per-command table as labels (`command-flags.ts`): the rule
 * starts at a listed command's name (standing as a word of its own), reads the words after
 * it to the end of the command (a line end, `;`, `&`, `|`, a backtick, `)`, an escaped line
 * end or tab inside a string, `\n`, or a `"` that ends one) and redacts the first flag
 * value the table names a secret, nothing else. A command whose flags count only after a
 * word (`docker login`) must have that word next; another command's name ends the line's
 * candidate (that name's own candidate reads on). Only the current word is held, at most
 * {@link MAX_WORD} bytes; a command line longer than {@link MAX_LINE} bytes is read no
 * further.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("+ mysql -u root -phunter2 app\n"); // "+ mysql -u root -p[REDACTED:command-flag] app\n"
 * ```
 */
import {
  COMMAND_NAMES,
  type CommandScan,
  commandArmingWord,
  newCommandScan,
  placeholderValue,
  secretIn,
  secretSpan,
} from "../command-flags.js";
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import {
  BLANK,
  byteSet,
  ESCAPED_BLANK,
  MAX_BACKSLASHES,
  QUOTE_CLOSER,
  withControls,
} from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";
import { withNotBefore } from "./not-before.js";

/** Most bytes of a command line read from its command's name. */
const MAX_LINE = 2048;
/** Most bytes of one word (a longer one is no flag value this rule takes). */
const MAX_WORD = 512;
/** Bytes that may stand before a command's name: a line start, a blank, a path, a shell operator. */
const BEFORE_COMMAND = byteSet(" \t\r\n/\\(`'\";&|$");
/** Bytes that end a command line. */
const ENDS_COMMAND = withControls(byteSet('\r\n;&|`)"'));
const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;

/**
 * The rule's anchors. `net`, `gh` and the two-letter names only with their verbs (the words
 * alone start `network`, `netstat`, `.NET`, `high`, `github`, and two letters stand
 * everywhere), `net` in the cases Windows users write it, and Windows' own commands in
 * capitals too (its shell ignores case: `PSEXEC \\host -p …`).
 */
const WITH_VERB = new Set([
  ..."net gh oc cf mc http https xh xhs".split(" "),
  // Package managers' and clouds' names are everywhere; their settings' verbs are not.
  ..."aws npm pnpm yarn poetry composer dotnet cargo".split(" "),
]);
const ANCHORS = [
  ...COMMAND_NAMES.filter((name) => !WITH_VERB.has(name)),
  "PsExec",
  "PsExec64",
  "ConvertTo-SecureString",
  ..."psexec psexec64 sqlcmd cmdkey schtasks".split(" ").map((name) => name.toUpperCase()),
  "net use",
  "NET USE",
  "Net use",
  "gh secret",
  "oc login",
  "cf login",
  "mc alias",
  "mc config",
  "aws configure set",
  "aws secretsmanager",
  "aws ssm put-parameter",
  "npm config set",
  "npm set",
  "pnpm config set",
  "yarn config set",
  "poetry config",
  "composer config",
  "composer global config",
  "dotnet user-secrets",
  "cargo login",
  // HTTPie's and xh's names only before a flag (a URL's scheme starts with them).
  "http -",
  "https -",
  "xh -",
  "xhs -",
];
/** The anchors that are one word: such a word starts a candidate of its own. */
const ANCHOR_WORDS = new Set(ANCHORS.filter((anchor) => !anchor.includes(" ")));

export const COMMAND_FLAG_RULE: MatcherRule = withNotBefore(
  {
    kind: "matcher",
    name: "command-flag",
    anchors: ANCHORS,
    maxLength: MAX_LINE + 1,
    start(match): Candidate | undefined {
      if (match.before >= 0 && BEFORE_COMMAND[match.before] !== 1) return undefined;
      const quote = match.before === QUOTE || match.before === APOSTROPHE ? match.before : 0;
      return new CommandLineCandidate(match.anchor, match.length, quote);
    },
  },
  BEFORE_COMMAND.map((b) => 1 - b),
);

/** One command line from its command's name. */
class CommandLineCandidate implements Candidate {
  /** Offset (from the anchor) of the byte read last. */
  here: number;
  /** Offset from which the candidate may still redact: the current word's start. */
  claim = 0;
  /** Where the secret just found ends (set with the verdict that redacts it). */
  to: number | undefined = undefined;
  /** The command word (the anchor and what follows it up to a blank), then the current word. */
  word: string;
  /** Still reading the command word. */
  naming = true;
  inWord = false;
  /** The current word started with `"`, and its closing quote is not read yet. */
  quoted = false;
  /** Backslashes in a row just read, held (`\n` ends the command), and where they began. */
  slashes = 0;
  slashFrom = 0;
  /** A `'` no `'` of the word opened: a `QUOTE_CLOSER` after it ends the word (`{'c':'mysql -pX','n':1}`). */
  quoteAt = -1;
  wordStart = 0;
  /** Words read after the command word. */
  words = 0;
  readonly scan: CommandScan = newCommandScan();
  /** The command line as an argv list (`['mysql', '-p…']`), once its name's quote closed. */
  argv: ArgvList | null = null;

  constructor(
    anchor: string,
    length: number,
    /** The quote right before the command's name, which may open an argv list's element. */
    private readonly nameQuote: number,
  ) {
    this.word = anchor;
    this.here = length - 1;
  }

  get from(): number {
    return this.claim;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    // A value redacted with the verdict before (up to `to`) is done.
    this.to = undefined;
    if (here >= MAX_LINE) return Verdict.Reject;
    if (this.argv !== null) return argvByte(this, byte, here);
    if (this.naming) return this.nameByte(byte, here);
    if (this.slashes > 0) {
      const at = afterSlashes(this, byte, here);
      if (at >= 0) return endWord(this, at, false);
      if (at !== GO_ON) return at === HELD ? Verdict.Hold : Verdict.Reject;
    }
    if (this.quoteAt >= 0) {
      const at = this.quoteAt;
      this.quoteAt = -1;
      if (QUOTE_CLOSER[byte] === 1) {
        this.word = this.word.slice(0, -1);
        return endWord(this, at, false);
      }
    }
    if (byte === BACKSLASH) {
      this.slashes = 1;
      this.slashFrom = here;
      if (!this.inWord) this.startWord(here, "");
      return Verdict.Hold;
    }
    if (!this.inWord) {
      if (BLANK[byte] === 1) return Verdict.Hold;
      if (ENDS_COMMAND[byte] === 1 && byte !== QUOTE) return Verdict.Reject;
      this.startWord(here, String.fromCharCode(byte));
      this.quoted = byte === QUOTE;
      return Verdict.Hold;
    }
    // A quote (or `\"`) then what closes a string (`… ","n":1}`): no argument, the string ended.
    if ((this.word === '"' || this.word === '\\"') && QUOTE_CLOSER[byte] === 1)
      return Verdict.Reject;
    if (this.quoted) {
      if (byte === 0x0a || byte === 0x0d) return endWord(this, here, false);
      if (byte === QUOTE) this.quoted = false;
    } else if (BLANK[byte] === 1) {
      return endWord(this, here, true);
    } else if (ENDS_COMMAND[byte] === 1) {
      return endWord(this, here, false);
    }
    if (this.word.length >= MAX_WORD) return Verdict.Reject;
    if (byte === APOSTROPHE && !this.quoted && evenApostrophes(this.word)) this.quoteAt = here;
    this.word += String.fromCharCode(byte);
    return Verdict.Hold;
  }

  startWord(here: number, word: string): void {
    this.inWord = true;
    this.quoted = false;
    this.wordStart = here;
    this.claim = here;
    this.word = word;
  }

  /** A byte of the command word: the name may go on (`mysqldump` is another anchor) or end. */
  private nameByte(byte: number, here: number): Verdict {
    if ((byte === this.nameQuote || byte === BACKSLASH) && this.nameQuote !== 0) {
      // `'mysql'` in a list (`['mysql', '-p…']`, `[\"mysql\", …]`): its elements are the words.
      if (!this.named()) return Verdict.Reject;
      this.argv = new ArgvList(this.nameQuote);
      return argvByte(this, byte, here);
    }
    if (BLANK[byte] !== 1) {
      // `mysql.exe`, `PsExec64.exe`; any other run makes another word.
      if (ENDS_COMMAND[byte] === 1 || this.word.length >= 64) return Verdict.Reject;
      this.word += String.fromCharCode(byte);
      return Verdict.Hold;
    }
    if (!this.named()) return Verdict.Reject;
    this.claim = here + 1;
    return Verdict.Hold;
  }

  /** The command word was read whole: false when it names no listed command. */
  private named(): boolean {
    // The anchor may hold the command's verb too (`net use`): one word at a time.
    for (const word of this.word.split(" ")) secretIn(word, this.scan);
    this.naming = false;
    return this.scan.command !== null;
  }

  end(): Verdict {
    if (!this.inWord || this.naming) return Verdict.Reject;
    this.word += "\\".repeat(this.slashes);
    if (this.quoteAt >= 0) {
      this.word = this.word.slice(0, -1);
      return endWord(this, this.quoteAt, false);
    }
    return endWord(this, this.here + 1, false);
  }
}

/**
 * The current word ended at `end` (exclusive): a secret is redacted, and the line read on
 * for more (`keytool -srcstorepass X -deststorepass Y`) unless it ended there.
 */
function endWord(c: CommandLineCandidate, end: number, more: boolean): Verdict {
  c.inWord = false;
  const word = c.word;
  // `docker login -p X`, never `docker run -p 8080:80`: the arming word comes first (or
  // was the anchor's own: `gh secret`).
  const arming = c.words++ === 0 && !c.scan.armed ? commandArmingWord(c.scan) : undefined;
  if (arming !== undefined && word !== arming) return Verdict.Reject;
  const command = c.scan.command;
  const at = secretIn(word, c.scan);
  // Another command's name (`sshpass -p x mysql -p…`, or `mysql mysql mysql…`): the
  // candidate its anchor started reads on, so a line of names costs one candidate a word.
  if (c.scan.command !== command) return Verdict.Reject;
  const span = at >= 0 && at < word.length ? secretSpan(word, at, c.scan.stop) : null;
  if (span !== null && !placeholderValue(word, span)) {
    const [start, stop] = span;
    c.claim = c.wordStart + start;
    c.to = end - (word.length - stop);
    // A secret that is itself a command's name (`sshpass -p sshpass`) started that
    // command's own candidate, which reads on from there: this one stops, so a line of
    // them holds one candidate a command, not one for every command before. So does one
    // that is this command's name (`gh … -b gh`: `gh` reads on only as `gh secret`).
    if (!more || (at === 0 && startsOwnCandidate(word, command?.name))) return Verdict.Close;
    return Verdict.Redact;
  }
  if (!more) return Verdict.Reject;
  c.claim = end + 1;
  return Verdict.Hold;
}

/** A byte of an argv list after the command's name: each element is a word. */
function argvByte(c: CommandLineCandidate, byte: number, here: number): Verdict {
  const read = c.argv!.next(byte, here);
  if (read === ARGV_HOLD) return Verdict.Hold;
  if (read === ARGV_CONTENT) {
    if (!c.inWord) c.startWord(here, "");
    if (c.word.length >= MAX_WORD) return Verdict.Reject;
    c.word += String.fromCharCode(byte);
    return Verdict.Hold;
  }
  if (read === ARGV_END) return Verdict.Reject;
  // An element ended before `read` (an empty one is a word too, `''`).
  if (!c.inWord) c.startWord(read, "");
  return endWord(c, read, true);
}

/** {@link ArgvList.next}: held (a delimiter's byte). */
const ARGV_HOLD = -1;
/** {@link ArgvList.next}: a byte of the current element. */
const ARGV_CONTENT = -2;
/** {@link ArgvList.next}: the list ended (or was none). */
const ARGV_END = -3;
/** Where {@link ArgvList} stands: in a quote's run, in an element, between two elements. */
const Argv = { Closing: 0, Element: 1, Gap: 2, Opening: 3 } as const;

/**
 * A command line written as its argv, a list of quoted words (Python's repr in a
 * `CalledProcessError`, `['mysql', '-u', 'root', '-p…']`; JSON's, `["sshpass", "-p", …]`;
 * strace's `execve`), from the quote that closes the command's name: an element is a word,
 * its quotes (each as the name's: raw, or after as many backslashes inside a string) are
 * not, and a `,` and blanks stand between two. Anything else ends the list.
 */
class ArgvList {
  private state: number = Argv.Closing;
  /** Backslashes before each element's quotes (learned from the name's closing one). */
  private escapes = -1;
  private run = 0;
  /** The current element's quote (an element of `'…'` may be `"…"` when it holds a `'`). */
  private quote: number;
  /** A backslash was read inside an unescaped element: the byte after it is the element's. */
  private escaped = false;
  /** Where the run of backslashes inside an escaped element began. */
  private runAt = 0;

  constructor(quote: number) {
    this.quote = quote;
  }

  /** {@link ARGV_HOLD}, {@link ARGV_CONTENT}, {@link ARGV_END}, or where an element ended. */
  next(byte: number, here: number): number {
    if (this.state === Argv.Element) return this.element(byte, here);
    if (this.state === Argv.Gap) {
      if (byte === 0x2c) this.state = Argv.Opening;
      else if (BLANK[byte] !== 1) return ARGV_END;
      return ARGV_HOLD;
    }
    if (byte === BACKSLASH) return ++this.run > MAX_BACKSLASHES ? ARGV_END : ARGV_HOLD;
    if (this.state === Argv.Opening && this.run === 0 && BLANK[byte] === 1) return ARGV_HOLD;
    const quote = byte === QUOTE || (byte === APOSTROPHE && this.run === 0);
    if (!quote || (this.escapes >= 0 && this.run !== this.escapes)) return ARGV_END;
    const run = this.run;
    this.run = 0;
    if (this.state === Argv.Closing) {
      // The name's closing quote: the list's own (a `,` must follow).
      if (byte !== this.quote) return ARGV_END;
      this.escapes = run;
      this.state = Argv.Gap;
      return ARGV_HOLD;
    }
    this.quote = byte;
    this.state = Argv.Element;
    return ARGV_HOLD;
  }

  /** A byte inside an element: its own, or the start of its closing quote. */
  private element(byte: number, here: number): number {
    if (this.escapes === 0) {
      if (this.escaped) this.escaped = false;
      else if (byte === BACKSLASH) this.escaped = true;
      else if (byte === this.quote) return this.closed(here);
      return byte === 0x0a ? ARGV_END : ARGV_CONTENT;
    }
    // Inside a string: the element ends at its run of backslashes and quote.
    if (byte === BACKSLASH) {
      if (this.run++ === 0) this.runAt = here;
      return ARGV_HOLD;
    }
    const run = this.run;
    this.run = 0;
    if (run === this.escapes && byte === QUOTE) return this.closed(this.runAt);
    return run > 0 ? ARGV_END : ARGV_CONTENT;
  }

  private closed(at: number): number {
    this.state = Argv.Gap;
    return at;
  }
}

/**
 * True when `word` (its quotes and path aside, `/usr/bin/mysql`) is one of the anchors, or
 * the name of the command being read (`command`).
 */
function startsOwnCandidate(word: string, command: string | undefined): boolean {
  const bare = word.replace(/^["']|["']$/g, "");
  const name = bare.slice(bare.lastIndexOf("/") + 1).replace(/\.exe$/, "");
  return ANCHOR_WORDS.has(name) || name.toLowerCase() === command;
}

/** True when `word` holds an even number of `'` (none open). */
function evenApostrophes(word: string): boolean {
  let n = 0;
  for (let i = word.indexOf("'"); i >= 0; i = word.indexOf("'", i + 1)) n++;
  return n % 2 === 0;
}
/** {@link afterSlashes}: a byte as any other; held (escaped, or the run goes on); too long. */
const GO_ON = -1;
const HELD = -2;
const TOO_LONG = -3;

/**
 * A byte after `c.slashes` backslashes in an argument: the offset where a line's end escaped
 * inside a string ends the word, or {@link GO_ON}, {@link HELD}, {@link TOO_LONG}. `\n` ends
 * the command; so does `\\n` inside a word (a line's end inside a string inside a string),
 * where at a word's start it is a UNC path's (`\\nas\share`).
 */
function afterSlashes(c: CommandLineCandidate, byte: number, here: number): number {
  if (byte === BACKSLASH) {
    c.slashes++;
    return HELD;
  }
  const run = c.slashes;
  c.slashes = 0;
  // A line continued inside a string (`\\\n`: the shell's backslash escaped, then the line's
  // end) between words is a blank: the command goes on to its next line.
  if (run === 3 && byte === 0x6e && c.word === "") {
    c.inWord = false;
    return HELD;
  }
  if (ESCAPED_BLANK[byte] === 1 && (run % 2 === 1 || c.slashFrom > c.wordStart))
    return run % 2 === 1 ? here - 1 : c.slashFrom;
  if (c.word.length + run >= MAX_WORD) return TOO_LONG;
  c.word += "\\".repeat(run);
  if (run % 2 === 0) return GO_ON;
  // Escaped, the byte is the word's (`\"` inside a string), whatever it is.
  c.word += String.fromCharCode(byte);
  return HELD;
}

keepShape(new CommandLineCandidate("mysql", 5, 0));
