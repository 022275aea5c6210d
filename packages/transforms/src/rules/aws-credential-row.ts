/**
 * AWS keys as the AWS CLI's text output and the console's key file print them, where no
 * name stands before the secret: `aws iam create-access-key --output text` prints a row
 * `ACCESSKEY`, the key's id, its date, the secret access key, its status and user; `aws sts
 * get-session-token` (and `assume-role`) print `CREDENTIALS`, the id, the expiry, the
 * secret access key and the session token, a field each, tab-separated. The console's
 * `…_accessKeys.csv` has the header `Access key ID,Secret access key` and the keys on the
 * next line, and a console user's `credentials.csv` the header `User name,Password,…`
 * with the user's password in the second column (redacted whole). In those rows a field of
 * 40 or more bytes of base64 with a small letter, a
 * capital and a digit or a sign (the secret access key is 40, the session token longer)
 * is redacted, from its 40th byte on as it is read; the other fields stay (the id is the
 * catalogue's). Inside a string the tabs and the line's end come escaped (`\t`, `\n`).
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("ACCESSKEY\tAKIAQXK9MQ2VLP7RTZ4W\t2024-05-01T12:00:00+00:00\twJa1rXUtnFEMI/K7MDENG/bPxRfiCYzX9mQ2vLp7Rt\tActive\tbob");
 * // "ACCESSKEY\t[REDACTED:aws-access-key-id]\t2024-05-01T12:00:00+00:00\t[REDACTED:aws-credential-row]\tActive\tbob"
 * ```
 */
import { type AnchorMatch, type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet, MAX_BACKSLASHES } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";
import { withNotBefore } from "./not-before.js";

/** The secret access key's length: a field this long of base64 is a secret. */
const SECRET_LENGTH = 40;
/** Most bytes of the row (the CSV's header's rest and its next line) held undecided. */
const MAX_ROW = 4096;
const BASE64 = byteSet("A-Za-z0-9+/=");
/**
 * The class of a base64 byte, a bit each: a small letter, a capital, a digit or a sign (a
 * random key has all three; a word of 40 letters has not).
 */
const CLASS_BIT = (() => {
  const bits = new Uint8Array(256);
  for (const [bytes, bit] of [
    [byteSet("a-z"), 1],
    [byteSet("A-Z"), 2],
    [byteSet("0-9+/="), 4],
  ] as const)
    for (let b = 0; b < 256; b++) if (bytes[b] === 1) bits[b] = bit;
  return bits;
})();
const ALL_CLASSES = 7;

const CSV_HEADER = "Access key ID,Secret access key";
/** A console user's credentials file: its second column is the user's password. */
const USER_CSV_HEADER = "User name,Password,";

/** Bytes that rule the row's label out before it: it is a word of its own. */
const NAME_BYTE = byteSet("A-Za-z0-9_-");

export const AWS_CREDENTIAL_ROW_RULE: MatcherRule = withNotBefore(
  {
    kind: "matcher",
    name: "aws-credential-row",
    anchors: ["ACCESSKEY", "CREDENTIALS", CSV_HEADER, USER_CSV_HEADER],
    // A field's first bytes, before it is long enough to be a key.
    maxLength: SECRET_LENGTH + 2,
    start(match: AnchorMatch): Candidate | undefined {
      if (match.before >= 0 && NAME_BYTE[match.before] === 1) return undefined;
      const csv = match.anchor === CSV_HEADER || match.anchor === USER_CSV_HEADER;
      return new RowCandidate(match.length, csv, match.anchor === USER_CSV_HEADER ? 1 : -1);
    },
  },
  NAME_BYTE,
);

/** One row's fields (for the CSV, the header's rest first), read a field at a time. */
class RowCandidate implements Candidate {
  /** Offset (from the anchor) of the byte read last. */
  private here: number;
  /** The first byte still held: the current field's start while it may be a key. */
  private claim: number;
  /** The CSV's header's rest is being read (its line feed starts the row). */
  private header: boolean;
  /** The fields' separator: a tab, or the CSV's comma. */
  private readonly separator: number;
  private fieldAt: number;
  /** The current field is base64 so far (it may be a key); its bytes' classes (`CLASS_BIT`). */
  private base64 = true;
  private classes = 0;
  /** Backslashes read in a row inside a string: the byte after them says what they escape. */
  private backslashes = 0;
  /** The row's label was read: the tab after it (or its escape) must follow. */
  private label: boolean;
  /** The row stands inside a string (the CSV may): its tabs and line ends are escapes. */
  private escaped: boolean;
  /** The current field's index in the row. */
  private column = 0;
  /** The password's field is quoted (RFC 4180's `"…"`), a quote read last (`""` is one). */
  private quoted = false;
  private quote = false;

