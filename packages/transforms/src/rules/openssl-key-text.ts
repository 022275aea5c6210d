/**
 * A private key's numbers as OpenSSL prints them (`openssl pkey -text -noout`, `openssl rsa
 * -text`, `openssl ec -text`): each component's label alone on its line, then its value in
 * indented lines of hex pairs joined by colons (`    fa:65:75:02:…:`, the last line without
 * the trailing colon). The private components are redacted: RSA's `privateExponent`,
 * `prime1`, `prime2`, `exponent1`, `exponent2` and `coefficient`, EC's, EdDSA's, X25519's and
 * DSA's `priv`, Diffie-Hellman's `private-key`; the labels stay, and so do the public ones
 * (`modulus`, `publicExponent`, `pub`). The hex lines and the line breaks between them
 * become one marker; the line break after the last stays.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("priv:\n    fa:65:75:02:67:a4:db:c7:98:89:e9:10:ab:69:77:\n    1d:5b\npub:\n    04:2f");
 * // "priv:\n    [REDACTED:openssl-key-text]\npub:\n    04:2f"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { HEX_VALUE } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";
import { Break, LineBreak } from "./line-break.js";
import { withNotBefore } from "./not-before.js";

const LABELS = [
  "privateExponent:",
  "prime1:",
  "prime2:",
  "exponent1:",
  "exponent2:",
  "coefficient:",
  "priv:",
  "private-key:",
];
const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
/** Hex pairs read before the value counts (`xx:xx:`): held until then. */
const FIRST_PAIRS = 2;
/** Most bytes of a line break and the next line's indentation. */
const MAX_GAP = 24;

/** A label starts its line: anything but a line break before it rules it out. */
const NOT_LINE_START = Uint8Array.from({ length: 256 }, (_, b) => (b === LF || b === CR ? 0 : 1));

export const OPENSSL_KEY_TEXT_RULE: MatcherRule = withNotBefore(
  {
    kind: "matcher",
    name: "openssl-key-text",
    anchors: LABELS,
    maxLength: 2 * MAX_GAP + 3 * FIRST_PAIRS + 8,
    start(match): Candidate | undefined {
      if (match.before >= 0 && NOT_LINE_START[match.before] === 1) return undefined;
      return new KeyTextCandidate(match.length);
    },
  },
  NOT_LINE_START,
);

/** Where the candidate is: a line break and indentation (`Gap`), or a line of hex pairs. */
const Part = { Gap: 0, Line: 1 } as const;
type Part = (typeof Part)[keyof typeof Part];

class KeyTextCandidate implements Candidate {
  from = Number.MAX_SAFE_INTEGER;
  private here: number;
  private part: Part = Part.Gap;
  /** In a gap: its bytes, and whether its line break was read. */
  private gap = 0;
  private broken = false;
  private readonly lineBreak = new LineBreak();
  /** Hex digits of the current pair, and pairs read in all. */
  private digits = 0;
  private pairs = 0;

  constructor(label: number) {
    this.here = label - 1;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    if (this.part === Part.Gap) return this.gapByte(byte, here);
    if (HEX_VALUE[byte]! >= 0) {
      if (++this.digits > 2) return Verdict.Reject;
      return this.pairs >= FIRST_PAIRS ? Verdict.Redact : Verdict.Hold;
    }
    if (byte === COLON && this.digits === 2) {
      this.digits = 0;
      return ++this.pairs >= FIRST_PAIRS ? Verdict.Redact : Verdict.Hold;
    }
    // The line ends: after a colon another follows; after a pair the value is whole (and
    // redacted: what follows stays).
    if (this.digits !== 0 || this.pairs < FIRST_PAIRS) return Verdict.Reject;
    this.part = Part.Gap;
    this.from = here;
    this.gap = 0;
    this.broken = false;
    return this.gapByte(byte, here);
  }

  /** A line break (raw or escaped inside a string), then the next line's indentation. */
  private gapByte(byte: number, here: number): Verdict {
    if (++this.gap > MAX_GAP) return Verdict.Reject;
    const read = this.lineBreak.read(byte);
    if (read === Break.Whole) this.broken = true;
    if (read !== Break.None) return read === Break.Escape ? Verdict.Reject : Verdict.Hold;
    if (byte === 0x20 || byte === 0x09) {
      return this.broken || this.pairs === 0 ? Verdict.Hold : Verdict.Reject;
    }
    // The next line's first digit, after a line break and an indentation.
    if (HEX_VALUE[byte]! < 0 || !this.broken || this.gap < 3) return Verdict.Reject;
    this.part = Part.Line;
    this.digits = 1;
    if (this.pairs === 0) this.from = here;
    return this.pairs >= FIRST_PAIRS ? Verdict.Redact : Verdict.Hold;
  }

  end(): Verdict {
    return Verdict.Reject;
  }
}

keepShape(new KeyTextCandidate(5));
