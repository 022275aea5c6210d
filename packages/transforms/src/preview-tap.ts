/**
 * The preview tap: a pass-through stage that keeps a bounded head and tail of its
 * stream for the preview, never more than its budget, whatever the stream's size.
 *
 * @example
 * ```ts
 * import { createPreviewTap } from "@spool/transforms";
 * const tap = createPreviewTap({ headBytes: 4, tailBytes: 4 });
 * tap.push([Buffer.from("0123456789")]);
 * const { head, tail, total } = tap.snapshot(); // "0123", "6789", 10
 * ```
 */
import type { PreviewSnapshot, PreviewTap } from "@spool/core/runtime";
import { markerRanges } from "./redaction-markers.js";

/**
 * The preview tap's stage name, e.g. to check that a plan ends with one.
 *
 * @category stages
 * @example
 * ```ts
 * import { createPreviewTap, PREVIEW_TAP, previewTapBudget } from "@spool/transforms";
 * createPreviewTap(previewTapBudget(100)).name === PREVIEW_TAP; // true
 * ```
 */
export const PREVIEW_TAP = "preview-tap";

/**
 * How much of its stream a preview tap keeps, in bytes; {@link previewTapBudget} derives
 * them from a character budget.
 *
 * @category stages
 * @example
 * ```ts
 * import { createPreviewTap, type PreviewTapOptions } from "@spool/transforms";
 * const options: PreviewTapOptions = { headBytes: 4096, tailBytes: 16_384 };
 * const tap = createPreviewTap(options);
 * ```
 */
export interface PreviewTapOptions {
  /** Bytes kept from the start of the stream. */
  readonly headBytes: number;
  /** Bytes kept from the end of the stream. */
  readonly tailBytes: number;
  /** The stream is raw bytes (`--binary keep`): always described, never shown raw. @default false */
  readonly binary?: boolean;
}

/**
 * Budgets that always hold a stream of `chars` characters whole (4 bytes a character at most).
 *
 * @category stages
 * @example
 * ```ts
 * import { createPreviewTap, previewTapBudget } from "@spool/transforms";
 * const tap = createPreviewTap(previewTapBudget(8192));
 * ```
 */
export function previewTapBudget(chars: number): PreviewTapOptions {
  return { headBytes: 4 * chars, tailBytes: 4 * chars };
}

/**
 * The last stage of a stream: passes bytes through and keeps a bounded head and tail for
 * the preview. `createStreamPlan` makes it from the capture's preview budget.
 *
 * @category stages
 * @example
 * ```ts
 * import { createPreviewTap, previewTapBudget } from "@spool/transforms";
 * const tap = createPreviewTap(previewTapBudget(100));
 * tap.push([Buffer.from("hello\n")]);
 * Buffer.from(tap.snapshot().head).toString(); // "hello\n"
 * ```
 */
