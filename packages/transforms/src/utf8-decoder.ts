/**
 * Incremental UTF-8 decoder over bytes. Valid UTF-8 passes through as the same bytes
 * (zero-copy where a chunk is valid); each invalid sequence becomes U+FFFD (EF BF BD)
 * by the WHATWG "maximal subpart" rule, exactly as `TextDecoder` would on the whole
 * input, and is counted. A character split across chunks is held (at most 3 bytes).
 *
 * @example
 * ```ts
 * import { createUtf8Decoder } from "@spool/transforms";
 * const decoder = createUtf8Decoder();
 * decoder.push([Buffer.from([0xe6, 0x97])]); // [] (held: 2 bytes of "日")
 * decoder.push([Buffer.from([0xa5, 0xff])]); // [<e6 97 a5>, <ef bf bd>]
 * decoder.counters.replacements; // 1
 * ```
 */
import { isUtf8 } from "node:buffer";
import type { Stage } from "@spool/core/runtime";

/**
 * The UTF-8 decoder stage's name, e.g. to find it in a plan.
 *
 * @category stages
 * @example
 * ```ts
 * import { createUtf8Decoder, UTF8_DECODER } from "@spool/transforms";
 * createUtf8Decoder().name === UTF8_DECODER; // true
 * ```
 */
export const UTF8_DECODER = "utf8-decoder";

/**
 * The UTF-8 decoder as a stage: `counters.replacements` counts the invalid sequences it
 * replaced with U+FFFD.
 *
 * @category stages
 * @example
 * ```ts
 * import { runStage } from "@spool/core";
 * import { createUtf8Decoder } from "@spool/transforms";
 * const decoder = createUtf8Decoder();
 * runStage(decoder, [Buffer.from([0x61, 0xff, 0x62])]).toString(); // "a\ufffdb"
 * decoder.counters.replacements; // 1
 * ```
 */
export interface Utf8Decoder extends Stage {
  readonly counters: { readonly replacements: number };
}

const REPLACEMENT = Buffer.from([0xef, 0xbf, 0xbd]);

/**
 * A stage that passes valid UTF-8 through and replaces each invalid sequence with U+FFFD,
 * holding at most the 3 bytes of a character split between writes.
 *
 * @category stages
 * @example
 * ```ts
 * import { runStage } from "@spool/core";
 * import { createUtf8Decoder } from "@spool/transforms";
 * const decoder = createUtf8Decoder();
 * runStage(decoder, [Buffer.from([0x61, 0xff, 0x62])]).toString(); // "a\ufffdb"
 * decoder.counters.replacements; // 1
 * ```
 */
export function createUtf8Decoder(): Utf8Decoder {
  // The held prefix of an incomplete sequence: its bytes, and how long it must become.
  const held = new Uint8Array(4);
  let heldLength = 0;
  let needed = 0;
  let replacements = 0;

  const decodeChunk = (chunk: Uint8Array, out: Uint8Array[]) => {
    let start = 0;
    if (heldLength > 0) start = completeHeld(chunk, out);
    if (start >= chunk.byteLength) return;
    const body = start === 0 ? chunk : chunk.subarray(start);
    const tail = incompleteTail(body);
    const whole = tail === body.byteLength ? body : body.subarray(0, tail);
    if (whole.byteLength > 0) {
      if (isUtf8(whole)) out.push(whole);
      else replacements += decodeSlow(whole, out);
    }
    for (let i = tail; i < body.byteLength; i++) held[heldLength++] = body[i]!;
    if (heldLength > 0) needed = sequenceLength(held[0]!);
  };

  /** Feed the start of `chunk` to the held prefix; returns how many bytes of `chunk` it used. */
  const completeHeld = (chunk: Uint8Array, out: Uint8Array[]): number => {
    let used = 0;
    while (heldLength < needed) {
      if (used >= chunk.byteLength) return used;
      const byte = chunk[used]!;
      if (!continuationOk(held[0]!, heldLength, byte)) {
        out.push(REPLACEMENT);
        replacements++;
        heldLength = 0;
        return used;
      }
      held[heldLength++] = byte;
      used++;
    }
    out.push(Buffer.from(held.subarray(0, heldLength)));
    heldLength = 0;
    return used;
  };

  return {
    name: UTF8_DECODER,
    push(batch) {
      const out: Uint8Array[] = [];
      for (const chunk of batch) decodeChunk(chunk, out);
      return out;
    },
    end() {
      if (heldLength === 0) return [];
      heldLength = 0;
      replacements++;
      return [REPLACEMENT];
    },
    get held() {
      return heldLength;
    },
    window: 3,
    get counters() {
      return { replacements };
    },
    // Listed under the decoder in the receipt's `stageCounters` once it replaced anything.
    get namedCounters() {
      return replacements > 0 ? { replacements } : {};
    },
  };
}

/** Bytes a sequence starting with `lead` must have; 0 if `lead` cannot start one. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** Whether `byte` may stand at `index` (≥ 1) of a sequence led by `lead`. */
function continuationOk(lead: number, index: number, byte: number): boolean {
  if (index === 1) {
    if (lead === 0xe0) return byte >= 0xa0 && byte <= 0xbf;
    if (lead === 0xed) return byte >= 0x80 && byte <= 0x9f;
    if (lead === 0xf0) return byte >= 0x90 && byte <= 0xbf;
    if (lead === 0xf4) return byte >= 0x80 && byte <= 0x8f;
  }
  return byte >= 0x80 && byte <= 0xbf;
}

