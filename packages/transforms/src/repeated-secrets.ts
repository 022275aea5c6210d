/**
 * Secrets a rule redacted, redacted again where the stream repeats them later without the
 * context that named them: `export API_TOKEN=…` and then `Using …` in a script's output, a
 * value printed twice on a line (`'…' | '…'`), a token echoed in a URL's path.
 *
 * What is learned: a redacted span that is one run of `A-Za-z0-9_-` ({@link PIECE}), 32 to
 * 128 bytes long, random as a token is (letters and digits switching 4+ times: a name or
 * a placeholder a rule redacted is not learned), the last {@link MAX_VALUES} of them. What is redacted: a later
 * run of those bytes that is one of them whole (a run is maximal: `xV` or `V1` is not `V`;
 * after a string's escape, `\nV`, the escape's letter is not part of it), marked with the
 * rule that redacted it first.
 *
 * Determinism: the redactor looks for repeats as it hands bytes on, in input order, so
 * every span before a run is closed (and learned) when the run is read, however the input
 * was chunked; a run whose end is not read yet is held back by the base64 view, which holds
 * every run of its alphabet until the run ends.
 * The runs looked at are those the base64 view finds anyway (32+ characters of its
 * alphabet), so the search costs little more than a look at each: no base64 view
 * (`decodeBase64: false`), no repeats.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("API_KEY=Zq8vLm2xQw9rTy6uIo3pAs\nUsing Zq8vLm2xQw9rTy6uIo3pAs");
 * // "API_KEY=[REDACTED:secret-assignment]\nUsing [REDACTED:secret-assignment]"
 * ```
 */
import { MIN_RUN } from "./base64-runs.js";
import type { InputRing } from "./input-ring.js";
import { PROVIDER_FORMATS } from "./provider-catalogue.js";
import { byteSet } from "./rules/byte-classes.js";

/** The bytes of a learned piece, and of the runs compared with them (base64url's). */
export const PIECE = byteSet("A-Za-z0-9_-");
/**
 * Shortest piece learned: shorter runs of a token's bytes are words and ids. The base64
 * view's shortest run, which it tells of as it ends: a run of pieces' bytes this long lies
 * in one (see {@link RepeatedSecrets.noteRun}).
 */
export const MIN_PIECE = MIN_RUN;
/** Longest piece learned. */
export const MAX_PIECE = 128;
/**
 * Rules that find every copy of their secret themselves, by its own prefix (the catalogue's
 * tokens but those read after a key or before their prefix, a JWT): what they redact is not
 * learned.
 */
const SELF_EVIDENT = new Set([
  ...PROVIDER_FORMATS.filter((f) => f.keepPrefix !== true && f.lead === undefined).map(
    (f) => f.rule,
  ),
  "jwt",
]);
/**
 * Most bytes of a span gathered to be learned: a piece is at most {@link MAX_PIECE} bytes, so a
 * longer span is one only with long edges of padding or signs, and is not learned.
 */
const MAX_SPAN = 2 * MAX_PIECE;
/** Most pieces remembered; the oldest is forgotten first. */
const MAX_VALUES = 64;
const BACKSLASH = 0x5c;
/** The letters of a string's escapes that stand before a run (`\n`, `\t`, `\r`, `\b`, `\f`). */
const ESCAPE_LETTER = byteSet("ntrbf");
/** Switches between a letter and a digit a learned piece has at least. */
const MIN_SWITCHES = 4;
/** Per byte: 1 a digit, 2 a letter (see {@link MIN_SWITCHES}). */
const SHAPE = (() => {
  const table = new Uint8Array(256);
  for (let b = 0x30; b <= 0x39; b++) table[b] = 1;
  for (let b = 0x41; b <= 0x5a; b++) table[b] = 2;
  for (let b = 0x61; b <= 0x7a; b++) table[b] = 2;
  return table;
})();

/** A repeat found by {@link RepeatedSecrets.find}: `[start, end)` and the rule that taught it. */
export interface Repeat {
  start: number;
  end: number;
  rule: number;
}

/**
 * The open span's bytes, gathered as the output cursor swallows them, while the input still
 * holds them: a span open across chunks is learned from the same bytes however the input was
 * chunked (at its close the input may no longer hold its start). Past {@link MAX_SPAN} bytes
 * it is none.
 */
