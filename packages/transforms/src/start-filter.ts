/**
 * The start filter in front of the automata: it says, from the last bytes read alone,
 * whether a needle (a literal, a known value's form or an anchor) may start three bytes
 * back or ends at the byte just read. Where it says no, the redactor does not walk the
 * automata at all: in log text a needle's first four bytes start at well under 1% of the
 * positions, where the automata sit in some shallow state at most of them, so the scan
 * costs a table lookup a byte instead of a dependent walk through both automata, and
 * stops only where something may start.
 *
 * The exact test at byte `i` ({@link filterHit}), on `key`, the last four bytes read
 * (`b[i-3] .. b[i]`, one a byte, the latest lowest):
 *
 * - `samples`, one bit per value of the last three bytes (the earliest by its low 7 bits, a
 *   byte ≥ 0x80 sharing the bit of the byte 0x80 below it, the last two whole: 1 MiB in
 *   all, as 7 bits of each took, but U+FFFD's bytes, dense in decoded binary output, no
 *   longer stand for the ASCII `o?=`): clear where they can end no needle's first four bytes and no shorter needle (3.5% of log text's positions start a
 *   three-byte prefix of the built-in anchors, 11% a two-byte one). Clear: go on.
 * - `pairs[key & 0xffff]`, for the last two bytes: bit {@link QUAD} when they are bytes 2–3
 *   of some needle's first four (then the four bytes are looked up in `quads`), {@link END2}
 *   when a needle of two bytes is that pair (stop), {@link TRIPLE} when they end a needle of
 *   three bytes (then `triples` has the three).
 *   A two-byte needle whose rule rules it out after a letter or a digit (`s.`, a vendor's
 *   prefix) sets {@link END2_BOUNDARY} instead: it stops only where `pairs` of the two
 *   bytes before it have {@link LEAD_OK}, where the byte before may read as no letter or
 *   digit (through an escape too: `mayReadNonAlnum`), so `s.` in `routes.js` stops nothing.
 * - `quads` and `triples` are hashed bitsets of every needle's first four (three) bytes in
 *   every form the automata accept: ASCII case variants for case-folded needles, every
 *   whitespace byte where the exact automaton has a whitespace run. A false positive only
 *   costs a stop; there are no false negatives.
 *
 * Two bytes a step: the scan looks only at the three bytes ending at every other byte while
 * `samples` stays clear there, so `samples` also holds what a stop at the byte between two
 * such looks would have in the looks around it: a four-byte key's first three bytes (the
 * look one byte before its end), and a short needle followed by any byte (the look one byte
 * after its end). A byte between two clear looks stops nothing (see the scan in
 * `redactor.ts`).
 *
 * A needle's key ends at its first whitespace symbol (a run of any length in the input): a
 * key of four bytes may end with one whitespace byte, and a needle with a whitespace run
 * in its first three symbols has a shorter key, checked at its end like a short needle. So
 * needles of one to three symbols (anchors such as `pw`, `s.`, `://`, `aws`) stop the scan
 * where they end, and every needle stops it by its third byte at the latest.
 *
 * @example
 * ```ts
 * import { buildStartFilter, filterHit, sampleHit } from "./start-filter.js";
 * const filter = buildStartFilter([{ bytes: Buffer.from("token"), literal: -1, anchor: 0 }], []);
 * filterHit(filter, 0x746f6b65); // true: "toke" starts "token"
 * filterHit(filter, 0x746f6b79); // false
 * sampleHit(filter, 0x746f6b); // true: "tok" ends a byte before "toke" does
 * ```
 */
import { isWhitespaceByte, type Needle } from "./aho-corasick.js";
import { mayReadNonAlnum } from "./candidate-set.js";
import type { NeedlePool } from "./needle-pool.js";

/** `pairs` bit: look the last four bytes up in `quads`. */
export const QUAD = 1;
/** `pairs` bit: a needle of two bytes ends here. */
export const END2 = 2;
/** `pairs` bit: look the last three bytes up in `triples`. */
export const TRIPLE = 4;
/** `pairs` bit: a two-byte needle ends here if the pair before it has {@link LEAD_OK}. */
export const END2_BOUNDARY = 8;
/** `pairs` bit: these two bytes may stand before a word (see {@link END2_BOUNDARY}). */
export const LEAD_OK = 16;

