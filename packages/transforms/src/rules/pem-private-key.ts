/**
 * Private key blocks. PEM private key blocks, redacted whole: from `-----BEGIN … PRIVATE
 * KEY-----` through the matching `-----END … -----` line, however long (an RSA-4096 key is
 * ~3.3 KB; nothing is held, the span is swallowed as it arrives). The anchor is `BEGIN …
 * PRIVATE KEY-----`, the dashes before it read behind it (held back for it; those another
 * span already redacted stay with that span), so a run of dashes does not stop the scan.
 * The block also ends at the first byte that cannot be part of one, so a key cut off
 * without its END line does not swallow the rest of the output; escaped newlines (`\n`
 * inside JSON) are part of the block.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----\nok");
 * // "[REDACTED:pem-private-key]\nok"
 * ```
 *
 * PuTTY's `.ppk` key files: the `Private-Lines: N` line says how many base64 lines of the
 * private key follow; exactly those lines are redacted (the header and the public lines,
 * before it, stay readable; so does the `Private-MAC:` after it).
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet, MAX_BACKSLASHES } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";
import { withNotBefore } from "./not-before.js";

/**
 * A BEGIN line's label: any that ends in `PRIVATE KEY` (RFC 7468's `PRIVATE KEY` and
 * `ENCRYPTED PRIVATE KEY`, OpenSSL's `RSA `, `EC `, `DSA `, OpenSSH's, cosign's `ENCRYPTED
 * SIGSTORE `, Nebula's `NEBULA X25519 `, a TPM's `TSS2 `…), of capitals, digits and
 * blanks, at most {@link MAX_LABEL} bytes.
 */
const LABEL = byteSet("A-Z0-9 ");
const MAX_LABEL = 48;
/** Most bytes of a line that is no key's, held in case the END line follows it. */
const MAX_DOUBT = 64;
/** Base64 bytes that make a line the key's. */
const KEY_LINE = 40;
/** Most bytes of an END line (`-----END OpenVPN tls-crypt-v2 server key-----`). */
const MAX_END_LINE = 64;
/** The END line's name (OpenVPN's have small letters and digits: `Static key V1`). */
const END_LINE = byteSet("A-Za-z0-9 -");
const DASH = 0x2d;

/** The dashes before `BEGIN`, read behind the anchor and redacted with the block. */
const OPENING_DASHES = 5;

/** Any byte but a dash before `BEGIN` rules a block out (`BEGIN TRANSACTION`, `# BEGIN …`). */
const NOT_DASH = Uint8Array.from({ length: 256 }, (_, b) => (b === DASH ? 0 : 1));

export const PEM_PRIVATE_KEY_RULE: MatcherRule = withNotBefore(
  {
    kind: "matcher",
    name: "pem-private-key",
    // Anchored at `BEGIN`, its dashes read behind it: an anchor that began with them stopped
    // the start filter all along every run of dashes (a log's separator lines).
    anchors: [
      "BEGIN",
      "BEGIN PGP PRIVATE KEY BLOCK-----",
      // OpenVPN's shared keys (`openvpn --genkey`): `secret`, `tls-auth`, `tls-crypt` and
      // `tls-crypt-v2` keys, hex or base64 lines in a block of their own name.
      "BEGIN OpenVPN Static key V1-----",
      "BEGIN OpenVPN tls-crypt-v2 server key-----",
      "BEGIN OpenVPN tls-crypt-v2 client key-----",
    ],
    lookbehind: { length: OPENING_DASHES, body: "-" },
    // A held line of base64 and its break, and the next line up to what decides it.
    maxLength: 2 * KEY_LINE + MAX_DOUBT + MAX_END_LINE + 16,
    start(match): Candidate | undefined {
      // A dash right before `BEGIN`: the block claims the dashes still held (up to five; any
      // before them another span has already redacted, or they are fewer: still a key).
      if (match.before !== DASH) return undefined;
      const lead = match.lead?.length ?? 0;
      return match.length === 5 ? new LabelledBlock(lead) : new PemCandidate(match.length, lead);
    },
  },
  NOT_DASH,
);

/** What the block's current line is (see `PemCandidate.line`). */
const Line = {
  /** Base64 so far, held: a line break, a closing quote or {@link KEY_LINE} bytes decide it. */
  Open: 0,
  /** A key's line or a header's: redacted as it is read. */
  Key: 1,
  /** Dashes first: held until it is the END line (`-----END … -----`), or ends the block. */
  End: 2,
  /** An armor's header (`Proc-Type: 4,ENCRYPTED`): redacted as it is read, to its end. */
  Header: 3,
  /**
   * No key's line (`super secret key here`, a placeholder): held, in case the END line
   * follows it (the block is then redacted whole); anything else ends the block before it.
   */
  Doubt: 4,
} as const;

