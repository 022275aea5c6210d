/**
 * The input the redactor has seen and may still need, by absolute input offset: the chunk
 * being processed, and a ring holding what earlier chunks left undecided plus the
 * {@link LOOKBEHIND} bytes before it (anchors check the byte before a match for a word
 * boundary, seen through a string escape such as `\n` or `\u0022`, and where the name
 * they stand in starts). Pattern rules read the bytes they hold through it ({@link HeldText}).
 */
import type { HeldText } from "./compile-redaction.js";

const EMPTY = new Uint8Array(0);

/** Bytes before an anchor that its word-boundary check may read (`\u0022` before it). */
export const ESCAPE_LOOKBEHIND = 6;

/** Name bytes before an anchor read for where its name starts (`AnchorMatch.nameBefore`). */
export const NAME_LOOKBEHIND = 24;

/** Bytes kept before anything held: a name, and the escape before it. */
export const LOOKBEHIND = NAME_LOOKBEHIND + ESCAPE_LOOKBEHIND;

/** The ring's first size (it doubles up to the window as more is held). */
const INITIAL_BYTES = 256;

export class InputRing implements HeldText {
  /** The chunk being processed (empty between chunks). */
  chunk: Uint8Array = EMPTY;
  /** Input offset of `chunk[0]`. */
  chunkBase = 0;
  private bytes: Uint8Array;
  private mask: number;
  /** The ring's largest size: the smallest power of two ≥ window + 1 + LOOKBEHIND. */
  private readonly capacity: number;
  /** Input offset of the earliest byte before the chunk that may still be read. */
  private heldFrom = 0;

  /**
   * A ring for `window` held bytes and the ones before them that anchors look at. It starts
   * small and doubles as more is held: most redactors (one per short text, one per chunk
   * split a test tries) never hold more than a few bytes, and zeroing the whole window for
   * each cost more than redacting their text.
   */
  constructor(window: number) {
    // window ≤ 2^24.
    this.capacity = 1 << (32 - Math.clz32(window + LOOKBEHIND));
    this.bytes = new Uint8Array(Math.min(this.capacity, INITIAL_BYTES));
    this.mask = this.bytes.length - 1;
  }

  begin(chunk: Uint8Array, base: number): void {
    this.chunk = chunk;
    this.chunkBase = base;
  }

  /** Stop reading the chunk; the next one starts at `pos`. */
  finish(pos: number): void {
    this.chunk = EMPTY;
    this.chunkBase = pos;
  }

  byteAt(p: number): number {
    return p >= this.chunkBase ? this.chunk[p - this.chunkBase]! : this.bytes[p & this.mask]!;
  }

  /** The byte at `p` when the chunk holds it (`p` past the bytes read), else -1 (not read yet). */
  byteAfter(p: number): number {
    const k = p - this.chunkBase;
    return k >= 0 && k < this.chunk.length ? this.chunk[k]! : -1;
  }

  /** `[start, end)` as one array: a view of the chunk when it holds them all, else a copy. */
  view(start: number, end: number): Uint8Array {
    const base = this.chunkBase;
    if (start >= base) return this.chunk.subarray(start - base, end - base);
    const bytes = new Uint8Array(Math.max(0, end - start));
    for (let p = start; p < end; p++) bytes[p - start] = this.byteAt(p);
    return bytes;
  }

  /** The first offset from `p` before `end` whose byte is not in `set` (1 per member), or `end`. */
  runEnd(p: number, end: number, set: Uint8Array): number {
    let q = p;
    const base = this.chunkBase;
    for (; q < end && q < base; q++) if (set[this.byteAt(q)] !== 1) return q;
    const chunk = this.chunk;
    while (q < end && set[chunk[q - base]!] === 1) q++;
    return q;
  }

  latin1(start: number, end: number): string {
    const bytes = this.view(start, end);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1");
  }

  /** A copy of `[from, to)`, which lies before the chunk. */
  copyBeforeChunk(from: number, to: number): Uint8Array {
    const piece = new Uint8Array(to - from);
    const at = from & this.mask;
    const first = Math.min(piece.length, this.bytes.length - at);
    piece.set(this.bytes.subarray(at, at + first), 0);
    if (first < piece.length) piece.set(this.bytes.subarray(0, piece.length - first), first);
    return piece;
  }

  /**
   * Keep the chunk's bytes `[from, to)` for the chunks that follow (`from` is the chunk's
   * start when bytes before it are still held: those stay).
   */
  retain(from: number, to: number): void {
    const chunk = this.chunk;
    const base = this.chunkBase;
    if (from > base) this.heldFrom = from;
    this.heldFrom = Math.max(this.heldFrom, to - this.capacity);
    if (to - this.heldFrom > this.bytes.length) this.grow(to - this.heldFrom);
    for (let p = from; p < to; ) {
      const at = p & this.mask;
      const length = Math.min(to - p, this.bytes.length - at);
      this.bytes.set(chunk.subarray(p - base, p - base + length), at);
      p += length;
    }
  }

  /** A ring of at least `size` bytes holding the same bytes before the chunk. */
  private grow(size: number): void {
    const old = this.bytes;
    const oldMask = this.mask;
    this.bytes = new Uint8Array(Math.min(this.capacity, 1 << (32 - Math.clz32(size - 1))));
    this.mask = this.bytes.length - 1;
    for (let p = Math.max(this.heldFrom, this.chunkBase - old.length); p < this.chunkBase; p++)
      this.bytes[p & this.mask] = old[p & oldMask]!;
  }
}
