/**
 * Needles packed into typed arrays: one byte pool and, per needle, where it ends and what a
 * match means. A `--redact-file` of 100,000 values has about a million needles (each value's
 * encoded forms); as one `Uint8Array` each, with an object around it, they cost more memory
 * than the automaton built from them. The pool costs their bytes and 12 bytes per needle.
 *
 * @example
 * ```ts
 * import { NeedlePool } from "./needle-pool.js";
 * const pool = new NeedlePool();
 * pool.addText("correct-horse-battery", 0, -1);
 * pool.count; // 1
 * pool.bytesOf(0).toString(); // "correct-horse-battery"
 * ```
 */
import type { Needle } from "./aho-corasick.js";

export class NeedlePool {
  /** Needle `i` is `bytes[start(i) .. ends[i])`. */
  bytes: Uint8Array = new Uint8Array(1024);
  ends: Int32Array = new Int32Array(64);
  /** Rule index of a literal to redact when needle `i` matches, or -1. */
  literal: Int32Array = new Int32Array(64);
  /** Anchor id to report when needle `i` matches, or -1. */
  anchor: Int32Array = new Int32Array(64);
  count = 0;
  /** Bytes used in {@link bytes}. */
  size = 0;

  /** A pool holding `needles`, in order. */
  static of(needles: readonly Needle[]): NeedlePool {
    const pool = new NeedlePool();
    for (const needle of needles) pool.add(needle.bytes, needle.literal, needle.anchor);
    return pool;
  }

  start(i: number): number {
    return i === 0 ? 0 : this.ends[i - 1]!;
  }

  /** Needle `i`'s bytes (a view into the pool). */
  bytesOf(i: number): Buffer {
    return Buffer.from(
      this.bytes.buffer,
      this.bytes.byteOffset + this.start(i),
      this.ends[i]! - this.start(i),
    );
  }

  add(bytes: Uint8Array, literal: number, anchor: number): void {
    this.reserve(bytes.length);
    this.bytes.set(bytes, this.size);
    this.push(this.size + bytes.length, literal, anchor);
  }

  /** `text` as UTF-8. */
  addText(text: string, literal: number, anchor: number): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    this.reserve(text.length * 3);
    const { written } = UTF8.encodeInto(text, this.bytes.subarray(this.size));
    this.push(this.size + written, literal, anchor);
  }

  private push(end: number, literal: number, anchor: number): void {
    if (this.count === this.ends.length) {
      this.ends = grow(this.ends, this.count * 2);
      this.literal = grow(this.literal, this.count * 2);
      this.anchor = grow(this.anchor, this.count * 2);
    }
    this.ends[this.count] = end;
    this.literal[this.count] = literal;
    this.anchor[this.count] = anchor;
    this.count++;
    this.size = end;
  }

  private reserve(extra: number): void {
    if (this.size + extra <= this.bytes.length) return;
    const bytes = new Uint8Array(Math.max(this.bytes.length * 2, this.size + extra));
    bytes.set(this.bytes.subarray(0, this.size));
    this.bytes = bytes;
  }
}

const UTF8 = new TextEncoder();

function grow(table: Int32Array, length: number): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(length);
  bigger.set(table);
  return bigger;
}