export class SpanBytes {
  private readonly buffer = new Uint8Array(MAX_SPAN);
  /** Bytes gathered, -1 once past {@link MAX_SPAN}. */
  private length = 0;

  /** A span opened at `start`, the cursor swallowing `[start, to)` of `input`. */
  opened(input: InputRing, start: number, to: number): void {
    this.length = 0;
    this.swallowed(input, start, to);
  }

  /** The cursor swallowed `[from, to)` of `input` into the open span. */
  swallowed(input: InputRing, from: number, to: number): void {
    if (this.length < 0) return;
    if (this.length + to - from > MAX_SPAN) {
      this.length = -1;
      return;
    }
    this.buffer.set(input.view(from, to), this.length);
    this.length += to - from;
  }

  /** The span's bytes, or null when it grew past {@link MAX_SPAN}. */
  get bytes(): Uint8Array | null {
    return this.length < 0 ? null : this.buffer.subarray(0, this.length);
  }
}

export class RepeatedSecrets {
  /** Each learned piece (latin1) and the rule that redacted it first. */
  private readonly rules = new Map<string, number>();
  /** The learned pieces and their {@link keyOf}s in the order learned, a ring from `oldest`. */
  private readonly order: string[] = [];
  private readonly orderKeys = new Uint16Array(MAX_VALUES);
  private oldest = 0;
  /** Pieces of each length: a run of another length is no piece, without a string made. */
  private readonly lengths = new Uint8Array(MAX_PIECE + 1);
  /**
   * The base64 view's runs not handed on yet, `[start, end)` pairs in input order from
   * `head`: a repeat is a run of {@link PIECE} bytes inside one of them (the view's alphabet
   * holds them; `+` and `/` split one into several).
   */
  private readonly runs: number[] = [];
  private head = 0;
  /** Pieces per {@link keyOf}: a run whose key has none is no piece, without a string made. */
  private readonly keys = new Uint8Array(KEYS);
  /** The shortest piece's length: a shorter run is none (more than {@link MAX_PIECE}: none learned). */
  private shortest = MAX_PIECE + 1;
  /** Per rule index: 1 when what it redacts is learned (see {@link SELF_EVIDENT}). */
  private readonly learns: Uint8Array;

  /** The open span's bytes (see {@link SpanBytes}). */
  readonly span = new SpanBytes();

  constructor(ruleNames: readonly string[]) {
    this.learns = Uint8Array.from(ruleNames, (name) => (SELF_EVIDENT.has(name) ? 0 : 1));
  }

  get size(): number {
    return this.rules.size;
  }

  /**
   * The open span closed: learn its bytes, a span `rule` redacted, when they hold one run of
   * {@link PIECE} bytes (see {@link pieceIn}).
   */
  closed(rule: number): void {
    const bytes = this.span.bytes;
    if (bytes === null || this.learns[rule] !== 1) return;
    const piece = pieceIn(bytes);
    if (piece !== null) this.add(latin1(piece, 0, piece.length), keyOf(piece), rule);
  }

  private add(piece: string, key: number, rule: number): void {
    if (this.rules.has(piece)) return;
    let slot = this.order.length;
    if (slot === MAX_VALUES) {
      slot = this.oldest;
      this.oldest = (slot + 1) % MAX_VALUES;
      this.forget(this.order[slot]!, this.orderKeys[slot]!);
    }
    this.order[slot] = piece;
    this.orderKeys[slot] = key;
    this.rules.set(piece, rule);
    this.lengths[piece.length]!++;
    this.keys[key]!++;
    if (piece.length < this.shortest) this.shortest = piece.length;
  }

  private forget(piece: string, key: number): void {
    this.rules.delete(piece);
    this.keys[key]!--;
    if (--this.lengths[piece.length]! > 0 || piece.length !== this.shortest) return;
    let length = this.shortest;
    while (length <= MAX_PIECE && this.lengths[length] === 0) length++;
    this.shortest = length;
  }

  /** A run of the base64 view's alphabet ended: `[start, end)`, after every one noted so far. */
  noteRun(start: number, end: number): void {
    this.runs.push(start, end);
  }

