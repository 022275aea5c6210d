/**
 * A private key's body without its PEM armor: the base64 of a DER private key, as a key
 * pasted into a variable, a JSON member, a code literal or a log line is often written
 * (`PRIVATE_KEY=MIIEvQIBADANBgkqhkiG9w0BAQEFAASC…`, Java's
 * `new PKCS8EncodedKeySpec(Base64.decode("MIIE…"))`, a `.p8` file's lines under any name).
 *
 * The DER says what it is and how long it is. The body opens with a SEQUENCE (`0x30`) and
 * its length, then a version INTEGER of 0 or 1 and what the key's format puts after it:
 * another INTEGER, an RSA modulus or a DSA prime (PKCS #1, RFC 8017; OpenSSL's DSA keys);
 * an algorithm's SEQUENCE and its OBJECT IDENTIFIER (PKCS #8, RFC 5208 and RFC 5958); an
 * OCTET STRING, the private scalar (SEC 1 EC keys, RFC 5915). An encrypted PKCS #8 key
 * (RFC 5958's `EncryptedPrivateKeyInfo`) opens with the SEQUENCE of a PKCS #5 or PKCS #12
 * encryption algorithm's identifier. A public key (its algorithm's SEQUENCE first, no
 * version), a certificate or a signature (`0x30`, then another SEQUENCE or an INTEGER of
 * its own length) is none of these, and stays. The anchors are the base64 of the
 * SEQUENCE's first bytes (`MII`, `MIG`, `MIH` for a two- or one-byte length, and
 * `M<x><y>C` for a short one); the first {@link HEADER_CHARS} characters are held and
 * decoded to check the rest.
 *
 * The outer length gives the body's characters exactly, so the key is redacted to its last
 * character and its padding, nothing after it; a key cut short is redacted as far as it
 * goes. Its lines may be wrapped as PEM's are (every line as wide as the first, the last
 * shorter), with line breaks raw or escaped inside a string (`\n`, `\r\n`), indented (a
 * YAML block), or with their breaks turned into single blanks; a later line is held until
 * it is as wide as the first or ends the key, so a line of text after a cut key stays.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * // An Ed25519 key in PKCS #8: its header, then the 32 bytes of the key.
 * const der = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), Buffer.alloc(32, 7)]);
 * redactText(`key: ${der.toString("base64")} (ed25519)`); // "key: [REDACTED:private-key] (ed25519)"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet, HEX_VALUE } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";
import { Break, LineBreak } from "./line-break.js";
import { withNotBefore } from "./not-before.js";

/** Each base64 character's value (`+` and `/`, as DER is armored), -1 for other bytes. */
const VALUE = new Int8Array(256).fill(-1);
for (let i = 0; i < 64; i++)
  VALUE["ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".charCodeAt(i)] = i;
const PAD = 0x3d;
const PERCENT = 0x25;
const SPACE = 0x20;
const TAB = 0x09;

/** Characters held and decoded before the key is judged: 16 bytes of DER. */
const HEADER_CHARS = 22;
const HEADER_BYTES = 16;
/** Fewest bytes of a key (an Ed25519 key in PKCS #8: 48). */
const MIN_KEY_BYTES = 48;
/** A wrapped key's lines: as wide as PEM's (64), OpenSSL's old 76, or between. */
const MIN_WIDTH = 40;
const MAX_WIDTH = 80;
/** Most bytes between two lines (a line break, escaped or not, and an indentation). */
const MAX_GAP = 24;

/** Bytes before an anchor that put it inside a longer run of base64. */
const NOT_BEFORE = byteSet("A-Za-z0-9+/");

/**
 * The anchors: the base64 of a SEQUENCE's tag and its length's first byte, `0x82` (`MII`,
 * a key of 256 bytes or more), `0x81` (`MIG`, `MIH`), or one short length from 32 to 127
 * with the INTEGER tag after it (`MC4C`, `MHcC`).
 */
const ANCHORS = ["MII", "MIG", "MIH"];
for (const high of "CDEFGH") for (const low of "AEIMQUYcgkosw048") ANCHORS.push(`M${high}${low}C`);

/** OBJECT IDENTIFIER prefixes of PKCS #5's (1.2.840.113549.1.5) and PKCS #12's (…1.12) encryption. */
const ENCRYPTION_ARCS = [
  [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05],
  [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x0c],
];

/**
 * The key's length in bytes when `der` (its first {@link HEADER_BYTES} bytes) opens a
 * private key as the file's comment says, else -1.
 */
export function privateKeyLength(der: Uint8Array): number {
  if (der[0] !== 0x30) return -1;
  const first = der[1]!;
  let header = 2;
  let length = first;
  if (first === 0x81) {
    header = 3;
    length = der[2]!;
    if (length < 0x80) return -1;
  } else if (first === 0x82) {
    header = 4;
    length = (der[2]! << 8) | der[3]!;
    if (length < 0x100) return -1;
  } else if (first >= 0x80) {
    return -1;
  }
  const total = header + length;
  if (total < MIN_KEY_BYTES) return -1;
  return opensPrivateKey(der, header) || opensEncryptedKey(der, header) ? total : -1;
}