/** Most dashes an END line's first run has (a longer run is a separator line). */
const MAX_DASHES = 16;
/** Headers a key's block may hold before its base64 (RFC 1421's and OpenPGP's armor's). */
const HEADERS = new Set(["proc-type", "dek-info", "comment", "version", "hash", "charset"]);
const BASE64 = byteSet("A-Za-z0-9+/=");

/** An END line (`-----END RSA PRIVATE KEY-----`), read a byte at a time from its first dash. */
class EndLine {
  private dashes = 0;
  /** 0 its dashes; 1-3 matched "E", "N", "D"; 4 its name. */
  private phase = 0;

  reset(): void {
    this.dashes = 0;
    this.phase = 0;
  }

  /** -1: no END line; 0: one so far; 1: it is whole (its closing dashes read). */
  read(byte: number): number {
    if (this.phase === 4) {
      if (END_LINE[byte] !== 1) return -1;
      this.dashes = byte === DASH ? this.dashes + 1 : 0;
      return this.dashes < 5 ? 0 : 1;
    }
    if (byte === DASH) return this.phase !== 0 || ++this.dashes > MAX_DASHES ? -1 : 0;
    if (this.dashes < 5 || byte !== "END".charCodeAt(this.phase)) return -1;
    if (++this.phase === 3) {
      this.phase = 4;
      this.dashes = 0;
    }
    return 0;
  }
}

/** Most bytes between two joined literals' quotes (the operator, a line break, indentation). */
const MAX_JOIN = 64;
const JOIN_OPERATOR = byteSet("+.&");
const BLANKS = byteSet(" \t\r");

/**
 * A byte after a quote that closed one of the block's lines in code that writes the key as
 * joined string literals (`"-----BEGIN RSA PRIVATE KEY-----" +` / `"MIIE…" +` on the next
 * line, `.` in PHP, `&` in Visual Basic, none in C and Python): the quote, an operator, one
 * line break and indentation are held, and redacted once the next literal's quote opens;
 * anything else leaves them, and the block ends at the quote. Inside a string (code in a
 * JSON tool result) the line break and the quotes come escaped (`\n`, `\"`).
 */
function joinedLiterals(
  join: { stage: number; quote: number; bytes: number; escape: boolean },
  input: number,
): Verdict {
  if (++join.bytes > MAX_JOIN) return Verdict.Reject;
  let byte = input;
  if (join.escape) {
    // A run of backslashes reads as one (a string inside a string: `\\n`, `\\\"`).
    if (byte === 0x5c) return Verdict.Hold;
    join.escape = false;
    // `\n` (or a backslash ending the line: Python's and C's continuation), `\"`.
    if (byte === 0x6e || byte === 0x0a) byte = 0x0a;
    else if (byte !== join.quote) return Verdict.Reject;
  } else if (byte === 0x5c) {
    join.escape = true;
    return Verdict.Hold;
  }
  if (BLANKS[byte] === 1) return Verdict.Hold;
  if (byte === 0x0a && join.stage < 3) {
    join.stage = 3;
    return Verdict.Hold;
  }
  if (JOIN_OPERATOR[byte] === 1 && join.stage !== 2 && join.stage !== 4) {
    join.stage = join.stage === 1 ? 2 : 4;
    return Verdict.Hold;
  }
  if (byte !== join.quote || join.stage < 3) return Verdict.Reject;
  join.stage = 0;
  return Verdict.Redact;
}

/** Base64 of a `.ppk` file's private lines. */
const PPK_BODY = byteSet("A-Za-z0-9+/=");
/** Most private lines a PuTTY key has (an RSA-16384 key has ~120). */
const MAX_PPK_LINES = 256;

/** Where a `.ppk` candidate stands: the line count, a line's base64, or a line end. */
const Ppk = { Count: 0, Body: 1, LineEnd: 2 } as const;
type Ppk = (typeof Ppk)[keyof typeof Ppk];
/** `from` before the first private line: nothing held. */
const NONE = Number.MAX_SAFE_INTEGER;

