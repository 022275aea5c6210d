/**
 * Ansible Vault's encrypted payloads, as `ansible-vault encrypt` writes a file and
 * `encrypt_string` a YAML value (`password: !vault |` and the block indented under it): the
 * header `$ANSIBLE_VAULT;1.1;AES256` (or `1.2;AES256;<vault id>`), then lines of hex digits.
 * The payload is the secret encrypted with the vault's password, which a weak password gives
 * up to an offline attack, as a password's hash does: each line's hex is redacted on its own,
 * the header, line breaks and indentation stay; also inside a JSON string (lines ending in
 * `\n`).
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("$ANSIBLE_VAULT;1.1;AES256\n3637383664333662663964353434653862376662\n");
 * // "$ANSIBLE_VAULT;1.1;AES256\n[REDACTED:ansible-vault]\n"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { ALNUM, byteSet, MAX_BACKSLASHES } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";
import { withNotBefore } from "./not-before.js";

/** Most bytes of the header after its anchor (`1.2;AES256;` and a vault id). */
const MAX_HEADER = 64;
/** Most blanks before a payload line (YAML's indentation). */
const MAX_INDENT = 32;
/** Most hex digits of a line (Ansible writes 80). */
const MAX_LINE = 128;
/** Fewest hex digits of the first line (the last one may be short). */
const MIN_FIRST = 32;
const HEX = byteSet("0-9a-fA-F");
const HEADER = byteSet("!-~");

const Phase = {
  /** The header's rest, to its line's end. */
  Header: 0,
  /** A line's indentation, then its first hex digit. */
  Indent: 1,
  /** A line's hex digits, to its end. */
  Hex: 2,
} as const;

export const ANSIBLE_VAULT_RULE: MatcherRule = withNotBefore(
  {
    kind: "matcher",
    name: "ansible-vault",
    anchors: ["$ANSIBLE_VAULT;"],
    maxLength: MAX_HEADER + MAX_INDENT + MAX_LINE + 2,
    start(match): Candidate | undefined {
      if (match.before >= 0 && ALNUM[match.before] === 1) return undefined;
      return new VaultPayloadCandidate(match.length);
    },
  },
  ALNUM,
);

/** The payload's lines after one header, each redacted once its line ends. */
class VaultPayloadCandidate implements Candidate {
  phase: number = Phase.Header;
  /** Offset (from the anchor) of the byte read last. */
  here: number;
  /** The current line's first hex digit. */
  from: number;
  /** Where the line just redacted ends (set with the verdict that redacts it). */
  to: number | undefined = undefined;
  /** Bytes read in the current phase. */
  count = 0;
  /** Lines redacted. */
  lines = 0;
  /** A `\r` ended the last line: its `\n` may follow. */
  cr = false;
  /** A backslash was read (inside a JSON string, an escape follows). */
  escaped = false;
  /** Where the last run of backslashes started: a line's end when `n` follows it. */
  lineEnd = 0;
  /** Backslashes in that run (a string inside a string escapes its escapes). */
  backslashes = 0;

  constructor(anchorLength: number) {
    this.here = anchorLength - 1;
    this.from = anchorLength;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    this.to = undefined;
    // Inside a JSON string a line ends with the escape `\n` (`\r\n`): the byte after a
    // backslash says which.
    if (this.escaped) return this.escape(byte);
    if (byte === 0x5c) {
      this.escaped = true;
      this.lineEnd = here;
      this.backslashes = 1;
      return Verdict.Hold;
    }
    if (this.phase === Phase.Hex) return this.hex(byte, here);
    if (this.phase === Phase.Header) {
      if (byte === 0x0a) return this.lineEnded(false);
      const header = HEADER[byte] === 1 || byte === 0x0d;
      return header && ++this.count <= MAX_HEADER ? Verdict.Hold : Verdict.Reject;
    }
    if (byte === 0x0a && this.cr) {
      this.cr = false;
      return Verdict.Hold;
    }
    this.cr = false;
    if (byte === 0x20 || byte === 0x09)
      return ++this.count <= MAX_INDENT ? Verdict.Hold : Verdict.Reject;
    // A line that holds no payload ends it (the lines before it are out already).
    if (HEX[byte] !== 1) return Verdict.Reject;
    this.phase = Phase.Hex;
    this.from = here;
    this.count = 1;
    return Verdict.Hold;
  }

  /** The byte after a backslash: `n` (or `r`) ends a line, `t` indents one. */
  private escape(byte: number): Verdict {
    // A run of backslashes reads as one (`\\n`: see `MAX_BACKSLASHES`).
    if (byte === 0x5c) return ++this.backslashes > MAX_BACKSLASHES ? Verdict.Reject : Verdict.Hold;
    this.escaped = false;
    const cr = byte === 0x72;
    if (byte !== 0x6e && !cr && !(byte === 0x74 && this.phase === Phase.Indent))
      return Verdict.Reject;
    if (byte === 0x74) return ++this.count <= MAX_INDENT ? Verdict.Hold : Verdict.Reject;
    if (this.phase === Phase.Hex) return this.lineDone(this.lineEnd, cr);
    // `\r\n` after a line, or the header's end.
    if (this.phase === Phase.Indent && byte === 0x6e && this.cr) {
      this.cr = false;
      return Verdict.Hold;
    }
    if (this.phase === Phase.Header) return byte === 0x6e ? this.lineEnded(false) : Verdict.Hold;
    return Verdict.Reject;
  }

  /** A line's byte: a hex digit, or its end (the line is redacted), or anything else. */
  private hex(byte: number, here: number): Verdict {
    if (HEX[byte] === 1) return ++this.count <= MAX_LINE ? Verdict.Hold : Verdict.Reject;
    if (byte !== 0x0a && byte !== 0x0d) return Verdict.Reject;
    return this.lineDone(here, byte === 0x0d);
  }

  /** The line's hex ended before `at`: redacted, when the payload is long enough. */
  private lineDone(at: number, cr: boolean): Verdict {
    if (this.lines === 0 && this.count < MIN_FIRST) return Verdict.Reject;
    this.lineEnded(cr);
    this.to = at;
    this.lines++;
    return Verdict.Redact;
  }

  private lineEnded(cr: boolean): Verdict {
    this.phase = Phase.Indent;
    this.count = 0;
    this.cr = cr;
    return Verdict.Hold;
  }

  end(): Verdict {
    const line = this.phase === Phase.Hex && (this.lines > 0 || this.count >= MIN_FIRST);
    return line ? Verdict.Close : Verdict.Reject;
  }
}

keepShape(new VaultPayloadCandidate(15));