/** After the SEQUENCE's header: version 0 or 1, then PKCS #1's INTEGER, PKCS #8's algorithm or SEC 1's OCTET STRING. */
function opensPrivateKey(der: Uint8Array, h: number): boolean {
  if (der[h] !== 0x02 || der[h + 1] !== 0x01 || der[h + 2]! > 1) return false;
  const version = der[h + 2]!;
  const tag = der[h + 3]!;
  const next = der[h + 4]!;
  // PKCS #1: the modulus (or DSA's prime), a long INTEGER.
  if (tag === 0x02) return version === 0 && (next === 0x81 || next === 0x82);
  // PKCS #8: the algorithm's SEQUENCE (long with DSA's parameters), its OBJECT IDENTIFIER
  // (1.2.… or 1.3.…, Ed25519's).
  if (tag === 0x30) {
    const oid = h + 5 + (next === 0x81 ? 1 : next === 0x82 ? 2 : next < 0x80 ? 0 : 9);
    return der[oid] === 0x06 && (der[oid + 2] === 0x2a || der[oid + 2] === 0x2b);
  }
  // SEC 1: the private scalar, 24 to 66 bytes.
  return tag === 0x04 && version === 1 && next >= 0x18 && next <= 0x42;
}

/** After the SEQUENCE's header: the encryption algorithm's SEQUENCE and a PKCS #5 or #12 identifier. */
function opensEncryptedKey(der: Uint8Array, h: number): boolean {
  if (der[h] !== 0x30 || der[h + 1]! >= 0x80 || der[h + 2] !== 0x06) return false;
  return ENCRYPTION_ARCS.some((arc) => arc.every((b, k) => der[h + 4 + k] === b));
}

export const PRIVATE_KEY_BODY_RULE: MatcherRule = withNotBefore(
  {
    kind: "matcher",
    name: "private-key",
    anchors: ANCHORS,
    maxLength: HEADER_CHARS + MAX_GAP + MAX_WIDTH + 8,
    start(match): Candidate | undefined {
      if (match.before >= 0 && NOT_BEFORE[match.before] === 1) return undefined;
      return new KeyBodyCandidate(match.anchor);
    },
  },
  NOT_BEFORE,
);

/** {@link PercentEscape.read}: the escape goes on. */
const ESCAPE_PENDING = -1;
/** {@link PercentEscape.read}: no escape of a byte (`%` and no two hex digits). */
const NO_ESCAPE = -2;

/** A `%XX` escape read a byte at a time, from its `%`. */
class PercentEscape {
  /** Bytes read: 0 none, 1 the `%`, 2 its first digit too. */
  private state = 0;
  private high = 0;

  get open(): boolean {
    return this.state > 0;
  }

  /** {@link ESCAPE_PENDING}, {@link NO_ESCAPE}, or the byte the escape stands for. */
  read(byte: number): number {
    if (this.state === 0) {
      this.state = 1;
      return ESCAPE_PENDING;
    }
    const digit = HEX_VALUE[byte]!;
    if (digit < 0) {
      this.state = 0;
      return NO_ESCAPE;
    }
    if (this.state === 1) {
      this.state = 2;
      this.high = digit;
      return ESCAPE_PENDING;
    }
    this.state = 0;
    return this.high * 16 + digit;
  }
}

/** Where the candidate is in the key. */
const Part = {
  /** The first characters, held and decoded until the DER says whether it is a key. */
  Header: 0,
  /** A line of the key: redacted as it is read (the first, or a later one as wide). */
  Line: 1,
  /** Between two lines: held until a line follows. */
  Gap: 2,
  /** A later line, held until it is as wide as the first or ends the key. */
  Held: 3,
  /** The key's characters are all read: its padding, `=`, goes with it. */
  Padding: 4,
} as const;
type Part = (typeof Part)[keyof typeof Part];

class KeyBodyCandidate implements Candidate {
  from = 0;
  /** Offset of the byte read last. */
  private here: number;
  private part: Part = Part.Header;
  /** The key's base64 characters once its DER header is read, and those read so far. */
  private total = 0;
  private chars = 0;
  /** Characters of the current line, and of the first (the key's width). */
  private line = 0;
  private width = 0;
  /** In a gap: its bytes, and whether a line break is among them. */
  private gap = 0;
  private broken = false;
  private readonly lineBreak = new LineBreak();
  private padding = 0;
  private readonly escape = new PercentEscape();
  /** The header's decoded bytes, and the bits of the next one. */
  private readonly der = new Uint8Array(HEADER_BYTES + 1);
  private decoded = 0;
  private bits = 0;
  private acc = 0;

