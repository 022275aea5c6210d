/**
 * Where to cut a piece of UTF-8 text so that no character is split: the SSE follow sends
 * stream bytes in pieces of at most 64 KiB, each decoded to text on its own.
 *
 * @example
 * ```ts
 * import { characterEnd } from "./character-end.js";
 * characterEnd(Buffer.from("a€"), 2); // 1: the 3-byte € would be split at 2
 * characterEnd(Buffer.from([0x61, 0xe2, 0x82]), 3); // 1: the buffer ends inside a character
 * ```
 */
/** The largest end ≤ `limit` that does not split a UTF-8 character of `bytes`. */
export function characterEnd(bytes: Buffer, limit: number): number {
  if (limit >= bytes.length) {
    // The whole buffer: cut only an incomplete character at its very end.
    let i = bytes.length - 1;
    let back = 0;
    while (i >= 0 && back < 4 && ((bytes[i] as number) & 0xc0) === 0x80) {
      i--;
      back++;
    }
    if (i < 0) return bytes.length;
    const lead = bytes[i] as number;
    const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    return bytes.length - i >= need ? bytes.length : i;
  }
  let end = limit;
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return end;
}