  constructor(
    anchorLength: number,
    csv: boolean,
    /** The row's column that holds a password, -1 for none. */
    private readonly passwordColumn: number,
  ) {
    this.here = anchorLength - 1;
    this.claim = anchorLength;
    this.fieldAt = anchorLength;
    this.header = csv;
    this.label = !csv;
    this.escaped = csv;
    this.separator = csv ? 0x2c : 0x09;
  }

  get from(): number {
    return this.claim;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    if (here > MAX_ROW) return Verdict.Reject;
    if (this.label) {
      // `ACCESSKEY\t…`, or `ACCESSKEY\\t…` inside a string (`\\\\t` a string deeper).
      if (byte === 0x5c) {
        this.escaped = true;
        if (++this.backslashes > MAX_BACKSLASHES) return Verdict.Reject;
        return this.fieldEnd(here);
      }
      if (byte !== (this.escaped ? 0x74 : 0x09)) return Verdict.Reject;
      this.label = false;
      this.backslashes = 0;
      return this.fieldEnd(here);
    }
    if (this.backslashes > 0) {
      // A run of backslashes reads as one (see `MAX_BACKSLASHES`).
      if (byte === 0x5c)
        return ++this.backslashes > MAX_BACKSLASHES ? Verdict.Reject : Verdict.Hold;
      this.backslashes = 0;
      // `\t` ends a field, `\n` or `\r` the line; another escape is a byte of the field.
      if (byte === 0x74 && this.separator === 0x09) return this.fieldEnd(here);
      if (byte === 0x6e || byte === 0x72) return this.lineEnd(here, byte === 0x6e);
      return this.fieldByte(byte, here);
    }
    if (byte === 0x5c && this.escaped) {
      this.backslashes = 1; // held: the next byte decides
      return Verdict.Hold;
    }
    if (byte === 0x0a || byte === 0x0d) return this.lineEnd(here, byte === 0x0a);
    if (this.header) {
      this.claim = here + 1;
      return Verdict.Hold;
    }
    if (this.column === this.passwordColumn) return this.passwordByte(byte, here);
    if (byte === this.separator) return this.fieldEnd(here);
    return this.fieldByte(byte, here);
  }

  /** A byte of the password's field: redacted, its quotes too, up to the comma after it. */
  private passwordByte(byte: number, here: number): Verdict {
    const open = this.quoted && !this.quote;
    if (byte === this.separator && !open) return this.fieldEnd(here);
    if (here === this.fieldAt && byte === 0x22) this.quoted = true;
    else if (byte === 0x22) this.quote = !this.quote;
    else this.quote = false;
    this.claim = this.fieldAt;
    return Verdict.Redact;
  }

  /** A byte of the current field: a key's is redacted from its 40th byte on. */
  private fieldByte(byte: number, here: number): Verdict {
    if (BASE64[byte] !== 1) this.base64 = false;
    if (!this.base64) {
      this.claim = here + 1;
      return Verdict.Hold;
    }
    this.classes |= CLASS_BIT[byte]!;
    if (this.isKey(here + 1)) {
      this.claim = this.fieldAt;
      return Verdict.Redact;
    }
    // Not a key by its 40th byte (a word, a name): kept, whatever follows.
    if (here + 1 - this.fieldAt >= SECRET_LENGTH) {
      this.base64 = false;
      this.claim = here + 1;
    }
    return Verdict.Hold;
  }

  /** The current field, through `end`, is a key's so far. */
  private isKey(end: number): boolean {
    return this.base64 && this.classes === ALL_CLASSES && end - this.fieldAt >= SECRET_LENGTH;
  }

  /**
   * The field ended, its separator read through `here` (a key's bytes were redacted as
   * they were read): the next field starts after it.
   */
  private fieldEnd(here: number): Verdict {
    if (!this.header && !this.label) this.column++;
    this.fieldAt = here + 1;
    this.quoted = false;
    this.quote = false;
    this.claim = here + 1;
    this.base64 = true;
    this.classes = 0;
    return Verdict.Hold;
  }

  /**
   * The line ended, read through `here`: the CSV's header's line feed starts its row; a
   * row's end ends the candidate (its keys were redacted as they were read).
   */
  private lineEnd(here: number, lineFeed: boolean): Verdict {
    if (!this.header) return Verdict.Reject;
    this.header = !lineFeed;
    this.fieldEnd(here);
    this.column = 0;
    return Verdict.Hold;
  }

  end(): Verdict {
    return Verdict.Reject;
  }
}

keepShape(new RowCandidate(10, false, -1));
