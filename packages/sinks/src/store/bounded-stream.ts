/**
 * A {@link StoredStream} over any random-access byte source: the rules every store shares
 * for reading a stream's committed bytes: never past the readable length the state
 * advertises, never splitting a UTF-8 character (text representations), in bounded
 * chunks (never the whole stream in memory), line ranges found through the sparse line
 * index and the last lines found scanning back. The file store feeds it a file
 * descriptor, the memory store its buffers.
 *
 * @example
 * ```ts
 * import { createBoundedStream } from "@spool/sinks";
 * const data = Buffer.from("aé\n");
 * const stream = createBoundedStream(
 *   { captureId: "AAAAAAAAAAAAAAAAAAAAAAAA", stream: "stdout", committed: 2, binary: false },
 *   { readAt: (at, n) => data.subarray(at, at + n), seekLine: (line) => ({ offset: 0, skip: line - 1 }), close() {} },
 * );
 * await stream.read(0, 3); // { bytes: "a", offset: 0, nextOffset: 1 }: "é" is not wholly committed
 * ```
 */
import type { ByteSpan, Receipt, StoredStream, StreamName, StreamSlice } from "@spool/core/runtime";
import type { LineSeek } from "./line-index.js";

/**
 * Largest single read from a stream's source, in bytes (1 MiB): `chunks` yields pieces of
 * at most this size.
 *
 * @category storage
 * @example
 * ```ts
 * import { READ_CHUNK } from "@spool/sinks";
 * const buffer = Buffer.alloc(READ_CHUNK); // one reusable buffer for `readInto`
 * ```
 */
export const READ_CHUNK = 1024 * 1024;
/** Bytes looked at per step while scanning back for the last lines. */
const TAIL_CHUNK = 64 * 1024;
const NEWLINE = 0x0a;

/**
 * Where a bounded stream's bytes come from (random access): what a new store implements
 * to get every read rule of {@link createBoundedStream} for free.
 *
 * @category storage
 * @example
 * ```ts
 * import type { StreamSource } from "@spool/sinks";
 * const data = Buffer.from("one\ntwo\n");
 * const source: StreamSource = {
 *   readAt: (position, length) => data.subarray(position, position + length),
 *   seekLine: (line) => ({ offset: 0, skip: line - 1 }),
 *   close: () => {},
 * };
 * ```
 */
export interface StreamSource {
  /** Up to `length` bytes at `position` (fewer only at the end of what is stored). */
  readAt(position: number, length: number): Buffer;
  /**
   * The same bytes as {@link StreamSource.readAt}, read without blocking the thread, into
   * a buffer the caller keeps. Optional: `chunks` uses it when present (a file read on
   * the thread pool, overlapped with the consumer), else `readAt`.
   */
  readAtAsync?(position: number, length: number): Promise<Buffer>;
  /**
   * Fill `target` (a prefix of it, at the end of what is stored) with the bytes at
   * `position` without blocking the thread: the count. Optional: `readInto` copies from
   * `readAt` without it.
   */
  readIntoAsync?(position: number, target: Uint8Array): Promise<number>;
  /** Where to start scanning for `line` (1-based), using only index entries at or below `committed`. */
  seekLine(line: number, committed: number): LineSeek;
  close(): void;
}

/**
 * What a bounded stream is: the capture, the stream, its readable length and whether it
 * is binary (binary spans are not moved to character boundaries).
 *
 * @category storage
 * @example
 * ```ts
 * import type { BoundedStreamInfo } from "@spool/sinks";
 * const info: BoundedStreamInfo = { captureId: "AAAAAAAAAAAAAAAAAAAAAAAA", stream: "stdout", committed: 1024, binary: false };
 * ```
 */
export interface BoundedStreamInfo {
  readonly captureId: string;
  readonly stream: StreamName;
  /** The readable length (see {@link readableLength}). */
  readonly committed: number;
  readonly binary: boolean;
}

/**
 * The readable bound of a stream: committed bytes within what was retained (0 when
 * nothing was retained). Pass it as a bounded stream's `committed`.
 *
 * @category storage
 * @example
 * ```ts
 * import { readableLength } from "@spool/sinks";
 * import type { Receipt } from "@spool/core";
 * declare const receipt: Receipt;
 * const readable = readableLength(receipt, "stdout");
 * ```
 */
export function readableLength(receipt: Receipt, stream: StreamName): number {
  const s = receipt.streams[stream];
  return s.retained ? Math.min(s.committed, s.retained.end) : 0;
}

/**
 * A {@link StoredStream} over any random-access {@link StreamSource}: reads never go past
 * `info.committed`, never split a UTF-8 character (text representations), come in bounded
 * chunks, and find lines through the source's sparse line index. For implementing a
 * `CaptureStore` over new storage.
 *
 * @category storage
 * @example
 * ```ts
 * import { createBoundedStream } from "@spool/sinks";
 * const data = Buffer.from("aé\n");
 * const stream = createBoundedStream(
 *   { captureId: "AAAAAAAAAAAAAAAAAAAAAAAA", stream: "stdout", committed: 2, binary: false },
 *   { readAt: (at, n) => data.subarray(at, at + n), seekLine: (line) => ({ offset: 0, skip: line - 1 }), close() {} },
 * );
 * await stream.read(0, 3); // bytes "a": "é" is not wholly committed
 * ```
 */
