/**
 * A Kubernetes Secret's `data:` block in YAML, as `kubectl get secret -o yaml` prints it and
 * manifests hold it: every value there is a secret's bytes in base64, whatever its key is
 * named (`username: YWRtaW4=`, `extra: …`), and `stringData:` holds them as written. The
 * anchor is the block's name at the start of its line (`data:`, `stringData:`), with
 * nothing after it on the line; its entries are the lines after it at one deeper
 * indentation, each `<key>: <value>` (the value quoted or not), also inside a JSON string
 * (`\n`, `\t` and `\"` escaped). Each value is redacted and its key kept.
 *
 * `kubectl` prints `kind: Secret` after `data:`, so the block cannot wait for it: a
 * `data:` value counts as a Secret's only when it is base64 of text (4 to
 * {@link MAX_VALUE} characters, whole groups of four with their padding, every decoded byte
 * printable). A ConfigMap's `data:` holds plain values, which seldom are (`debug`, `true`,
 * `8080` are not): the first value that is not ends the block and stays. A certificate or
 * a public key (`ca.crt`: its armor decoded) and a value longer than {@link MAX_VALUE} are
 * kept and the block goes on; a private key in a long one is the base64 view's
 * (`base64-runs.ts`). A `stringData:` value is redacted unless it is a placeholder (`$X`,
 * `{{ … }}`, `<…>`) or SOPS's ciphertext (`ENC[…]`).
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("data:\n  username: YWRtaW4=\n  extra: czNjcjN0LXZhbHVl\nkind: Secret\n");
 * // "data:\n  username: [REDACTED:kubernetes-secret]\n  extra: [REDACTED:kubernetes-secret]\nkind: Secret\n"
 * ```
 */