export const PUTTY_PRIVATE_KEY_RULE: MatcherRule = {
  kind: "matcher",
  name: "putty-private-key",
  anchors: ["Private-Lines:"],
  maxLength: 32,
  start(match): Candidate {
    let phase: Ppk = Ppk.Count;
    let lines = 0;
    /** Line ends still to come: the last one ends the last private line. */
    let left = 0;
    let here = match.length - 1;
    let from = NONE;
    /** In a line end, after a backslash (`\\n` inside a JSON or C string). */
    let escaped = false;
    let run = 1;
    const going = (): Verdict => (from === NONE ? Verdict.Hold : Verdict.Redact);
    const lineEnd = (byte: number): Verdict => {
      if (lines === 0) return Verdict.Reject;
      if (--left === 0) return from === NONE ? Verdict.Reject : Verdict.Close;
      phase = Ppk.LineEnd;
      escaped = byte === 0x5c;
      return going();
    };
    return {
      get from() {
        return from;
      },
      next(byte) {
        here++;
        switch (phase) {
          case Ppk.Count:
            if (byte >= 0x30 && byte <= 0x39) {
              lines = lines * 10 + (byte - 0x30);
              return lines > MAX_PPK_LINES ? Verdict.Reject : Verdict.Hold;
            }
            if (byte === 0x20 && lines === 0) return Verdict.Hold;
            if (byte !== 0x0a && byte !== 0x0d && byte !== 0x5c) return Verdict.Reject;
            left = lines + 1;
            return lineEnd(byte);
          case Ppk.LineEnd:
            // `\r\n`, `\n`, or escaped `\\n`, `\\r\\n`.
            if (escaped ? byte === 0x6e || byte === 0x72 : byte === 0x0a) {
              escaped = false;
              run = 1;
              return going();
            }
            // A run of backslashes reads as one (`\\\\n` a string deeper).
            if (byte === 0x5c) {
              if (escaped && ++run > MAX_BACKSLASHES) return Verdict.Reject;
              escaped = true;
              return going();
            }
            if (PPK_BODY[byte] !== 1 || escaped) return Verdict.Reject;
            phase = Ppk.Body;
            if (from === NONE) from = here;
            return Verdict.Redact;
          default:
            if (PPK_BODY[byte] === 1) return Verdict.Redact;
            if (byte === 0x0a || byte === 0x0d || byte === 0x5c) return lineEnd(byte);
            return Verdict.Close;
        }
      },
      end: () => (from === NONE ? Verdict.Reject : Verdict.Close),
    };
  },
};

/**
 * One PEM block from after its BEGIN line's dashes. A line of its body is held, with the
 * line break before it, until it shows it is the key's ({@link KEY_LINE} bytes of base64,
 * an armor's header, the END line); the BEGIN line and a short line of base64 stay held,
 * pending, until the next line does (or a second short one: both are the key's). So a block that
 * stops without its END line (a `grep` hit, a key cut short, a message naming the header)
 * ends after the last line that was the key's: what follows stays, its line break too.
 */
class PemCandidate implements Candidate {
  /** The first byte held. */
  from: number;
  to: number | undefined = undefined;
  private here: number;
  /** The END line read so far, when the line began with a dash. */
  private readonly endLine = new EndLine();
  /** The END line was read whole: the block is done. */
  private done = false;
  /** Between two string literals of code that joins the block's lines (see `joinedLiterals`). */
  private readonly join = { stage: 0, quote: 0, bytes: 0, escape: false };
  private line: number = Line.Open;
  private lineBytes = 0;
  /** The line's first bytes, lowercase, for a header's name. */
  private word = "";
  /** A key's line was read (an armor's headers come before any). */
  private keyRead = false;
  /** The end (a line break, a quote) of the held BEGIN line or short line of base64, or -1. */
  private pending = -1;
  /** The pending line is the BEGIN line, with nothing after its dashes (no key alone). */
  private beginOnly = false;
  /** A backslash was read (at `escapeAt`): the next byte is its escape's letter (`\n`). */
  private escape = false;
  private escapeAt = 0;
  /** A line that was no key's was read: the next must be the END line. */
  private doubted = false;
  /** A blank in a key's line (a key whose line breaks became blanks), at `blankAt`, or -1. */
  private blankAt = -1;