  /** Forget the runs that end at or before `at` (handed on). */
  dropRuns(at: number): void {
    const runs = this.runs;
    while (this.head < runs.length && runs[this.head + 1]! <= at) this.head += 2;
    if (this.head === runs.length) {
      runs.length = 0;
      this.head = 0;
    } else if (this.head > 1024) {
      runs.splice(0, this.head);
      this.head = 0;
    }
  }

  /**
   * The first repeat in `input` that starts in `[from, to)`, a run of {@link PIECE} bytes
   * inside a noted run, into `found`; false when there is none. One that began before
   * `from` is no repeat (its head is out).
   */
  find(input: InputRing, from: number, to: number, found: Repeat): boolean {
    this.dropRuns(from);
    const runs = this.runs;
    for (let k = this.head; k < runs.length; k += 2) {
      const runEnd = runs[k + 1]!;
      let p = runs[k]!;
      if (p >= to) return false;
      while (p < runEnd) {
        while (p < runEnd && PIECE[input.byteAt(p)] !== 1) p++;
        const start = p;
        p = input.runEnd(p, runEnd, PIECE);
        if (start >= to) return false;
        if (start < from || p - start < this.shortest) continue;
        // After a string's escape (`\nV`), the escape's letter is no part of the value.
        const escaped =
          start > 0 &&
          input.byteAt(start - 1) === BACKSLASH &&
          ESCAPE_LETTER[input.byteAt(start)] === 1 &&
          !(start > 1 && input.byteAt(start - 2) === BACKSLASH);
        const rule = this.ruleOf(input, escaped ? start + 1 : start, p);
        if (rule < 0) continue;
        found.start = escaped ? start + 1 : start;
        found.end = p;
        found.rule = rule;
        return true;
      }
    }
    return false;
  }

  /** The rule that taught `[start, end)` of `input` as a piece, or -1. */
  private ruleOf(input: InputRing, start: number, end: number): number {
    const length = end - start;
    if (length < MIN_PIECE || length > MAX_PIECE || this.lengths[length] === 0) return -1;
    const bytes = input.view(start, end);
    if (this.keys[keyOf(bytes)] === 0) return -1;
    return this.rules.get(latin1(bytes, 0, length)) ?? -1;
  }
}

/**
 * The one run of {@link PIECE} bytes in `bytes` (padding or a sign at its edges aside) of a
 * token's length and randomness, or null. A span of several (a JWT's or a Discord token's
 * parts, `user:password`) has none: a part may be no secret (a JWT's usual header, a Discord
 * user's id).
 */
function pieceIn(bytes: Uint8Array): Uint8Array | null {
  const n = bytes.length;
  let s = 0;
  while (s < n && PIECE[bytes[s]!] !== 1) s++;
  let p = s;
  let switches = 0;
  let last = 0;
  for (; p < n && PIECE[bytes[p]!] === 1; p++) {
    const kind = SHAPE[bytes[p]!]!;
    if (kind !== 0 && last !== 0 && kind !== last) switches++;
    if (kind !== 0) last = kind;
  }
  // Random, as a token is: letters and digits switching 4+ times (`V1SecretVolumeSource`,
  // a name, is none).
  if (p - s < MIN_PIECE || p - s > MAX_PIECE || switches < MIN_SWITCHES) return null;
  for (let q = p; q < n; q++) if (PIECE[bytes[q]!] === 1) return null;
  return bytes.subarray(s, p);
}

/** `bytes[from .. to)` as a latin1 string. */
function latin1(bytes: Uint8Array, from: number, to: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).toString("latin1");
}

/** Bits of {@link keyOf}. */
const KEY_BITS = 16;
/** How many keys {@link keyOf} gives. */
const KEYS = 1 << KEY_BITS;

/** A hash of a piece's length and its first and last four bytes (at least 8 bytes). */
function keyOf(bytes: Uint8Array): number {
  const n = bytes.length;
  const head = bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16) | (bytes[3]! << 24);
  const tail = bytes[n - 4]! | (bytes[n - 3]! << 8) | (bytes[n - 2]! << 16) | (bytes[n - 1]! << 24);
  return Math.imul(head ^ Math.imul(tail, 0x9e3779b1) ^ n, 0x85ebca6b) >>> (32 - KEY_BITS);
}