/** Bits of each hashed bitset: 2^18 bits (32 KiB), a few thousand keys at ~1% filled. */
const HASH_BITS = 18;
/** `quadHash`'s shift and multiplier (the WebAssembly scan computes it too). */
export const HASH_SHIFT = 32 - HASH_BITS;
export const HASH_MULTIPLIER = 0x9e3779b1;

/** The bits of three bytes that index `samples`: 7 of the earliest, 8 of the others (2^23 bits, 1 MiB). */
export const SAMPLE_MASK = 0x7fffff;

/** The filter's tables (see the file comment). */
export interface StartFilter {
  /**
   * One bit per three-byte value masked with {@link SAMPLE_MASK} (the earliest byte
   * highest): what a stop at these bytes' end or at a byte next to it needs (see above).
   */
  readonly samples: Int32Array;
  /** Per pair of bytes (the earlier one in the high byte): {@link QUAD}, {@link END2}, {@link TRIPLE} bits. */
  readonly pairs: Uint8Array;
  /** Hashed bitset of four-byte keys (`quadHash`). */
  readonly quads: Int32Array;
  /** Hashed bitset of three-byte keys (`quadHash` of the key in the low 24 bits). */
  readonly triples: Int32Array;
}

/** The bit of `key` in a hashed bitset. */
export function quadHash(key: number): number {
  return Math.imul(key, HASH_MULTIPLIER) >>> HASH_SHIFT;
}

/**
 * The filter for the exact automaton's needles (whitespace runs collapse) and the
 * case-folded automaton's (ASCII case folds, whitespace is literal).
 */
export function buildStartFilter(
  exactNeedles: readonly Needle[],
  foldedNeedles: readonly Needle[],
  /** The exact automaton's whole pool, known values' forms included, where it has them. */
  pool?: NeedlePool,
): StartFilter {
  const filter: StartFilter = {
    samples: new Int32Array((SAMPLE_MASK + 1) >> 5),
    pairs: new Uint8Array(1 << 16),
    quads: new Int32Array(1 << (HASH_BITS - 5)),
    triples: new Int32Array(1 << (HASH_BITS - 5)),
  };
  for (const needle of exactNeedles)
    addKey(filter, exactKey(needle.bytes), needle.boundary === true);
  // The pool holds the rules' needles too: those that only anchor are in `exactNeedles`.
  if (pool !== undefined)
    for (let i = 0; i < pool.count; i++)
      if (pool.anchor[i]! < 0 || pool.literal[i]! >= 0)
        addKey(filter, exactKey(pool.bytesOf(i)), false);
  for (const needle of foldedNeedles)
    addKey(filter, foldedKey(needle.bytes), needle.boundary === true);
  for (let pair = 0; pair < 1 << 16; pair++)
    if (mayReadNonAlnum(pair >>> 8, pair & 0xff)) filter.pairs[pair]! |= LEAD_OK;
  return filter;
}

/**
 * True when the filter stops at the byte in `key`'s low byte (`key` holds the last four
 * bytes read, the latest lowest); the scan loop inlines the same test.
 */
export function filterHit(filter: StartFilter, key: number): boolean {
  if (!sampleHit(filter, key)) return false;
  const p = filter.pairs[key & 0xffff]!;
  if ((p & END2) !== 0) return true;
  if ((p & END2_BOUNDARY) !== 0 && (filter.pairs[(key >>> 16) & 0xffff]! & LEAD_OK) !== 0)
    return true;
  if ((p & QUAD) !== 0) {
    const h = quadHash(key);
    if (((filter.quads[h >>> 5]! >>> (h & 31)) & 1) !== 0) return true;
  }
  if ((p & TRIPLE) !== 0) {
    const h = quadHash(key & 0xffffff);
    if (((filter.triples[h >>> 5]! >>> (h & 31)) & 1) !== 0) return true;
  }
  return false;
}

/** The `samples` bit of the three bytes in `key`'s low 24 bits (the scan inlines it). */
export function sampleHit(filter: StartFilter, key: number): boolean {
  const v = key & SAMPLE_MASK;
  return ((filter.samples[v >> 5]! >> v) & 1) !== 0;
}

/** Each position of a key: the bytes that may stand there in the input. */
type Key = number[][];

const WS_BYTES = [0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d];

/**
 * The exact automaton's key of a needle: its first symbols (whitespace runs collapsed and
 * trimmed at both ends, as `normalise` does), at most four, up to its first whitespace
 * symbol, which any whitespace byte may stand for.
 */
