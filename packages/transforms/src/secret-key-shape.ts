/**
 * An AWS secret access key written bare, with no name beside it: 40 characters of
 * `A-Za-z0-9+/` (the base64 of 30 random bytes, so never `=` padding). The redactor's base64
 * part sees every run of that alphabet (`base64-runs.ts`); a run of exactly this length is
 * redacted when its characters look random rather than written:
 *
 * - capitals, small letters and digits all occur (a git SHA is lower-case hex, a word has
 *   no digits);
 * - at least {@link MIN_ENTROPY} bits of Shannon entropy per character (`Ab3+Ab3+…` is not
 *   random);
 * - at least {@link MIN_MARKS} digits and capital-after-capital pairs together (random
 *   base64 has about 13; a camel-case identifier or a URL path almost none);
 * - fewer than {@link MAX_WORDY} small letters in runs of four or more (random base64 has
 *   about 3; `xmlSecOpenSSLTransform…` has many).
 *
 * The base64 of printable text is not a key (the run is decoded and scanned as text instead).
 *
 * Measured on 10⁶ random keys, 0.45% fail these tests (most have no digit, or happen to
 * hold a long run of small letters); on 518 MB of text (this repository's `node_modules`,
 * `/usr/share`, `/usr/include`, Python's library) the runs they pass are the AWS
 * documentation's example key and four C identifiers of one header
 * (`xmlSecOpenSSLTransformHmacSha256GetKlass`), which a `(` after them now rules out (a
 * function's name). Figures: `scripts/secret-key-shape.mjs`.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"); // "[REDACTED:aws-secret-access-key]\n"
 * ```
 */

/** Characters in an AWS secret access key. */
export const SECRET_KEY_LENGTH = 40;
/** Least Shannon entropy per character (random keys: 4.24 at the 10⁻⁴ quantile). */
const MIN_ENTROPY = 4.2;
/** Least digits plus capital-after-capital pairs (random keys: 3 at the 10⁻⁴ quantile). */
const MIN_MARKS = 4;
/** Small letters in runs of four or more must stay below this (random keys: 16 at 0.3%). */
const MAX_WORDY = 16;

const Kind = { Upper: 1, Lower: 2, Digit: 3, Other: 4 } as const;
/** Per byte: its kind when it may be in a key, 0 when not. */
const KIND = new Uint8Array(256);
for (let b = 0x41; b <= 0x5a; b++) KIND[b] = Kind.Upper;
for (let b = 0x61; b <= 0x7a; b++) KIND[b] = Kind.Lower;
for (let b = 0x30; b <= 0x39; b++) KIND[b] = Kind.Digit;
KIND[0x2b] = Kind.Other;
KIND[0x2f] = Kind.Other;

const counts = new Uint8Array(256);

/**
 * True when `chars[from .. from + 40)` has a secret access key's shape and `next` (the byte
 * after the run, -1 at the end of input) is not `=` padding or a call's `(`.
 */
export function hasSecretKeyShape(chars: Uint8Array, from: number, next: number): boolean {
  // `=` padding: base64 of other bytes; `(`: a function's name (`…HmacSha224GetKlass(void)`).
  if (next === 0x3d || next === 0x28) return false;
  const end = from + SECRET_KEY_LENGTH;
  let seen = 0;
  let marks = 0;
  let wordy = 0;
  let lowerRun = 0;
  let previous = 0;
  for (let p = from; p < end; p++) {
    const kind = KIND[chars[p]!]!;
    if (kind === 0) return false;
    seen |= 1 << kind;
    if (kind === Kind.Digit || (kind === Kind.Upper && previous === Kind.Upper)) marks++;
    if (kind === Kind.Lower) lowerRun++;
    else {
      if (lowerRun >= 4) wordy += lowerRun;
      lowerRun = 0;
    }
    previous = kind;
  }
  if (lowerRun >= 4) wordy += lowerRun;
  const all = (1 << Kind.Upper) | (1 << Kind.Lower) | (1 << Kind.Digit);
  if ((seen & all) !== all || marks < MIN_MARKS || wordy >= MAX_WORDY) return false;
  return entropy(chars, from, end) >= MIN_ENTROPY;
}

/** `c · log2 c` for every count a run of {@link SECRET_KEY_LENGTH} characters can hold. */
const C_LOG_C = Float64Array.from({ length: SECRET_KEY_LENGTH + 1 }, (_, c) =>
  c === 0 ? 0 : c * Math.log2(c),
);

/**
 * Shannon entropy of `chars[from .. end)` (at most {@link SECRET_KEY_LENGTH} of them), bits
 * per character: `log2 n − Σ c·log2 c / n` over the characters' counts `c`, by table.
 */
function entropy(chars: Uint8Array, from: number, end: number): number {
  const n = end - from;
  for (let p = from; p < end; p++) counts[chars[p]!] = counts[chars[p]!]! + 1;
  let sum = 0;
  for (let p = from; p < end; p++) {
    const c = counts[chars[p]!]!;
    if (c === 0) continue;
    sum += C_LOG_C[c]!;
    counts[chars[p]!] = 0;
  }
  return Math.log2(n) - sum / n;
}
