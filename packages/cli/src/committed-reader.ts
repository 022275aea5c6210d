/**
 * Reading a stream's committed bytes from outside the supervisor: never past the
 * readable length the receipt advertises, never splitting a UTF-8 character (text
 * representations), in bounded chunks (never the whole file in memory), with line
 * ranges found through the sparse line index and the last lines found scanning back.
 *
 * @example
 * ```ts
 * import { openCommitted, viewCapture } from "@spool/cli";
 * const view = viewCapture("/abs/root/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA");
 * const stream = openCommitted(view, "stdout");
 * const { bytes, nextOffset } = stream.read(0, 4096);
 * stream.close();
 * ```
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SpoolError, type StreamName } from "@spool/core";
import { lineIndexName, seekLine } from "@spool/sinks";
import { type CaptureView, readableLength } from "./capture-view.js";

/** Largest single read from the file. */
export const READ_CHUNK = 1024 * 1024;
const NEWLINE = 0x0a;

export interface ReadSlice {
  readonly bytes: Buffer;
  /** Where the slice starts (a requested offset inside a character moves back to its start). */
  readonly offset: number;
  readonly nextOffset: number;
}

export interface CommittedStream {
  readonly stream: StreamName;
  /** The readable length as of the view this was opened with. */
  readonly committed: number;
  readonly binary: boolean;
  /** The range [offset, offset+length) ∩ [0, committed), both ends moved to character boundaries. */
  span(offset: number, length: number): { start: number; end: number };
  /** The bytes of {@link CommittedStream.span} (keep `length` modest: they are held in memory). */
  read(offset: number, length: number): ReadSlice;
  /** Byte range [start, end) of lines `first`..`last` (1-based, inclusive), via the line index. */
  lineRange(first: number, last: number): { start: number; end: number };
  /** Where the last `n` lines begin. */
  tailStart(n: number): number;
  /** Hand [start, end) to `sink` in chunks of at most {@link READ_CHUNK}; `false` from it stops. */
  pipe(start: number, end: number, sink: (chunk: Buffer) => boolean | undefined): void;
  close(): void;
}

export function openCommitted(view: CaptureView, stream: StreamName): CommittedStream {
  const committed = readableLength(view, stream);
  const info = view.receipt.streams[stream];
  const binary = info.representation === "binary";
  const fd = committed > 0 ? openStreamFile(view.dir, stream, info.ref) : null;
  let indexFd: number | null | undefined;
  const index = () => {
    if (indexFd === undefined) indexFd = openNoFollow(path.join(view.dir, lineIndexName(stream)));
    return indexFd;
  };
  const readAt = (position: number, length: number): Buffer => {
    const buf = Buffer.alloc(length);
    if (fd === null || length === 0) return buf.subarray(0, 0);
    let filled = 0;
    while (filled < length) {
      const n = fs.readSync(fd, buf, filled, length - filled, position + filled);
      if (n === 0) break;
      filled += n;
    }
    return buf.subarray(0, filled);
  };
  // Scan forward from `from` past `count` newlines; returns the offset after the last one,
  // or `committed` if the stream ends first.
  const skipLines = (from: number, count: number): number => {
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
  };

  return {
    stream,
    committed,
    binary,
    span(offset, length) {
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
    },
    read(offset, length) {
      const { start, end } = this.span(offset, length);
      const bytes = readAt(start, end - start);
      return { bytes, offset: start, nextOffset: start + bytes.length };
    },
    lineRange(first, last) {
      const seek = seekLine(index(), first, committed);
      const start = skipLines(seek.offset, seek.skip);
      const end = last < first ? start : skipLines(start, last - first + 1);
      return { start, end };
    },
    tailStart(n) {
      if (n <= 0) return committed;
      let at = committed;
      // A final newline ends the last line; it does not start another.
      let wanted = n + (committed > 0 && readAt(committed - 1, 1)[0] === NEWLINE ? 1 : 0);
      while (at > 0) {
        const size = Math.min(64 * 1024, at);
        const chunk = readAt(at - size, size);
        for (let i = chunk.length - 1; i >= 0; i--) {
          if (chunk[i] === NEWLINE && --wanted === 0) return at - size + i + 1;
        }
        at -= size;
      }
      return 0;
    },
    pipe(start, end, sink) {
      for (let at = start; at < end; ) {
        const chunk = readAt(at, Math.min(READ_CHUNK, end - at));
        if (chunk.length === 0 || sink(chunk) === false) break;
        at += chunk.length;
      }
    },
    close() {
      for (const d of [fd, indexFd]) if (typeof d === "number") fs.closeSync(d);
    },
  };
}

/** The stream's file: the name the receipt gives, else `.live`, else the final names (a rename may have happened since). */
function openStreamFile(dir: string, stream: StreamName, ref: string | null): number {
  const names = [
    ...(ref ? [path.basename(ref)] : []),
    `${stream}.live`,
    `${stream}.txt`,
    `${stream}.bin`,
  ];
  for (const name of names) {
    const fd = openNoFollow(path.join(dir, name));
    if (fd !== null) return fd;
  }
  throw new SpoolError(
    "SPOOL_E_STORAGE",
    "read",
    `the ${stream} file of ${path.basename(dir)} is missing although bytes were committed`,
  );
}

function openNoFollow(file: string): number | null {
  try {
    return fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") {
      throw new SpoolError(
        "SPOOL_E_REF_OUTSIDE_ROOT",
        "read",
        `${path.basename(file)} is a symlink; refusing it`,
      );
    }
    return null;
  }
}

const isContinuation = (b: number | undefined) => b !== undefined && (b & 0xc0) === 0x80;

/** Move `offset` back to the start of the character it falls in (at most 3 bytes). */
function charStart(readAt: (p: number, n: number) => Buffer, offset: number): number {
  const back = Math.min(3, offset);
  const bytes = readAt(offset - back, back + 1);
  let at = back;
  while (at > 0 && isContinuation(bytes[at])) at--;
  return offset - back + at;
}

/** How many bytes at the end of `tail` belong to a character that does not end inside it. */
function charCut(tail: Buffer): number {
  for (let i = tail.length - 1; i >= 0; i--) {
    const b = tail[i]!;
    if (isContinuation(b)) continue;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    const have = tail.length - i;
    return have < need ? have : 0;
  }
  return 0;
}

/** The end of the character starting at `offset`. */
function charEnd(readAt: (p: number, n: number) => Buffer, offset: number): number {
  const lead = readAt(offset, 1)[0] ?? 0;
  return offset + (lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1);
}