function exactKey(bytes: Uint8Array): Key {
  const key: Key = [];
  let at = 0;
  while (at < bytes.length && isWhitespaceByte(bytes[at]!)) at++;
  let end = bytes.length;
  while (end > at && isWhitespaceByte(bytes[end - 1]!)) end--;
  for (let i = at; i < end && key.length < 4; i++) {
    if (isWhitespaceByte(bytes[i]!)) {
      key.push(WS_BYTES);
      break;
    }
    key.push([bytes[i]!]);
  }
  return key;
}

/** The case-folded automaton's key of a needle: its first four bytes, in either ASCII case. */
function foldedKey(bytes: Uint8Array): Key {
  const key: Key = [];
  for (let i = 0; i < bytes.length && key.length < 4; i++) {
    const b = bytes[i]!;
    const lower = b >= 0x41 && b <= 0x5a ? b + 0x20 : b;
    key.push(lower >= 0x61 && lower <= 0x7a ? [lower, lower - 0x20] : [b]);
  }
  return key;
}

/**
 * Every byte string `key` stands for, into the filter's tables; `boundary`: the needle is
 * ruled out after a letter or a digit.
 */
function addKey(filter: StartFilter, key: Key, boundary: boolean): void {
  if (key.length === 0) return;
  for (const value of expand(key)) {
    const n = key.length;
    if (n === 1) {
      // A one-byte needle ends at its byte, whatever came before or comes after.
      for (let other = 0; other < 1 << 16; other++) {
        sample(filter, (other << 8) | value);
        sample(filter, ((other & 0xff00) << 8) | (value << 8) | (other & 0xff));
      }
      for (let before = 0; before < 256; before++) filter.pairs[(before << 8) | value]! |= END2;
    } else if (n === 2) {
      for (let other = 0; other < 256; other++) sample(filter, (other << 16) | value);
      sampleBlock(filter, value);
      filter.pairs[value]! |= boundary ? END2_BOUNDARY : END2;
    } else if (n === 3) {
      sample(filter, value);
      // A stop between two looks is seen by the look after the needle (its last two bytes
      // and any byte) or the one before it (any byte and its first two): the rarer pair in
      // text (`-us`: `-u`, not `us`; `pat`: `pa`, not `at`).
      if (commonPair(value & 0xffff) && !commonPair(value >>> 8))
        for (let other = 0; other < 128; other++) sample(filter, (other << 16) | (value >>> 8));
      else sampleBlock(filter, value & 0xffff);
      filter.pairs[value & 0xffff]! |= TRIPLE;
      setBit(filter.triples, quadHash(value));
    } else {
      sample(filter, value & 0xffffff);
      sample(filter, (value >>> 8) & 0xffffff);
      filter.pairs[value & 0xffff]! |= QUAD;
      setBit(filter.quads, quadHash(value));
    }
  }
}

/** Pairs of letters among the commonest in English text (either case). */
const COMMON_PAIRS = new Set(
  "th he in er an re on at en nd ti es or te of ed is it al ar st to nt ng se ha as ou io le ve co me de hi ri ro ic ne ea ra ce us".split(
    " ",
  ),
);

/** True when the two bytes of `pair` (the earlier high) are a common pair of letters. */
function commonPair(pair: number): boolean {
  return COMMON_PAIRS.has(String.fromCharCode((pair >>> 8) | 0x20, (pair & 0xff) | 0x20));
}

function sample(filter: StartFilter, bytes: number): void {
  setBit(filter.samples, bytes & SAMPLE_MASK);
}

/** Every `samples` bit of the two bytes in `pair` followed by any byte: 256 bits, 8 words. */
function sampleBlock(filter: StartFilter, pair: number): void {
  const word = ((pair << 8) & SAMPLE_MASK) >> 5;
  filter.samples.fill(-1, word, word + 8);
}

/** The byte strings of `key`, packed one byte each, the first highest. */
function expand(key: Key): number[] {
  let values = [0];
  for (const choices of key) {
    const next: number[] = [];
    for (const v of values) for (const b of choices) next.push(((v << 8) | b) >>> 0);
    values = next;
  }
  return values.map((v) => v | 0);
}

function setBit(bits: Int32Array, h: number): void {
  bits[h >>> 5]! |= 1 << (h & 31);
}
