/**
 * A first look at a tar bundle, before any of it is staged: its headers are walked with
 * positioned reads (bodies are skipped, never read), so an import can refuse a bundle
 * with too many entries, or with more than a little data after its end marker, in the
 * time it takes to read the headers, and can feed the strict parser exactly the archive
 * (nothing after its end marker reaches it, so nothing there is buffered).
 *
 * The walk follows node-tar's own rules for what moves the next header (pax `size`, both
 * per-entry and global); the parser stays the authority on everything else. Where the two
 * could disagree (a damaged or crafted tar), the walk stops and the parser refuses.
 *
 * @example
 * ```ts
 * import * as fs from "node:fs";
 * import { tarExtent } from "./tar-extent.js";
 * const fd = fs.openSync("/tmp/b.tar", "r");
 * const { entries, end } = tarExtent(fd, fs.fstatSync(fd).size, { maxEntries: 50_001, maxTrailing: 1 << 20, maxMeta: 64 * 1024 });
 * ```
 */
import * as fs from "node:fs";
import { Header, Pax } from "tar";

const BLOCK = 512;
const WINDOW = 64 * 1024;

/** What {@link tarExtent} found: the headers it walked and the offset just past the end marker. */
export interface TarExtent {
  /** Headers of any kind (pax and long-name headers count). */
  readonly entries: number;
  /** Bytes of the archive, its end marker included: what the parser is given. */
  readonly end: number;
  /** Whether the walk reached the end marker (false: the tar is damaged or truncated). */
  readonly complete: boolean;
  /** The paths of its entries (meta headers aside), as the parser will name them. */
  readonly names: ReadonlySet<string>;
}

/** Bounds {@link tarExtent} enforces. */
export interface TarExtentLimits {
  readonly maxEntries: number;
  /** Bytes allowed after the end marker (a tar writer's record padding). */
  readonly maxTrailing: number;
  /** Largest pax or long-name header (bigger ones are refused, as the parser's are). */
  readonly maxMeta: number;
}

/** Why {@link tarExtent} refuses a tar, in a sentence for the user. */
export class TarExtentError extends Error {}

/**
 * Walk the headers of the tar open at `fd` (`size` bytes). Throws {@link TarExtentError}
 * past `maxEntries` headers, a meta header over `maxMeta`, or more than `maxTrailing`
 * bytes after the end marker. A damaged tar stops the walk (`complete: false`, end =
 * `size`): the parser that reads it next says what is wrong.
 */
export function tarExtent(fd: number, size: number, limits: TarExtentLimits): TarExtent {
  const reader = blockReader(fd, size);
  const names = new Set<string>();
  let ex: Pax | undefined;
  let gex: Pax | undefined;
  let entries = 0;
  const damaged = () => ({ entries, end: size, complete: false, names });
  for (let at = 0; at + BLOCK <= size; ) {
    const block = reader(at, BLOCK);
    if (block.length < BLOCK) return damaged();
    if (isZero(block)) {
      const next = at + 2 * BLOCK <= size ? reader(at + BLOCK, BLOCK) : null;
      if (next === null || next.length < BLOCK) return damaged();
      if (!isZero(next)) {
        // One zero block alone is not the end: the parser reads on, and so does the walk.
        at += BLOCK;
        continue;
      }
      const end = at + 2 * BLOCK;
      if (size - end > limits.maxTrailing) {
        throw new TarExtentError(
          `it holds ${size - end} bytes after the tar's end marker (at most ${limits.maxTrailing} may follow it)`,
        );
      }
      return { entries, end, complete: true, names };
    }
    const header = new Header(block, 0, ex, gex);
    if (!header.cksumValid || !header.path) return damaged();
    entries += 1;
    if (entries > limits.maxEntries) {
      throw new TarExtentError(`it has more than ${limits.maxEntries} entries`);
    }
    const bodyBytes = header.size ?? 0;
    const body = at + BLOCK;
    const meta = metaKind(header.type);
    if (meta !== null) {
      if (bodyBytes > limits.maxMeta) {
        throw new TarExtentError(
          `a ${header.type} header of ${bodyBytes} bytes is more than ${limits.maxMeta}`,
        );
      }
      if (body + bodyBytes > size) return damaged();
      const text = reader(body, bodyBytes).toString("utf8");
      if (meta === "pax") ex = Pax.parse(text, ex, false);
      else if (meta === "global") gex = Pax.parse(text, gex, true);
    } else {
      names.add(header.path);
      ex = undefined;
    }
    at = body + BLOCK * Math.ceil(bodyBytes / BLOCK);
  }
  return damaged();
}

/** How a meta header changes the walk: pax sizes move the next header; long names do not. */
function metaKind(type: string | undefined): "pax" | "global" | "other" | null {
  switch (type) {
    case "ExtendedHeader":
    case "OldExtendedHeader":
      return "pax";
    case "GlobalExtendedHeader":
      return "global";
    case "NextFileHasLongPath":
    case "NextFileHasLongLinkpath":
    case "OldGnuLongPath":
      return "other";
    default:
      return null;
  }
}

function isZero(block: Buffer): boolean {
  for (let i = 0; i < block.length; i++) if (block[i] !== 0) return false;
  return true;
}

/** Positioned reads through a 64 KiB window, so runs of small entries cost one read each. */
function blockReader(fd: number, size: number): (at: number, length: number) => Buffer {
  const window = Buffer.allocUnsafe(WINDOW);
  let start = 0;
  let filled = 0;
  return (at, length) => {
    if (length > WINDOW) return readAt(fd, at, length);
    if (at < start || at + length > start + filled) {
      start = at;
      filled = readInto(fd, window, at, Math.min(WINDOW, size - at));
    }
    return window.subarray(at - start, at - start + Math.min(length, filled - (at - start)));
  };
}

function readAt(fd: number, at: number, length: number): Buffer {
  const out = Buffer.allocUnsafe(length);
  return out.subarray(0, readInto(fd, out, at, length));
}

function readInto(fd: number, into: Buffer, at: number, length: number): number {
  let got = 0;
  while (got < length) {
    const n = fs.readSync(fd, into, got, length - got, at + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}