  constructor(anchorLength: number, lead: number) {
    this.from = -lead;
    this.here = anchorLength - 1;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    this.to = undefined;
    if (this.join.stage !== 0) return this.joinByte(byte);
    if (this.done) return Verdict.Reject;
    if (this.escape) {
      // A run of backslashes reads as one (a string inside a string: `\\n`).
      if (byte === 0x5c) return Verdict.Hold;
      this.escape = false;
      if (byte === 0x6e || byte === 0x72) return this.held(this.escapeAt);
      // `\"` closes a literal inside a string; `\/` (PHP's JSON) is the key's `/`, `\t` a tab.
      if (byte === 0x22) return this.literalEnd(byte, this.escapeAt);
      return this.lineByte(byte === 0x2f ? byte : byte === 0x74 ? 0x09 : -1, here);
    }
    if (byte === 0x5c) {
      this.escape = true; // held: its letter decides
      this.escapeAt = here;
      return Verdict.Hold;
    }
    if (byte === 0x0a || byte === 0x0d) return this.held(here);
    if (byte === 0x22 || byte === 0x27) return this.literalEnd(byte, here);
    return this.lineByte(byte, here);
  }

  /** A byte of the current line (-1 for one no key's line holds). */
  private lineByte(byte: number, here: number): Verdict {
    // The line's indentation (a block in YAML, in an indented string literal).
    if ((byte === 0x20 || byte === 0x09) && this.lineBytes === 0 && this.line === Line.Open)
      return Verdict.Hold;
    const blanks = this.blankAt;
    if (this.line === Line.Key && this.keyBlank(byte, here)) return Verdict.Hold;
    // A dash starts the END line (on the key's last line too, in a one-line block).
    if (byte === DASH && (this.lineBytes === 0 || this.line === Line.Key)) {
      if (this.line === Line.Key) this.from = blanks >= 0 ? blanks : here;
      this.line = Line.End;
      this.lineBytes = 0;
      this.endLine.reset();
    } else if (this.doubted && this.lineBytes === 0) return this.ends();
    this.lineBytes++;
    if (this.line === Line.Doubt) return this.lineBytes > MAX_DOUBT ? this.ends() : Verdict.Hold;
    if (this.line === Line.End) {
      // The END line, held until it is whole.
      const read = this.lineBytes > MAX_END_LINE ? -1 : this.endLine.read(byte);
      if (read !== 1) return read < 0 ? this.ends() : Verdict.Hold;
      this.done = true;
      return this.isKey();
    }
    if (this.line === Line.Header) return byte >= 0x20 ? Verdict.Redact : this.ends();
    if (this.line === Line.Key) return BASE64[byte] === 1 ? Verdict.Redact : this.ends();
    if (BASE64[byte] === 1) {
      if (this.word.length < 16) this.word += String.fromCharCode(byte | 0x20);
      return this.lineBytes >= KEY_LINE ? this.isKey() : Verdict.Hold;
    }
    // An armor's header before the key's lines (`Proc-Type: 4,ENCRYPTED`, `Version: …`).
    if (byte === 0x3a && !this.keyRead && HEADERS.has(this.word)) {
      this.line = Line.Header;
      this.pending = -1;
      return Verdict.Redact;
    }
    if (byte === DASH && this.word.length < 16) {
      this.word += "-";
      return Verdict.Hold;
    }
    // No key's line: held, the END line may follow it.
    if (this.doubted || this.lineBytes > MAX_DOUBT) return this.ends();
    this.line = Line.Doubt;
    return Verdict.Hold;
  }

  /**
   * A blank in a key's line, or the byte after blanks there: blanks are held, and go with
   * the key when its base64 (or its END line) goes on after them (a key whose line breaks
   * became blanks); anything else ends the block at them. True when `byte` is held.
   */
  private keyBlank(byte: number, here: number): boolean {
    if (byte === 0x20 || byte === 0x09) {
      if (this.blankAt < 0) this.blankAt = here;
      this.from = this.blankAt;
      return true;
    }
    if (this.blankAt < 0) return false;
    if (BASE64[byte] !== 1 && byte !== DASH) {
      this.line = Line.Doubt; // ended at the blanks: released with what follows
      this.doubted = true;
    }
    this.blankAt = -1;
    return false;
  }

  /** The current line is the key's (or a header): all held is redacted, the rest as read. */
  private isKey(): Verdict {
    this.line = Line.Key;
    this.keyRead = true;
    this.pending = -1;
    return Verdict.Redact;
  }

  /** The block ends at this byte: after the pending line, if one is (the BEGIN line alone stays). */
  private ends(): Verdict {
    if (this.pending < 0 || this.beginOnly) return Verdict.Reject;
    this.to = this.pending;
    return Verdict.Close;
  }

