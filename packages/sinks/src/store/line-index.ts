/**
 * The sparse line index kept beside each spooled stream (`stdout.idx`, `stderr.idx`):
 * the writer records the byte offset where every {@link LINE_INDEX_EVERY}th line
 * begins, so a reader finds line N with one seek and a scan of fewer than that many
 * lines, not a scan from the start of the file.
 *
 * Format: a flat array of little-endian uint64 entries; entry `i` (0-based) is the
 * offset of line `(i + 1) * every + 1` (lines are 1-based; line 1 starts at 0). The
 * writer appends entries after the bytes they point into, so an entry whose offset is
 * within a reader's committed length is always valid.
 *
 * @example
 * ```ts
 * import { createLineIndexer } from "@spool/sinks";
 * const indexer = createLineIndexer(2);
 * indexer.scan(Buffer.from("a\nb\nc\n")); // one entry: line 3 starts at byte 4
 * ```
 */
import * as fs from "node:fs";
import type { StreamName } from "@spool/core/runtime";

/**
 * The line index's component name, as its errors and logs name it.
 *
 * @category storage
 * @example
 * ```ts
 * import { LINE_INDEX } from "@spool/sinks";
 * LINE_INDEX; // "line-index"
 * ```
 */
export const LINE_INDEX = "line-index";

/**
 * Every how many lines the sparse line index records an offset (1024): finding a line
 * scans at most this many lines after one seek.
 *
 * @category storage
 * @example
 * ```ts
 * import { createLineIndexer, LINE_INDEX_EVERY } from "@spool/sinks";
 * const indexer = createLineIndexer(LINE_INDEX_EVERY);
 * ```
 */
export const LINE_INDEX_EVERY = 1024;

const ENTRY_BYTES = 8;
const NEWLINE = 0x0a;
/** Newlines found by `indexOf` before the density is checked. */
const DENSITY_PROBE = 32;
/** Mean bytes per newline below which a plain loop beats `indexOf`. */
const DENSE_GAP = 48;

/**
 * The index file of a stream, beside its data file in the capture directory.
 *
 * @category storage
 * @example
 * ```ts
 * import { lineIndexName } from "@spool/sinks";
 * lineIndexName("stderr"); // "stderr.idx"
 * ```
 */
export function lineIndexName(stream: StreamName): string {
  return `${stream}.idx`;
}

/**
 * The writer side of the sparse line index ({@link createLineIndexer}): fed the stream's
 * bytes in order, it returns the index entries to append.
 *
 * @category storage
 * @example
 * ```ts
 * import { createLineIndexer, lineIndexEntries } from "@spool/sinks";
 * const indexer = createLineIndexer(2);
 * const entries = indexer.scan(Buffer.from("a\nb\nc\nd\n"));
 * if (entries) lineIndexEntries(entries); // offsets of lines 3, 5, …
 * ```
 */
export interface LineIndexer {
  /** Account for the next bytes of the stream; returns the entries to append, or null. */
  scan(data: Uint8Array): Buffer | null;
  /**
   * Lines of every byte scanned so far (newlines, plus one for a final line without one),
   * and whether they end with a newline (null while none were scanned): the receipt's
   * `lines` and `endsWithNewline` of exactly the bytes a writer stored.
   */
  counted(): { readonly lines: number; readonly endsWithNewline: boolean | null };
}

/**
 * Writer side of the sparse line index: counts newlines across writes and emits an
 * 8-byte entry (the offset where a line starts) every `every`th line.
 *
 * @category storage
 * @example
 * ```ts
 * import { createLineIndexer } from "@spool/sinks";
 * const indexer = createLineIndexer();
 * const entries = indexer.scan(Buffer.from("line\n".repeat(5000))); // entries for lines 1025, 2049, …
 * ```
 */