import { type AnchorMatch, type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";

/** Most characters of a value judged; a longer one is kept and the block goes on. */
export const MAX_VALUE = 1024;
/** Most bytes of an entry's key, and of an entry line's indentation. */
const MAX_KEY = 253;
const MAX_INDENT = 32;
/** A key's bytes (Kubernetes' keys: letters, digits, `-`, `_`, `.`). */
const KEY = byteSet("A-Za-z0-9._-");
/** Base64's value of each character, -1 for none (`=` is padding, read apart). */
const SEXTET = new Int8Array(256).fill(-1);
for (let i = 0; i < 64; i++)
  SEXTET["ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".charCodeAt(i)] = i;
/** Decoded bytes that text holds. */
const TEXT = byteSet(" -~\t\n\r");
/** SOPS's encrypted value's start. */
const SOPS = "ENC[";
/** First bytes of a placeholder in `stringData:` (`$DB_PASSWORD`, `{{ .Values.x }}`, `<password>`). */
const PLACEHOLDER = byteSet("${<");

/** Decoded bytes kept to tell a certificate or a public key ({@link PUBLIC_ARMOR}). */
const HEAD = 24;
/** A certificate's or a public key's armor: published, no secret (`ca.crt`). */
const PUBLIC_ARMOR = /^-----BEGIN (?:CERTIFICATE|PUBLIC KEY|X509 CRL)/;

const LF = 0x0a;
const CR = 0x0d;
const TAB = 0x09;
const SPACE = 0x20;
const COLON = 0x3a;
const EQUALS = 0x3d;
const BACKSLASH = 0x5c;

const Part = {
  /** After the anchor: blanks, then the line's end. */
  Head: 0,
  /** An entry line's indentation. */
  Indent: 1,
  Key: 2,
  /** After the key's `:`: blanks, then the value (or its quote). */
  Colon: 3,
  Value: 4,
  /** After the value's closing quote: the line's end must follow. */
  Closed: 5,
  /** A value past {@link MAX_VALUE}: kept, read to its line's end. */
  Long: 6,
} as const;
type Part = (typeof Part)[keyof typeof Part];

/** What a value read is (see `ValueText.judge`). */
export const ValueKind = { None: 0, Kept: 1, Secret: 2 } as const;
export type ValueKind = (typeof ValueKind)[keyof typeof ValueKind];

/** A value's characters as they are read: decoded as base64 (`data:`) or as written (`stringData:`). */
export class ValueText {
  chars = 0;
  /** `=` padding read. */
  private padding = 0;
  /** Bits of the base64 group being decoded, and how many sextets it holds. */
  private bits = 0;
  private sextets = 0;
  /** A decoded byte was no text's, a character no base64's, or a plain value no secret. */
  private notText = false;
  /** The first decoded (or plain) bytes: a certificate's armor, SOPS's `ENC[`. */
  private head = "";

  reset(): void {
    this.chars = 0;
    this.padding = 0;
    this.bits = 0;
    this.sextets = 0;
    this.notText = false;
    this.head = "";
  }

  /** One character of a `data:` value, decoded into its group of four. */
  decode(byte: number): void {
    this.chars++;
    if (byte === EQUALS) {
      this.padding++;
      return;
    }
    const sextet = SEXTET[byte]!;
    if (sextet < 0 || this.padding > 0) {
      this.notText = true;
      return;
    }
    this.bits = (this.bits << 6) | sextet;
    if (++this.sextets < 4) return;
    for (let shift = 16; shift >= 0; shift -= 8) this.decoded((this.bits >> shift) & 0xff);
    this.bits = 0;
    this.sextets = 0;
  }

  private decoded(b: number): void {
    if (TEXT[b] !== 1) this.notText = true;
    if (this.head.length < HEAD) this.head += String.fromCharCode(b);
  }

  /**
   * One character of a `stringData:` value: a placeholder's first (`$X`, `{{ … }}`, `<…>`),
   * a block scalar's header (`|`, `>`: its lines are the keyword rule's) or SOPS's
   * ciphertext (`ENC[AES256_GCM,data:…]`, meant to be committed) is no secret.
   */
  plain(byte: number): void {
    if (++this.chars > SOPS.length) return;
    if (this.chars === 1 && (PLACEHOLDER[byte] === 1 || byte === 0x7c || byte === 0x3e))
      this.notText = true;
    this.head += String.fromCharCode(byte);
    if (this.head === SOPS) this.notText = true;
  }

  /** The value read is a secret's: base64 of text, whole groups with their padding, or a plain one. */
  private secret(plain: boolean): boolean {
    if (plain) return this.chars > 0 && !this.notText;
    if (this.notText || this.chars < 4 || this.chars % 4 !== 0) return false;
    // The last group, cut short by its padding: 2 sextets hold one byte, 3 hold two.
    if (this.sextets === 0) return this.padding === 0;
    if (this.sextets + this.padding !== 4 || this.sextets < 2) return false;
    const last = this.sextets === 2 ? [this.bits >> 4] : [this.bits >> 10, (this.bits >> 2) & 0xff];
    return last.every((b) => TEXT[b & 0xff] === 1);
  }

  /**
   * What the value read is: no Secret's (the block ends), a Secret's that stays (a decoded
   * certificate's or public key's armor, `ca.crt`), or a secret to redact.
   */
  judge(plain: boolean): ValueKind {
    if (!this.secret(plain)) return ValueKind.None;
    return !plain && PUBLIC_ARMOR.test(this.head) ? ValueKind.Kept : ValueKind.Secret;
  }
}

/** Reads the block's entries after its anchor; redacts each Secret's value as it ends. */
class SecretDataCandidate implements Candidate {
  from: number;
  to: number | undefined = undefined;
  private here: number;
  private part: Part = Part.Head;
  /** The block is `stringData:` (plain values). */
  private readonly plain: boolean;
  /** The entries' indentation (the first one's), -1 until it is read. */
  private indent = -1;
  private count = 0;
  /** The value's quote, or 0. */
  private quote = 0;
  /** A backslash was read: the next byte is its escape's letter (inside a string). */
  private escape = false;
  /** The value being read: its characters, decoded when the block is `data:`. */
  private readonly text = new ValueText();
  private valueFrom = 0;
  /** Where the last backslash was read: an escaped line end or quote ends the value there. */
  private escapeAt = 0;

  constructor(anchorLength: number, plain: boolean) {
    this.from = anchorLength;
    this.here = anchorLength - 1;
    this.plain = plain;
  }

  next(input: number): Verdict {
    const here = ++this.here;
    let byte = input;
    const escaped = this.escape;
    if (escaped) {
      // A run of backslashes reads as one (a string inside a string: `\\n`).
      if (byte === BACKSLASH) return this.part === Part.Value ? Verdict.Hold : this.release(here);
      this.escape = false;
      byte = byte === 0x6e ? LF : byte === 0x72 ? CR : byte === 0x74 ? TAB : byte;
    } else if (byte === BACKSLASH) {
      this.escape = true;
      this.escapeAt = here;
      return this.part === Part.Value ? Verdict.Hold : this.release(here);
    }
    switch (this.part) {
      case Part.Head:
        if (byte === SPACE || byte === TAB || byte === CR) return this.release(here);
        return byte === LF ? this.line(here) : Verdict.Reject;
      case Part.Indent:
        if (byte === SPACE || byte === TAB)
          return ++this.count > MAX_INDENT ? Verdict.Reject : this.release(here);
        if (byte === LF || byte === CR) return this.line(here); // a blank line
        if (KEY[byte] !== 1 || this.count === 0) return Verdict.Reject;
        if (this.indent < 0) this.indent = this.count;
        if (this.count !== this.indent) return Verdict.Reject;
        this.part = Part.Key;
        this.count = 1;
        return this.release(here);
      case Part.Key:
        if (byte === COLON) {
          this.part = Part.Colon;
          return this.release(here);
        }
        return KEY[byte] === 1 && ++this.count <= MAX_KEY ? this.release(here) : Verdict.Reject;
      case Part.Colon:
        if (byte === SPACE || byte === TAB) return this.release(here);
        if ((byte === 0x22 || byte === 0x27) && this.quote === 0) {
          this.quote = byte;
          return this.release(here);
        }
        this.startValue(here);
        return this.value(byte, here, escaped);
      case Part.Value:
        return this.value(byte, here, escaped);
      case Part.Closed:
        if (byte === SPACE || byte === TAB || byte === CR) return this.release(here);
        return byte === LF ? this.line(here) : Verdict.Reject;
      default:
        return byte === LF ? this.line(here) : this.release(here);
    }
  }

  /** Nothing before `here` is held: bytes read so far go out as they are. */
  private release(here: number): Verdict {
    this.from = here + 1;
    this.to = undefined;
    return Verdict.Hold;
  }

  /** A line ended at `here`: the next entry's indentation follows. */
  private line(here: number): Verdict {
    this.part = Part.Indent;
    this.count = 0;
    return this.release(here);
  }

  private startValue(here: number): void {
    this.part = Part.Value;
    this.valueFrom = here;
    this.from = here;
    this.text.reset();
  }

  /** A byte of the value, or the byte that ends it (`escaped`: the letter of an escape). */
  private value(byte: number, here: number, escaped: boolean): Verdict {
    const ends =
      this.quote !== 0 ? byte === this.quote : byte === LF || byte === CR || byte === SPACE;
    if (!ends) {
      if (this.text.chars >= MAX_VALUE) {
        this.part = Part.Long;
        return this.release(here);
      }
      if (this.plain) this.text.plain(byte);
      else this.text.decode(byte);
      return Verdict.Hold;
    }
    const kind = this.text.judge(this.plain);
    if (kind === ValueKind.None) return Verdict.Reject;
    this.quote = 0;
    // The line's end (or what closes the value) is read on, not redacted.
    this.part = byte === LF ? Part.Indent : Part.Closed;
    this.count = 0;
    // A certificate's or a public key's (`ca.crt`): kept, and the block goes on.
    if (kind === ValueKind.Kept) return this.release(here);
    // Ended by an escape (`\n`, `\"` inside a string): the value ends at its backslash.
    this.to = escaped ? this.escapeAt : here;
    this.from = this.valueFrom;
    // The span is redacted now; what follows is read on (`from` moves past it next byte).
    return Verdict.Redact;
  }

  end(): Verdict {
    if (this.part !== Part.Value || this.quote !== 0) return Verdict.Reject;
    if (this.text.judge(this.plain) !== ValueKind.Secret) return Verdict.Reject;
    this.from = this.valueFrom;
    this.to = undefined;
    return Verdict.Close;
  }
}

/**
 * A Kubernetes Secret's `data:` and `stringData:` values (see the file's comment).
 *
 * @category redaction
 */
export const SECRET_DATA_BLOCK_RULE: MatcherRule = {
  kind: "matcher",
  name: "kubernetes-secret",
  anchors: ["data:", "stringData:"],
  maxLength: MAX_VALUE + 16,
  start: (match: AnchorMatch): Candidate | undefined => {
    // At its line's start: after indentation, a line break (also `\n` in a string) or the
    // quote that opens a string holding the document.
    const before = match.before;
    if (before >= 0 && before !== LF && before !== SPACE && before !== TAB && before !== 0x22)
      return undefined;
    return new SecretDataCandidate(match.length, match.anchor === "stringData:");
  },
};

keepShape(new SecretDataCandidate(5, false));
