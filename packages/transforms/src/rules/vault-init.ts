/**
 * HashiCorp Vault's unseal and recovery keys, as `vault operator init` prints them: any
 * holder of enough of them can unseal the vault. Vault documents three outputs, and each is
 * read here:
 *
 * - the table: `Unseal Key 1: <base64>`, `Recovery Key 2: <base64>`;
 * - JSON (`-format=json`, the `sys/init` API): `"unseal_keys_b64": ["…", "…"]`, and
 *   `unseal_keys_hex`, `recovery_keys_b64`, `recovery_keys_hex`, `keys_base64`;
 * - YAML (`-format=yaml`): `unseal_keys_b64:` and a `- <key>` line per key.
 *
 * Every key of a list is its own span (the quotes, commas and dashes between stay); a key is
 * a run of 16 to {@link MAX_KEY} base64 or hex bytes. The root token (`hvs.…`) is the
 * catalogue's. The list's bare `"keys": […]` (hex) is not read: that name holds anything.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("Unseal Key 1: 4jYbl2CBIv6SpkKj6Hos9iD32k5RfGkLzlosrrq/JgOm\n");
 * // "Unseal Key 1: [REDACTED:vault-unseal-key]\n"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet, DIGIT, MAX_BACKSLASHES, withControls } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";

/** Most bytes of one key (a Shamir share of a 32-byte key is 33 bytes: 66 in hex). */
const MAX_KEY = 256;
/** Fewest bytes of a key. */
const MIN_KEY = 16;
/** Most bytes between keys, and between the name and the first key. */
const MAX_GAP = 64;
/** A key's bytes: base64 and hex. */
const KEY = byteSet("A-Za-z0-9+/=");
/** Blanks within a line. */
const INLINE = byteSet(" \t");
/** Blanks and line ends. */
const SPACE = byteSet(" \t\r\n");
/**
 * Bytes that end a key: quoted, its quote (or the backslash of `\"`); in a list, a blank or
 * an escape (`\n` inside a string); in a table, a quote too (the end of the string the line
 * stands in: `{"log":"Unseal Key 1: …"}`).
 */
const QUOTED_END = withControls(byteSet("\"'\\"));
const LIST_END = withControls(byteSet(" \t\r\n\\"));
const TABLE_END = withControls(byteSet(" \t\r\n\"'\\"));
/** Bytes that may stand before a name: not a letter, digit or `_` (a longer name). */
const NAME_BEFORE = byteSet("A-Za-z0-9_");

const TABLE_ANCHORS = ["Unseal Key", "Recovery Key"];
const LIST_ANCHORS = [
  "unseal_keys_b64",
  "unseal_keys_hex",
  "recovery_keys_b64",
  "recovery_keys_hex",
  "keys_base64",
];

const Phase = {
  /** Table: a blank, the share's number, then `:`. */
  Number: 0,
  /** Table: blanks before the key. */
  TableGap: 1,
  /** List: the name's closing quote (or `\"`), blanks, then `:`. */
  AfterName: 2,
  /** List: blanks or a line end, then `[` (JSON) or a line's `-` (YAML). */
  Opening: 3,
  /** List: between keys (blanks, line ends, `,` in JSON, a line's `- ` in YAML). */
  Between: 4,
  /** A key's bytes. */
  Key: 5,
} as const;

export const VAULT_UNSEAL_KEY_RULE: MatcherRule = {
  kind: "matcher",
  name: "vault-unseal-key",
  anchors: [...TABLE_ANCHORS, ...LIST_ANCHORS],
  maxLength: MAX_KEY + 2 * MAX_GAP,
  start(match): Candidate | undefined {
    if (match.before >= 0 && NAME_BEFORE[match.before] === 1) return undefined;
    return new VaultKeyCandidate(match.length, match.anchor.endsWith("Key"));
  },
};

/** The keys after one name or table label, read a key at a time. */
class VaultKeyCandidate implements Candidate {
  phase: number;
  /** Offset (from the anchor) of the byte read last. */
  here: number;
  /** The first byte still held, or of the key redacted. */
  from: number;
  /** Where the key just redacted ends (set with the verdict that redacts it). */
  to: number | undefined = undefined;
  /** Bytes read in the current phase (a gap, the number, the key). */
  count = 0;
  /** The list is JSON (`[` seen): keys are quoted, `]` ends it. */
  json = false;
  /** The key being read, or the next, is quoted (a quote ends it). */
  quoted = false;
  /** The last key ended at a backslash (`\"` inside a JSON string): its quote comes next. */
  closing = false;
  /** Backslashes read in a row between keys (or ending the last key): an escape's. */
  backslashes = 0;
  lineStart = false; // YAML: a line end was read since the last key: a `-` starts the next