  constructor(anchor: string) {
    for (let k = 0; k < anchor.length; k++) this.decode(VALUE[anchor.charCodeAt(k)]!);
    this.here = anchor.length - 1;
    this.chars = anchor.length;
  }

  next(byte: number): Verdict {
    this.here++;
    if (this.escape.open || (byte === PERCENT && this.part !== Part.Gap)) return this.percent(byte);
    return this.dispatch(byte, VALUE[byte]!);
  }

  /** A byte, or (`byte` -1) a character written as a `%XX` escape, whose base64 value is `value`. */
  private dispatch(byte: number, value: number): Verdict {
    switch (this.part) {
      case Part.Header:
        return value < 0 ? Verdict.Reject : this.header(value);
      case Part.Line:
      case Part.Held:
        return value < 0 ? this.lineEnd(byte) : this.character();
      case Part.Gap:
        return this.gapByte(byte, value);
      default:
        return byte === PAD && ++this.padding <= 2 ? Verdict.Redact : Verdict.Reject;
    }
  }

  /**
   * A byte of a percent-encoded character (`%2B`, `%2F`, `%3D`: a key in a URL's query),
   * held until its second digit says which; any other escape ends the key.
   */
  private percent(byte: number): Verdict {
    const code = this.escape.read(byte);
    if (code === ESCAPE_PENDING) return Verdict.Hold;
    if (code === PAD) return this.dispatch(PAD, -1);
    return code === 0x2b || code === 0x2f ? this.dispatch(-1, VALUE[code]!) : Verdict.Reject;
  }

  private header(value: number): Verdict {
    this.chars++;
    this.decode(value);
    if (this.chars < HEADER_CHARS) return Verdict.Hold;
    const bytes = privateKeyLength(this.der);
    if (bytes < 0) return Verdict.Reject;
    this.total = Math.ceil((bytes * 4) / 3);
    this.line = this.chars;
    this.part = Part.Line;
    return Verdict.Redact;
  }

  private decode(value: number): void {
    this.acc = (this.acc << 6) | value;
    this.bits += 6;
    if (this.bits < 8) return;
    this.bits -= 8;
    if (this.decoded < this.der.length) this.der[this.decoded++] = (this.acc >> this.bits) & 0xff;
    this.acc &= (1 << this.bits) - 1;
  }

  /** One more of the key's characters (on its first line the anchor's count too). */
  private character(): Verdict {
    this.chars++;
    this.line++;
    if (this.chars >= this.total) {
      this.part = Part.Padding;
      return Verdict.Redact;
    }
    if (this.part === Part.Line || this.line >= this.width) {
      this.part = Part.Line;
      return Verdict.Redact;
    }
    return Verdict.Hold;
  }

  /** A byte that is no base64 after a line's characters: a gap begins, or the key ends here. */
  private lineEnd(byte: number): Verdict {
    // A later line held and not as wide as the first is no line of the key: released.
    if (this.part === Part.Held) return Verdict.Reject;
    if (this.width === 0) this.width = this.line;
    else if (this.line !== this.width) return Verdict.Reject;
    if (this.width < MIN_WIDTH || this.width > MAX_WIDTH) return Verdict.Reject;
    this.part = Part.Gap;
    this.from = this.here;
    this.gap = 0;
    this.broken = false;
    return this.gapByte(byte, -1);
  }

  /** A byte between two lines: a line break (raw or escaped), blanks after it, or one blank. */
  private gapByte(byte: number, value: number): Verdict {
    if (++this.gap > MAX_GAP) return Verdict.Reject;
    const read = this.lineBreak.read(byte);
    if (read === Break.Whole) this.broken = true;
    if (read !== Break.None) return read === Break.Escape ? Verdict.Reject : Verdict.Hold;
    if (value >= 0) {
      // One blank alone, or a line break and blanks, stood between the lines.
      if (!this.broken && this.gap !== 2) return Verdict.Reject;
      this.part = Part.Held;
      this.line = 0;
      return this.character();
    }
    if (byte === SPACE || byte === TAB)
      return this.broken || this.gap === 1 ? Verdict.Hold : Verdict.Reject;
    return Verdict.Reject;
  }

  skip(input: Uint8Array, start: number, end: number): number {
    if ((this.part !== Part.Line && this.part !== Part.Held) || this.escape.open) return start;
    // Up to the character before the key's last, or before a held line reaches the width.
    let most = this.total - 1 - this.chars;
    if (this.part === Part.Held) most = Math.min(most, this.width - 1 - this.line);
    const stop = Math.min(end, start + Math.max(0, most));
    let i = start;
    while (i < stop && VALUE[input[i]!]! >= 0) i++;
    const n = i - start;
    this.chars += n;
    this.line += n;
    this.here += n;
    return i;
  }

  end(): Verdict {
    return Verdict.Reject;
  }
}

keepShape(new KeyBodyCandidate("MII"));