/**
 * Where a valid-so-far but incomplete sequence at the end of `buf` starts (`buf.length`
 * when there is none). Only such a prefix is held; anything invalid is decided now.
 */
function incompleteTail(buf: Uint8Array): number {
  const n = buf.byteLength;
  for (let back = 1; back <= 3 && back <= n; back++) {
    const at = n - back;
    const byte = buf[at]!;
    if (byte < 0x80) return n;
    if (byte >= 0xc0) {
      const len = sequenceLength(byte);
      if (len <= back) return n; // complete, or not a lead byte at all
      for (let k = 1; k < back; k++) if (!continuationOk(byte, k, buf[at + k]!)) return n;
      return at;
    }
  }
  return n;
}

/** Scratch output of {@link decodeSlow}, grown to 3 bytes per input byte as needed. */
let scratch = new Uint8Array(0);

/**
 * Decode bytes known to hold an invalid sequence; returns the replacements made. The
 * result is one new buffer per chunk (valid bytes copied, each U+FFFD written in place),
 * not a piece per run: random bytes have an invalid sequence every few bytes, and
 * millions of tiny pieces cost every later stage far more than one copy (the binary
 * fast path: `--binary text` on /dev/urandom within 2× of `--binary keep`).
 */
function decodeSlow(buf: Uint8Array, out: Uint8Array[]): number {
  const n = buf.byteLength;
  // Two bytes of slack: a single byte writes three, of which it may keep one.
  if (scratch.byteLength < 3 * n + 2) scratch = new Uint8Array(3 * n + 2);
  const w = decodeInto(buf, scratch);
  // A copy: the scratch is reused, and what is pushed must stay as it is.
  out.push(Buffer.from(scratch.subarray(0, w)));
  return decodedReplacements;
}

/** The replacements the last {@link decodeInto} made. */
let decodedReplacements = 0;

/**
 * The loop of {@link decodeSlow}, apart: returns the bytes written to `dest`. A function
 * of its own so that V8 optimises it whole; as a loop inside the caller it ran as
 * on-stack-replacement code that bailed out after the loop on every call (the caller's
 * code after it had no type feedback yet), 230 times for 40 MB.
 */
function decodeInto(buf: Uint8Array, dest: Uint8Array): number {
  const n = buf.byteLength;
  let count = 0;
  let w = 0;
  let i = 0;
  while (i < n) {
    const lead = buf[i]!;
    // The last byte has none after it (and is no lead byte that may go on: those are held).
    const second = i + 1 < n ? buf[i + 1]! : 0;
    // The one branch taken rarely on random bytes (one in twenty): a lead byte followed by
    // a byte that may stand second after it. The test is one unsigned comparison (a span
    // of 0 for every byte that cannot lead), so a lead byte whose next byte cannot follow
    // it goes the way of a lone byte, with no branch of its own.
    if ((second - SECOND_LOW[lead]!) >>> 0 < SECOND_SPAN[lead]!) {
      const len = LEAD_LENGTH[lead]!;
      let k = 2;
      while (k < len && i + k < n && (buf[i + k]! & 0xc0) === 0x80) k++;
      if (k === len) {
        dest[w++] = lead;
        for (let j = 1; j < len; j++) dest[w++] = buf[i + j]!;
      } else {
        // Invalid: the maximal valid prefix becomes one U+FFFD.
        dest[w++] = 0xef;
        dest[w++] = 0xbf;
        dest[w++] = 0xbd;
        count++;
      }
      i += k;
      continue;
    }
    w = writeSingle(dest, w, lead);
    count += SINGLE_WIDTH[lead]! >> 1;
    i++;
  }
  decodedReplacements = count;
  return w;
}

/**
 * A byte that stands alone: ASCII is itself, any other byte becomes U+FFFD. Its three
 * bytes are written either way, the width deciding how many are kept (no branch on the
 * byte). Returns the new write offset.
 */
function writeSingle(dest: Uint8Array, w: number, byte: number): number {
  dest[w] = SINGLE_FIRST[byte]!;
  dest[w + 1] = 0xbf;
  dest[w + 2] = 0xbd;
  return w + SINGLE_WIDTH[byte]!;
}

/** Bytes a sequence led by each byte must have (0: it cannot lead one). */
const LEAD_LENGTH = Uint8Array.from({ length: 256 }, (_, b) => sequenceLength(b));
/** Output bytes of a byte that stands alone: 1 (ASCII, itself), else 3 (U+FFFD). */
const SINGLE_WIDTH = Uint8Array.from({ length: 256 }, (_, b) => (b < 0x80 ? 1 : 3));
/** The first output byte of a byte that stands alone: itself, or U+FFFD's 0xEF. */
const SINGLE_FIRST = Uint8Array.from({ length: 256 }, (_, b) => (b < 0x80 ? b : 0xef));
/** The lowest second byte after each lead (WHATWG: E0 and F0 narrow it). */
const SECOND_LOW = Uint8Array.from({ length: 256 }, (_, b) =>
  b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80,
);
/** How many second bytes may follow each byte from `SECOND_LOW` on (ED and F4 narrow it; 0 where it cannot lead). */
const SECOND_SPAN = Uint8Array.from({ length: 256 }, (_, b) =>
  sequenceLength(b) < 2 ? 0 : (b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf) - SECOND_LOW[b]! + 1,
);