  /**
   * The current line ends at `at` (a line break or a literal's closing quote), and the
   * next begins: after a key's line the break is held with the next line; the BEGIN line
   * and a first short line of base64 are held, pending; a second one makes both the key's.
   */
  private held(at: number): Verdict {
    const { line, lineBytes } = this;
    if (line === Line.End) return this.ends();
    this.line = Line.Open;
    this.lineBytes = 0;
    this.word = "";
    this.endLine.reset();
    if (line === Line.Key || line === Line.Header) {
      this.from = at;
      return Verdict.Hold;
    }
    if (line === Line.Doubt) {
      this.doubted = true; // the END line must come next
      return Verdict.Hold;
    }
    if (lineBytes === 0) {
      // The BEGIN line's end (held, pending: it alone is no key), or an empty line (the
      // armor's, after its headers).
      if (this.from < 0 && this.pending < 0) {
        this.pending = at;
        this.beginOnly = true;
      }
      return Verdict.Hold;
    }
    if (this.pending >= 0 && !this.beginOnly) {
      // A second short line of base64: both are the key's.
      this.isKey();
      this.line = Line.Open;
      return Verdict.Redact;
    }
    this.pending = at;
    this.beginOnly = false;
    return Verdict.Hold;
  }

  /** A literal's closing quote at `at`: the line ends there; joined literals may follow. */
  private literalEnd(quote: number, at: number): Verdict {
    const verdict = this.held(at);
    if (verdict !== Verdict.Hold && verdict !== Verdict.Redact) return verdict;
    this.join.stage = 1;
    this.join.quote = quote;
    this.join.bytes = 0;
    this.join.escape = false;
    return verdict;
  }

  /**
   * Between two joined literals: the next one's quote opens the next line, held with them.
   * A line of base64 or the END line with no quote after the line break goes on as written
   * lines do (a key whose last lines were pasted without their quotes).
   */
  private joinByte(byte: number): Verdict {
    const stage = this.join.stage;
    if (joinedLiterals(this.join, byte) !== Verdict.Reject) return Verdict.Hold;
    if (stage < 3 || (BASE64[byte] !== 1 && byte !== DASH)) return this.ends();
    this.join.stage = 0;
    return this.lineByte(byte, this.here);
  }

  skip(input: Uint8Array, start: number, end: number): number {
    // A key's line: base64 redacted as it is read, up to a byte that decides something.
    // (Not after held blanks: their verdict was a hold, and `skip` repeats the last verdict.)
    if (this.line !== Line.Key || this.escape || this.join.stage !== 0 || this.blankAt >= 0)
      return start;
    let i = start;
    while (i < end && BASE64[input[i]!] === 1) i++;
    this.here += i - start;
    this.lineBytes += i - start;
    return i;
  }

  end(): Verdict {
    const line = this.line;
    if (line === Line.Key || line === Line.Header || (line === Line.Open && this.lineBytes > 0))
      return Verdict.Close;
    return this.ends();
  }
}

keepShape(new PemCandidate(10, 0));

/**
 * A block from its `BEGIN` on: a blank, then its label, read up to its dashes, and a private key's
 * (see {@link LABEL}) goes on as a {@link PemCandidate}; any other (`CERTIFICATE`, `PGP
 * PRIVATE KEY BLOCK`, which has its own anchor) ends it.
 */
class LabelledBlock implements Candidate {
  private label = "";
  private dashes = 0;
  /** Offset of the byte read last (`BEGIN` is 0 to 4). */
  private here = 4;
  private block: PemCandidate | null = null;

  constructor(private readonly lead: number) {}

  get from(): number {
    return this.block === null ? -this.lead : this.block.from;
  }

  get to(): number | undefined {
    return this.block?.to;
  }

  next(byte: number): Verdict {
    if (this.block !== null) return this.block.next(byte);
    if (++this.here === 5) return byte === 0x20 ? Verdict.Hold : Verdict.Reject;
    if (this.dashes === 0 && LABEL[byte] === 1) {
      this.label += String.fromCharCode(byte);
      return this.label.length > MAX_LABEL ? Verdict.Reject : Verdict.Hold;
    }
    if (byte !== DASH) return Verdict.Reject;
    if (
      this.dashes === 0 &&
      this.label !== "PRIVATE KEY" &&
      !(this.label.endsWith(" PRIVATE KEY") && this.label.charCodeAt(0) !== 0x20)
    )
      return Verdict.Reject;
    if (++this.dashes === 5) this.block = new PemCandidate(this.here + 1, this.lead);
    return Verdict.Hold;
  }

  skip(input: Uint8Array, start: number, end: number): number {
    return this.block === null ? start : this.block.skip(input, start, end);
  }

  end(): Verdict {
    return this.block === null ? Verdict.Reject : this.block.end();
  }
}

keepShape(new LabelledBlock(0));
