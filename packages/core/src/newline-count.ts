/**
 * Counting `\n` bytes in a chunk, fast on every shape of text. `indexOf` skips sparse
 * newlines at memchr speed (log lines of ~100 bytes: several GiB/s) but costs a call per
 * newline, which on dense output (`yes` prints one every 2 bytes) fell to ~150 MiB/s
 * and dominated the whole capture. Once newlines turn out dense, the rest of the chunk
 * is counted four bytes at a time with SWAR bit tricks (~2.5 GiB/s whatever the density).
 *
 * @example
 * ```ts
 * import { countNewlines } from "@spool/core";
 * countNewlines(Buffer.from("a\nb\n\n")); // 3
 * ```
 */

/** Newlines found by `indexOf` before the density is checked. */
const PROBE = 32;
/** Mean bytes per newline below which the word-at-a-time count is faster. */
const DENSE_GAP = 48;

/**
 * Number of 0x0a bytes in `chunk` (how the ledger counts lines), fast on long lines and
 * on dense ones.
 *
 * @category receipts
 * @example
 * ```ts
 * import { countNewlines } from "@spool/core";
 * countNewlines(Buffer.from("a\nb\nc")); // 2
 * ```
 */
export function countNewlines(chunk: Uint8Array): number {
  let count = 0;
  let at = chunk.indexOf(0x0a);
  const start = at;
  while (at !== -1) {
    count++;
    if (count === PROBE && (at - start) / PROBE < DENSE_GAP) {
      return count + countDense(chunk, at + 1);
    }
    at = chunk.indexOf(0x0a, at + 1);
  }
  return count;
}

/** Count 0x0a in `chunk[from..]`, a 32-bit word at a time where aligned. */
function countDense(chunk: Uint8Array, from: number): number {
  const end = chunk.byteLength;
  let count = 0;
  let i = from;
  // Align to the underlying buffer so a Uint32Array view can be taken.
  while (i < end && ((chunk.byteOffset + i) & 3) !== 0) {
    if (chunk[i] === 0x0a) count++;
    i++;
  }
  const words = (end - i) >>> 2;
  if (words > 0) {
    const view = new Uint32Array(chunk.buffer, chunk.byteOffset + i, words);
    for (let k = 0; k < words; k++) {
      // x has a zero byte exactly where the word had 0x0a; t gets 0x80 in each such byte.
      const x = view[k]! ^ 0x0a0a0a0a;
      const t = ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f);
      count += Math.imul((t >>> 7) & 0x01010101, 0x01010101) >>> 24;
    }
    i += words * 4;
  }
  for (; i < end; i++) if (chunk[i] === 0x0a) count++;
  return count;
}
