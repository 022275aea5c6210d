/**
 * Reading a capture's committed bytes, the one function behind `spool read` and the MCP
 * `read` tool and `spool://` resources: a range of one stream, chosen by offset, by lines
 * `A:B` (through the store's sparse line index) or by a named cursor, never past what the
 * store advertises as committed and never splitting a UTF-8 character.
 *
 * A cursor read is one call: the page is read at the cursor and the cursor advances past
 * exactly the bytes the caller keeps (`keep`), so a page cut to fit a budget never skips
 * the bytes that were cut.
 *
 * @example
 * ```ts
 * import { readCapture } from "./read-capture.js";
 * declare const store: import("@spool/core").CaptureStore;
 * const frame = await readCapture(store, { captureId, stream: "stdout", from: { cursor: "agent" }, length: 4096 });
 * frame.bytes; // the page; the cursor "agent" now stands at frame.nextOffset
 * ```
 */
import type { CaptureStore, StoredStream, StreamName } from "@spool/core";
import { usageError } from "../args.js";
import { checkCursorName } from "../cursor-name.js";

/** Lines `first`..`last`, 1-based and inclusive. */
export interface LineRange {
  readonly first: number;
  readonly last: number;
}

/** Where a read starts: a byte offset, a range of lines, or where a named consumer stopped. */
export type ReadFrom =
  | { readonly offset: number }
  | { readonly lines: LineRange }
  | { readonly cursor: string };

/** What to read. */
export interface ReadRequest {
  readonly captureId: string;
  readonly stream: StreamName;
  /** @default { offset: 0 } */
  readonly from?: ReadFrom;
  /** Most bytes (a lines range is cut to it too). @default no limit */
  readonly length?: number;
}

/** Where a read stands in its stream (`spool read --json` prints it, with the bytes). */
export interface ReadSpan {
  readonly captureId: string;
  readonly stream: StreamName;
  readonly offset: number;
  /** Where the next read continues: `offset` plus the bytes returned. */
  readonly nextOffset: number;
  /** The stream's readable length when it was read. */
  readonly committed: number;
  /** The capture's owner still runs: more bytes may become readable. */
  readonly running: boolean;
  /** Not running, and nothing left past `nextOffset`. */
  readonly eof: boolean;
  /** The stream keeps raw bytes (`--binary keep`): the bytes are not text. */
  readonly binary: boolean;
}

/** A read's span and its bytes. */
export interface ReadFrame extends ReadSpan {
  readonly bytes: Buffer;
}

/** Options of {@link readCapture}. */
export interface ReadOptions {
  /**
   * How many of the bytes read the caller keeps (a prefix, on a character boundary): the
   * frame is cut to them and a cursor advances past them only. @default all of them
   */
  readonly keep?: (frame: ReadFrame) => number;
}

/** Read a range of a stream into memory (keep `length` modest); a cursor advances past the frame. */
export async function readCapture(
  store: CaptureStore,
  request: ReadRequest,
  options: ReadOptions = {},
): Promise<ReadFrame> {
  return withRange(store, request, async (reader, span) => {
    const { bytes } = await reader.read(span.offset, span.nextOffset - span.offset);
    const read: ReadFrame = { ...span, bytes };
    const kept = options.keep === undefined ? bytes.length : options.keep(read);
    if (kept >= bytes.length) return read;
    return { ...spanTo(read, read.offset + kept), bytes: bytes.subarray(0, kept) };
  });
}

/**
 * Stream a range of a stream to `write` in bounded chunks (any length, bounded memory);
 * a cursor advances past all of it. The span says what was written.
 */
export async function pipeCapture(
  store: CaptureStore,
  request: ReadRequest,
  write: (chunk: Buffer) => void,
): Promise<ReadSpan> {
  return withRange(store, request, async (reader, span) => {
    for await (const chunk of reader.chunks(span.offset, span.nextOffset)) write(chunk);
    return span;
  });
}

/** `A:B` (1-based, inclusive; `B` may be left out) as a line range; else `SPOOL_E_USAGE`. */
export function parseLineRange(raw: string): LineRange {
  const m = /^(\d{1,12}):(\d{1,12})?$/.exec(raw);
  const first = m ? Number(m[1]) : 0;
  const last = m?.[2] !== undefined ? Number(m[2]) : Number.MAX_SAFE_INTEGER;
  if (!m || first < 1 || last < first) {
    throw usageError(
      `--lines takes A:B (1-based, A ≤ B; B may be left out), not "${raw.slice(0, 40)}"`,
    );
  }
  return { first, last };
}

/**
 * Open the stream, find the requested span (character boundaries kept), run `use` on it,
 * advance a cursor to where `use` says the read ended, close the stream.
 */
async function withRange<T extends ReadSpan>(
  store: CaptureStore,
  request: ReadRequest,
  use: (reader: StoredStream, span: ReadSpan) => Promise<T>,
): Promise<T> {
  const { captureId, stream } = request;
  const from = request.from ?? { offset: 0 };
  const cursor = "cursor" in from ? checkCursorName(from.cursor) : null;
  const length = request.length ?? Number.MAX_SAFE_INTEGER;
  const view = await store.state(captureId);
  const reader = await store.openStream(view, stream);
  try {
    let start: number;
    let end: number;
    if ("lines" in from) {
      ({ start, end } = await reader.lineRange(from.lines.first, from.lines.last));
      ({ start, end } = await reader.span(start, Math.min(end - start, length)));
    } else {
      const offset =
        "offset" in from ? from.offset : await store.cursors.get(captureId, stream, from.cursor);
      ({ start, end } = await reader.span(offset, length));
    }
    const running = view.condition === "live";
    const span: ReadSpan = {
      captureId: view.receipt.captureId,
      stream,
      offset: start,
      nextOffset: end,
      committed: reader.committed,
      running,
      eof: !running && end >= reader.committed,
      binary: reader.binary,
    };
    const done = await use(reader, span);
    if (cursor) await store.cursors.advance(captureId, stream, cursor, done.nextOffset);
    return done;
  } finally {
    await reader.close();
  }
}

/** `span` ending at `nextOffset` instead (a frame cut short: not at the end any more). */
function spanTo(span: ReadSpan, nextOffset: number): ReadSpan {
  return { ...span, nextOffset, eof: span.eof && nextOffset >= span.committed };
}
