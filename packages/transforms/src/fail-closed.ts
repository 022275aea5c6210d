/**
 * Failing closed (invariant 3): when the bytes after the output cursor reach the window
 * still undecided, they are not released. They and the input after them up to the next
 * whitespace byte are dropped while only a count is kept (O(1) memory), and one
 * `[OMITTED:<n> bytes undecidable]` marker with the exact count stands for them all.
 */
import { isWhitespaceByte } from "./aho-corasick.js";

export class FailClosedDrop {
  /** Input offset of the first dropped byte. */
  start = 0;
  /** Bytes dropped so far. */
  count = 0;

  /** Start dropping at `start`, `count` bytes already being dropped. */
  begin(start: number, count: number): void {
    this.start = start;
    this.count = count;
  }

  /** Drop `input[from ..)` up to its first whitespace byte; returns that byte's index (`end` if none). */
  consume(input: Uint8Array, from: number, end: number): number {
    let i = from;
    while (i < end && !isWhitespaceByte(input[i]!)) i++;
    this.count += i - from;
    return i;
  }
}