export function createPreviewTap(options: PreviewTapOptions): PreviewTap {
  const head = Buffer.alloc(options.headBytes);
  const ring = Buffer.alloc(options.tailBytes);
  let headLength = 0;
  let ringEnd = 0; // next write position in the ring
  let ringLength = 0;
  let total = 0;
  let nul = false;
  let replacements = 0;
  const markers = createMarkerLog(options.headBytes, options.tailBytes);

  const take = (chunk: Uint8Array) => {
    const ranges = markerRanges(chunk);
    if (ranges !== undefined)
      for (let k = 0; k < ranges.length; k += 2)
        markers.add(total + ranges[k]!, total + ranges[k + 1]!);
    total += chunk.byteLength;
    let rest = chunk;
    if (headLength < head.byteLength) {
      const n = Math.min(head.byteLength - headLength, rest.byteLength);
      head.set(rest.subarray(0, n), headLength);
      if (!nul && rest.subarray(0, n).indexOf(0) !== -1) nul = true;
      replacements += countReplacements(rest.subarray(0, n));
      headLength += n;
      rest = rest.subarray(n);
    }
    if (rest.byteLength === 0 || ring.byteLength === 0) return;
    if (rest.byteLength >= ring.byteLength) rest = rest.subarray(rest.byteLength - ring.byteLength);
    const first = Math.min(ring.byteLength - ringEnd, rest.byteLength);
    ring.set(rest.subarray(0, first), ringEnd);
    if (first < rest.byteLength) ring.set(rest.subarray(first), 0);
    ringEnd = (ringEnd + rest.byteLength) % ring.byteLength;
    ringLength = Math.min(ring.byteLength, ringLength + rest.byteLength);
  };

  return {
    name: PREVIEW_TAP,
    push(batch) {
      // Once the head is full, a piece followed in this batch by a whole ring's worth of
      // bytes would only be overwritten: count it, copy nothing (redacted text can arrive as
      // hundreds of small pieces per MiB).
      let after = 0;
      for (const chunk of batch) after += chunk.byteLength;
      for (const chunk of batch) {
        after -= chunk.byteLength;
        if (headLength === head.byteLength && after >= ring.byteLength) total += chunk.byteLength;
        else take(chunk);
      }
      return batch as Uint8Array[];
    },
    end: () => [],
    held: 0,
    window: 0,
    snapshot(): PreviewSnapshot {
      const headView = head.subarray(0, headLength);
      const tail = ringContents(ring, ringEnd, ringLength);
      const binary =
        options.binary === true || nul || replacements * 10 > Math.max(16, headLength / 3);
      if (options.binary) {
        const markersAt = markers.spans(headLength, total - ringLength, total);
        return { head: Buffer.from(headView), tail, total, binary, markers: markersAt };
      }
      // Never split a character at the head's end or the tail's start.
      const headEnd = total > headLength ? charBoundaryBefore(headView, headLength) : headLength;
      let tailStart = 0;
      while (tailStart < tail.byteLength && (tail[tailStart]! & 0xc0) === 0x80) tailStart++;
      const tailFrom = total - ringLength + tailStart;
      return {
        head: Buffer.from(headView.subarray(0, headEnd)),
        tail: tail.subarray(tailStart),
        total,
        binary,
        markers: markers.spans(headEnd, tailFrom, total),
      };
    },
  };
}

/** The `length` bytes that end at `end` in `ring`, oldest first (a copy). */
function ringContents(ring: Buffer, end: number, length: number): Buffer {
  if (length === 0) return Buffer.alloc(0);
  const start = (end - length + ring.byteLength) % ring.byteLength;
  return start + length <= ring.byteLength
    ? Buffer.from(ring.subarray(start, start + length))
    : Buffer.concat([ring.subarray(start), ring.subarray(0, end)]);
}

function charBoundaryBefore(buf: Uint8Array, end: number): number {
  let at = end;
  while (at > 0 && (buf[at - 1]! & 0xc0) === 0x80) at--;
  if (at === 0) return end;
  const lead = buf[at - 1]!;
  const width = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return at - 1 + width <= end ? end : at - 1;
}

function countReplacements(buf: Uint8Array): number {
  let n = 0;
  let at = buf.indexOf(0xef);
  while (at !== -1 && at + 2 < buf.byteLength) {
    if (buf[at + 1] === 0xbf && buf[at + 2] === 0xbd) n++;
    at = buf.indexOf(0xef, at + 1);
  }
  return n;
}

/**
 * Where the redactor's markers lie in the head and the ring, as absolute stream offsets;
 * ring entries that have scrolled out are dropped, so it holds at most one entry per
 * marker in view (a marker is at least 12 bytes).
 */
function createMarkerLog(headBytes: number, tailBytes: number) {
  const head: number[] = [];
  let ring: number[] = [];
  let first = 0;
  return {
    add(start: number, end: number) {
      if (start < headBytes) head.push(start, Math.min(end, headBytes));
      if (end <= headBytes || tailBytes === 0) return;
      ring.push(Math.max(start, headBytes), end);
      // Drop what scrolled out of the ring (end - tailBytes is the oldest byte kept).
      while (first < ring.length && ring[first + 1]! <= end - tailBytes) first += 2;
      if (first > 1024 && first * 2 > ring.length) {
        ring = ring.slice(first);
        first = 0;
      }
    },
    /** Spans relative to the snapshot's head (`[0, headEnd)`) and tail (from `tailFrom`). */
    spans(headEnd: number, tailFrom: number, total: number) {
      const clip = (list: readonly number[], from: number, lo: number, hi: number) => {
        const out: number[] = [];
        for (let i = from; i < list.length; i += 2) {
          const s = Math.max(list[i]!, lo);
          const e = Math.min(list[i + 1]!, hi);
          if (s < e) out.push(s - lo, e - lo);
        }
        return out;
      };
      return { head: clip(head, 0, 0, headEnd), tail: clip(ring, first, tailFrom, total) };
    },
  };
}
