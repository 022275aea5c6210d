/**
 * The byte budget of one MCP tool result: what a call may ask for (`max_bytes`) within
 * what the server allows (`--max-result-bytes`), and UTF-8-safe clipping to it.
 */

/** A call's budget when it names none. */
export const DEFAULT_RESULT_BYTES = 16 * 1024;
/** Least budget a call may ask for (room for a receipt). */
export const MIN_RESULT_BYTES = 4 * 1024;

/** The budget of a call: its `max_bytes` (default 16 KiB), never above the server's maximum. */
export function resultBudget(asked: number | undefined, serverMax: number): number {
  return Math.min(Math.max(asked ?? DEFAULT_RESULT_BYTES, MIN_RESULT_BYTES), serverMax);
}

/** Bytes of a tool result as it goes on the wire (its JSON). */
export function resultBytes(result: unknown): number {
  return Buffer.byteLength(JSON.stringify(result));
}

/** The longest prefix of `bytes` of at most `n` bytes that ends on a character boundary. */
export function clipUtf8(bytes: Buffer, n: number): Buffer {
  if (bytes.length <= n) return bytes;
  let end = Math.max(0, n);
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}

/** The longest suffix of `bytes` of at most `n` bytes that starts on a character boundary. */
export function clipUtf8Tail(bytes: Buffer, n: number): Buffer {
  if (bytes.length <= n) return bytes;
  let start = bytes.length - Math.max(0, n);
  while (start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start++;
  return bytes.subarray(start);
}

/** Bytes JSON adds to `text` when it is a string value (quotes, escapes). */
export function jsonOverhead(text: string): number {
  return Buffer.byteLength(JSON.stringify(text)) - Buffer.byteLength(text);
}

/**
 * The largest page of `bytes` (a prefix, or with `from: "end"` a suffix) whose result,
 * built by `build`, fits `budget` bytes on the wire; escapes in JSON count.
 */
export function fitPage<R>(
  bytes: Buffer,
  budget: number,
  build: (page: Buffer) => R,
  from: "start" | "end" = "start",
): { page: Buffer; result: R } {
  const clip = from === "start" ? clipUtf8 : clipUtf8Tail;
  let room = bytes.length;
  for (;;) {
    const page = clip(bytes, room);
    const result = build(page);
    const total = resultBytes(result);
    const over = total - budget;
    if (over <= 0 || page.length === 0) return { page, result };
    // Escapes grow with the page: shrink in proportion, or by the excess if that keeps more.
    const proportional = Math.floor((page.length * budget) / total);
    room = Math.min(page.length - 1, Math.max(page.length - over, proportional));
  }
}