export function createBoundedStream(info: BoundedStreamInfo, source: StreamSource): StoredStream {
  const { committed, binary } = info;
  let closed = false;
  const readAt = (position: number, length: number): Buffer =>
    length <= 0 || closed ? Buffer.alloc(0) : source.readAt(position, length);
  const span = (offset: number, length: number): ByteSpan =>
    boundedSpan(readAt, committed, binary, offset, length);
  return {
    ...info,
    async span(offset, length) {
      return span(offset, length);
    },
    async read(offset, length): Promise<StreamSlice> {
      const { start, end } = span(offset, length);
      const bytes = readAt(start, end - start);
      return { bytes, offset: start, nextOffset: start + bytes.length };
    },
    async lineRange(first, last) {
      const seek = source.seekLine(first, committed);
      const start = skipLines(readAt, committed, seek.offset, seek.skip);
      const end = last < first ? start : skipLines(readAt, committed, start, last - first + 1);
      return { start, end };
    },
    async tailStart(n) {
      return tailStart(readAt, committed, n);
    },
    chunks(start, end) {
      const read = source.readAtAsync?.bind(source);
      const readChunk = (at: number, length: number): Promise<Buffer> =>
        length <= 0 || closed
          ? Promise.resolve(Buffer.alloc(0))
          : read
            ? read(at, length)
            : Promise.resolve(source.readAt(at, length));
      return readAhead(readChunk, start, Math.min(end, committed));
    },
    async readInto(position, target) {
      const length = Math.min(target.length, committed - position);
      if (length <= 0 || closed) return 0;
      const into = target.subarray(0, length);
      if (source.readIntoAsync) return source.readIntoAsync(position, into);
      const bytes = source.readAt(position, length);
      into.set(bytes);
      return bytes.length;
    },
    async close() {
      if (closed) return;
      closed = true;
      source.close();
    },
  };
}

type ReadAt = (position: number, length: number) => Buffer;

/**
 * The bytes of `[start, stop)` in chunks of at most `READ_CHUNK`, the next chunk's read
 * already started while the consumer handles the current one (two chunks held at most).
 */
async function* readAhead(
  readChunk: (at: number, length: number) => Promise<Buffer>,
  start: number,
  stop: number,
): AsyncGenerator<Buffer> {
  const ahead = (at: number) => readChunk(at, Math.min(READ_CHUNK, stop - at));
  let at = start;
  let next = at < stop ? ahead(at) : null;
  try {
    while (next !== null) {
      const chunk = await next;
      next = null;
      if (chunk.length === 0) return;
      at += chunk.length;
      if (at < stop) next = ahead(at);
      yield chunk;
    }
  } finally {
    // A consumer that stops early leaves a read in flight: let it settle, whatever it says.
    await next?.catch(() => undefined);
  }
}

/** `[offset, offset+length) ∩ [0, committed)`, both ends moved to character boundaries. */
function boundedSpan(
  readAt: ReadAt,
  committed: number,
  binary: boolean,
  offset: number,
  length: number,
): ByteSpan {
  let start = Math.min(offset, committed);
  let end = Math.min(committed, start + length);
  if (!binary && start < committed) start = charStart(readAt, start);
  if (!binary && end > start) {
    const cut = charCut(readAt(Math.max(start, end - 4), Math.min(4, end - start)));
    if (cut > 0 && end - cut > start) end -= cut;
    else if (cut > 0) {
      // Asked for less than one character: give that one character, if it is all committed.
      const whole = charEnd(readAt, start);
      end = whole <= committed ? whole : start;
    }
  }
  return { start, end };
}

/** Scan forward from `from` past `count` newlines: the offset after the last one, or `committed`. */
function skipLines(readAt: ReadAt, committed: number, from: number, count: number): number {
  let at = from;
  let left = count;
  while (left > 0 && at < committed) {
    const chunk = readAt(at, Math.min(READ_CHUNK, committed - at));
    if (chunk.length === 0) return committed;
    let i = chunk.indexOf(NEWLINE);
    while (i !== -1) {
      if (--left === 0) return at + i + 1;
      i = chunk.indexOf(NEWLINE, i + 1);
    }
    at += chunk.length;
  }
  return left === 0 ? at : committed;
}

/** Where the last `n` lines of `[0, committed)` begin. */
function tailStart(readAt: ReadAt, committed: number, n: number): number {
  if (n <= 0) return committed;
  let at = committed;
  // A final newline ends the last line; it does not start another.
  let wanted = n + (committed > 0 && readAt(committed - 1, 1)[0] === NEWLINE ? 1 : 0);
  while (at > 0) {
    const size = Math.min(TAIL_CHUNK, at);
    const chunk = readAt(at - size, size);
    for (let i = chunk.length - 1; i >= 0; i--) {
      if (chunk[i] === NEWLINE && --wanted === 0) return at - size + i + 1;
    }
    at -= size;
  }
  return 0;
}

const isUtf8Continuation = (b: number | undefined) => b !== undefined && (b & 0xc0) === 0x80;

/** Move `offset` back to the start of the character it falls in (at most 3 bytes). */
function charStart(readAt: ReadAt, offset: number): number {
  const back = Math.min(3, offset);
  const bytes = readAt(offset - back, back + 1);
  let at = back;
  while (at > 0 && isUtf8Continuation(bytes[at])) at--;
  return offset - back + at;
}

/** How many bytes at the end of `tail` belong to a character that does not end inside it. */
function charCut(tail: Buffer): number {
  for (let i = tail.length - 1; i >= 0; i--) {
    const b = tail[i]!;
    if (isUtf8Continuation(b)) continue;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    const have = tail.length - i;
    return have < need ? have : 0;
  }
  return 0;
}

/** The end of the character starting at `offset`. */
function charEnd(readAt: ReadAt, offset: number): number {
  const lead = readAt(offset, 1)[0] ?? 0;
  return offset + (lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1);
}