  constructor(
    anchorLength: number,
    /** The table's `Unseal Key N:` (one key), not a list's name. */
    private readonly table: boolean,
  ) {
    this.here = anchorLength - 1;
    this.from = anchorLength;
    this.phase = table ? Phase.Number : Phase.AfterName;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    this.to = undefined;
    if (this.phase === Phase.Key) return this.key(byte, here);
    this.from = here + 1;
    if (++this.count > MAX_GAP) return Verdict.Reject;
    switch (this.phase) {
      case Phase.Number:
        if (this.count === 1) return byte === 0x20 ? Verdict.Hold : Verdict.Reject;
        if (DIGIT[byte] === 1) return Verdict.Hold;
        if (byte !== 0x3a || this.count === 2) return Verdict.Reject;
        this.phase = Phase.TableGap;
        return Verdict.Hold;
      case Phase.TableGap:
        return INLINE[byte] === 1 ? Verdict.Hold : this.keyStart(byte, here);
      case Phase.AfterName:
        if (byte === 0x22 || byte === 0x27 || byte === 0x5c || INLINE[byte] === 1)
          return Verdict.Hold;
        if (byte !== 0x3a) return Verdict.Reject;
        this.phase = Phase.Opening;
        return Verdict.Hold;
      case Phase.Opening:
        if (this.backslashes > 0 || byte === 0x5c) return this.escapedBlank(byte);
        if (byte === 0x5b) this.json = true;
        else if (byte === 0x0a) this.lineStart = true;
        else if (SPACE[byte] !== 1) return this.dash(byte);
        if (this.json) this.phase = Phase.Between;
        return Verdict.Hold;
      default:
        return this.json ? this.jsonGap(byte, here) : this.yamlGap(byte, here);
    }
  }

  /** YAML: a line's `-` starts an item (after a line end only). */
  private dash(byte: number): Verdict {
    if (byte !== 0x2d || !this.lineStart) return Verdict.Reject;
    this.lineStart = false;
    this.phase = Phase.Between;
    return Verdict.Hold;
  }

  /**
   * A backslash, or the byte after one, between keys: inside a JSON string the list's line
   * ends are `\n` (a line end), `\r`, `\t` (blanks), and its quotes `\"`.
   */
  private escapedBlank(byte: number): Verdict {
    // A run of backslashes reads as one (`\\n`, `\\\"`: see `MAX_BACKSLASHES`).
    if (byte === 0x5c) return ++this.backslashes > MAX_BACKSLASHES ? Verdict.Reject : Verdict.Hold;
    this.backslashes = 0;
    if (byte === 0x6e) this.lineStart = true;
    else if (byte !== 0x72 && byte !== 0x74) return Verdict.Reject;
    return Verdict.Hold;
  }

  /** Between JSON keys: blanks, `,`, quotes (escaped or not); `]` ends the list. */
  private jsonGap(byte: number, here: number): Verdict {
    if (this.backslashes > 0 && byte === 0x22) this.backslashes = 0;
    else if (this.backslashes > 0 || byte === 0x5c) return this.escapedBlank(byte);
    if (byte === 0x22) {
      // The last key's closing quote, or the next key's opening one.
      this.quoted = !this.closing;
      this.closing = false;
      return Verdict.Hold;
    }
    if (SPACE[byte] === 1 || byte === 0x2c) return Verdict.Hold;
    // `]` (the list's end; every key is out) or anything else: done.
    return this.quoted ? this.keyStart(byte, here) : Verdict.Reject;
  }

  /** Between YAML items: a line end, blanks, `-`, an optional quote. */
  private yamlGap(byte: number, here: number): Verdict {
    if (this.backslashes > 0 || byte === 0x5c) return this.escapedBlank(byte);
    if (byte === 0x0a) {
      this.lineStart = true;
      return Verdict.Hold;
    }
    if (SPACE[byte] === 1) return Verdict.Hold;
    // A line's first byte that is no `-`: the next YAML key, and the list is over.
    if (this.lineStart) return this.dash(byte);
    if ((byte === 0x22 || byte === 0x27) && !this.quoted) {
      this.quoted = true;
      return Verdict.Hold;
    }
    return this.keyStart(byte, here);
  }

  private keyStart(byte: number, here: number): Verdict {
    if (KEY[byte] !== 1) return Verdict.Reject;
    this.phase = Phase.Key;
    this.from = here;
    this.count = 1;
    return Verdict.Hold;
  }

  /** A key's byte, or the byte that ends it: redact the key when it is long enough. */
  private key(byte: number, here: number): Verdict {
    if (KEY[byte] === 1) return ++this.count > MAX_KEY ? Verdict.Reject : Verdict.Hold;
    const ends = this.quoted ? QUOTED_END : this.table ? TABLE_END : LIST_END;
    if (ends[byte] !== 1 || this.count < MIN_KEY) return Verdict.Reject;
    if (this.table) return Verdict.Close; // a list reads on to its next key
    this.to = here;
    this.phase = Phase.Between;
    this.count = 0;
    // A backslash ends a key inside a JSON string: its quote or `n` follows.
    this.backslashes = byte === 0x5c ? 1 : 0;
    this.closing = this.backslashes > 0 && this.quoted;
    this.quoted = false;
    this.lineStart = byte === 0x0a;
    return Verdict.Redact;
  }

  end(): Verdict {
    const key = this.phase === Phase.Key && this.count >= MIN_KEY && !this.quoted;
    return key ? Verdict.Close : Verdict.Reject;
  }
}

keepShape(new VaultKeyCandidate(10, true));