export function createLineIndexer(every: number = LINE_INDEX_EVERY): LineIndexer {
  let position = 0;
  let newlines = 0;
  let lastByte = -1;
  return {
    counted: () => ({
      lines: newlines + (position > 0 && lastByte !== NEWLINE ? 1 : 0),
      endsWithNewline: position === 0 ? null : lastByte === NEWLINE,
    }),
    scan(data) {
      const offsets: number[] = [];
      const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      // indexOf skips sparse newlines at memchr speed but costs a call per newline; on
      // dense output (`yes`: one every 2 bytes) a plain loop is several times faster.
      let at = bytes.indexOf(NEWLINE);
      const first = at;
      let seen = 0;
      while (at !== -1) {
        newlines++;
        if (newlines % every === 0) offsets.push(position + at + 1);
        if (++seen === DENSITY_PROBE && (at - first) / seen < DENSE_GAP) {
          for (let i = at + 1; i < bytes.length; i++) {
            if (bytes[i] === NEWLINE && ++newlines % every === 0) offsets.push(position + i + 1);
          }
          break;
        }
        at = bytes.indexOf(NEWLINE, at + 1);
      }
      position += data.byteLength;
      if (data.byteLength > 0) lastByte = data[data.byteLength - 1]!;
      if (offsets.length === 0) return null;
      const out = Buffer.alloc(offsets.length * ENTRY_BYTES);
      offsets.forEach((offset, i) => {
        out.writeBigUInt64LE(BigInt(offset), i * ENTRY_BYTES);
      });
      return out;
    },
  };
}

/**
 * Where to start scanning for a line (1-based): the nearest indexed line at or before it,
 * and how many newlines remain to pass.
 *
 * @category storage
 * @example
 * ```ts
 * import { seekLineEntries } from "@spool/sinks";
 * const { offset, skip } = seekLineEntries(() => null, 0, 10, 1000); // { offset: 0, skip: 9 }
 * ```
 */
export interface LineSeek {
  /** Byte offset of `line` - `skip`'s start. */
  offset: number;
  /** Newlines still to pass from `offset` to reach `line`. */
  skip: number;
}

/**
 * Reader side: look up where line `line` starts, or the nearest earlier indexed line,
 * using only entries at or below `committed`. `fd` is the open index file, or null when
 * there is none (then the scan starts at byte 0).
 *
 * @category storage
 * @example
 * ```ts
 * import { seekLine } from "@spool/sinks";
 * seekLine(null, 5, 1000); // { offset: 0, skip: 4 }: no index, scan from the start
 * ```
 */
export function seekLine(
  fd: number | null,
  line: number,
  committed: number,
  every: number = LINE_INDEX_EVERY,
): LineSeek {
  if (fd === null) return { offset: 0, skip: line - 1 };
  const buf = Buffer.alloc(ENTRY_BYTES);
  const entry = (i: number) =>
    fs.readSync(fd, buf, 0, ENTRY_BYTES, i * ENTRY_BYTES) === ENTRY_BYTES
      ? Number(buf.readBigUInt64LE(0))
      : null;
  const wanted = Math.floor((line - 1) / every) - 1;
  const entries = wanted < 0 ? 0 : Math.floor(fs.fstatSync(fd).size / ENTRY_BYTES);
  return seekLineEntries(entry, entries, line, committed, every);
}

/**
 * {@link seekLine} over any list of entries: `entry(i)` is entry `i`'s offset (null if it
 * cannot be read), `entries` how many there are. For stores that keep the index elsewhere.
 *
 * @category storage
 * @example
 * ```ts
 * import { seekLineEntries } from "@spool/sinks";
 * const offsets = [5000, 10_000]; // where lines 1025 and 2049 start
 * seekLineEntries((i) => offsets[i] ?? null, offsets.length, 2049, 20_000); // { offset: 10000, skip: 0 }
 * ```
 */
export function seekLineEntries(
  entry: (i: number) => number | null,
  entries: number,
  line: number,
  committed: number,
  every: number = LINE_INDEX_EVERY,
): LineSeek {
  const wanted = Math.floor((line - 1) / every) - 1;
  if (wanted < 0) return { offset: 0, skip: line - 1 };
  // Entries grow with the data; the last usable one is the highest within `committed`.
  for (let i = Math.min(wanted, entries - 1); i >= 0; i--) {
    const offset = entry(i);
    if (offset !== null && offset <= committed) return { offset, skip: line - 1 - (i + 1) * every };
  }
  return { offset: 0, skip: line - 1 };
}

/**
 * The offsets in entries as {@link LineIndexer.scan} returns them (or as read from an
 * index file).
 *
 * @category storage
 * @example
 * ```ts
 * import { readFileSync } from "node:fs";
 * import { lineIndexEntries } from "@spool/sinks";
 * const offsets = lineIndexEntries(readFileSync("/home/me/.spool/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/stdout.idx"));
 * ```
 */
export function lineIndexEntries(entries: Buffer): number[] {
  const out: number[] = [];
  for (let at = 0; at + ENTRY_BYTES <= entries.length; at += ENTRY_BYTES) {
    out.push(Number(entries.readBigUInt64LE(at)));
  }
  return out;
}
