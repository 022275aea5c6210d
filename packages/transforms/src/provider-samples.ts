/**
 * Synthetic tokens of a catalogue format's shape, for the tests and the labelled corpus:
 * random bytes of the documented alphabet and length, never a real credential. A format
 * with a checksum gets a valid one (GitHub's and npm's: CRC-32 of the random part in the
 * last 6 base62 characters), as real tokens have.
 *
 * @example
 * ```ts
 * import { PROVIDER_FORMATS, providerSamples, seededRandom } from "@spool/transforms";
 * const hf = PROVIDER_FORMATS.find((p) => p.family === "huggingface")!;
 * providerSamples(hf, seededRandom(1)); // ["hf_…", "api_org_…"]: one per prefix
 * ```
 */
import type { ContextProvider, ProviderFormat } from "./provider-catalogue.js";

/**
 * A deterministic source of numbers in [0, 1) (mulberry32): the same seed gives the same
 * samples, so a failing test can be replayed.
 *
 * @category testing
 * @example
 * ```ts
 * import { seededRandom } from "@spool/transforms";
 * const random = seededRandom(42);
 * random() === seededRandom(42)(); // true
 * ```
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A synthetic credential as written, and the part of it that is secret.
 *
 * @category testing
 * @example
 * ```ts
 * import { PROVIDER_FORMATS, providerSamples, redactText, seededRandom } from "@spool/transforms";
 * const [sample] = providerSamples(PROVIDER_FORMATS[0]!, seededRandom(1));
 * if (sample) redactText(`key ${sample.text}`).includes(sample.secret); // false
 * ```
 */
export interface ProviderSample {
  readonly text: string;
  /** `text` itself, or the body after a place-naming prefix (`AccountKey=…`). */
  readonly secret: string;
}

/**
 * One synthetic sample per prefix of `format`, following its shape (with a valid checksum
 * where the format has one): for testing rules against the catalogue. Never a real
 * credential.
 *
 * @category testing
 * @example
 * ```ts
 * import { PROVIDER_FORMATS, providerSamples, seededRandom } from "@spool/transforms";
 * const hf = PROVIDER_FORMATS.find((p) => p.family === "huggingface")!;
 * providerSamples(hf, seededRandom(1)).map((s) => s.text); // one per prefix
 * ```
 */
export function providerSamples(format: ProviderFormat, random: () => number): ProviderSample[] {
  const shape = format.shape ?? `%{${format.minBody + 8}:${format.body}}`;
  const body = new Set(expandClass(format.body));
  return format.prefixes.map((prefix) => {
    let text = fillShape(shape, random, prefix);
    if (format.checksum === "crc32-base62") text = withChecksum(text, prefix);
    if (format.keepPrefix !== true) return { text, secret: text };
    // A kept prefix after a lead ends the token: the secret is the lead.
    const at = text.indexOf(prefix);
    if (format.lead !== undefined) return { text, secret: text.slice(at - format.lead, at) };
    const start = at + prefix.length;
    let end = start;
    while (end < text.length && body.has(text[end]!)) end++;
    return { text, secret: text.slice(start, end) };
  });
}

/**
 * A value of a context provider's shape (random, never a real credential).
 *
 * @category testing
 * @example
 * ```ts
 * import { CONTEXT_PROVIDERS, contextSample, seededRandom } from "@spool/transforms";
 * const value = contextSample(CONTEXT_PROVIDERS[0]!, seededRandom(7));
 * const line = `AWS_SECRET_ACCESS_KEY=${value}`;
 * ```
 */
export function contextSample(provider: ContextProvider, random: () => number): string {
  return fillShape(provider.shape, random, "");
}

/**
 * Fill a shape's `{n:class}` / `{n-m:class}` runs with random characters of the class;
 * `%` stands for `prefix`.
 *
 * @category testing
 * @example
 * ```ts
 * import { fillShape, seededRandom } from "@spool/transforms";
 * fillShape("%{4:0-9}-{2:a-z}", seededRandom(3), "id_"); // e.g. "id_4821-qx"
 * ```
 */
export function fillShape(shape: string, random: () => number, prefix: string): string {
  let out = "";
  for (let i = 0; i < shape.length; i++) {
    const ch = shape[i]!;
    if (ch === "%") {
      out += prefix;
      continue;
    }
    if (ch !== "{") {
      out += ch;
      continue;
    }
    const close = shape.indexOf("}", i);
    const spec = shape.slice(i + 1, close);
    const colon = spec.indexOf(":");
    const [low, high] = spec.slice(0, colon).split("-").map(Number) as [number, number?];
    const alphabet = expandClass(spec.slice(colon + 1));
    const length = high === undefined ? low : low + Math.floor(random() * (high - low + 1));
    for (let k = 0; k < length; k++) out += alphabet[Math.floor(random() * alphabet.length)];
    i = close;
  }
  return out;
}

/**
 * True when the last 6 characters of the token's body are the CRC-32 of the rest in
 * base62 (GitHub's and npm's token checksum).
 *
 * @category testing
 * @example
 * ```ts
 * import { checksumValid } from "@spool/transforms";
 * checksumValid("ghp_notarealtoken", "ghp_"); // false
 * ```
 */
export function checksumValid(token: string, prefix: string): boolean {
  const body = token.slice(prefix.length);
  if (body.length < 7) return false;
  return base62(crc32(body.slice(0, -6)), 6) === body.slice(-6);
}

function withChecksum(token: string, prefix: string): string {
  const random = token.slice(prefix.length, -6);
  return `${prefix}${random}${base62(crc32(random), 6)}`;
}

function expandClass(spec: string): string {
  let out = "";
  for (let i = 0; i < spec.length; i++) {
    if (spec[i + 1] === "-" && i + 2 < spec.length) {
      for (let b = spec.charCodeAt(i); b <= spec.charCodeAt(i + 2); b++)
        out += String.fromCharCode(b);
      i += 2;
    } else out += spec[i];
  }
  return out;
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function base62(value: number, width: number): string {
  let out = "";
  let v = value >>> 0;
  while (v > 0) {
    out = BASE62[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out.padStart(width, "0");
}

let table: Uint32Array | undefined;

function crc32(text: string): number {
  if (table === undefined) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++)
    crc = table[(crc ^ text.charCodeAt(i)) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
