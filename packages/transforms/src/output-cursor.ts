/**
 * The redactor's output side: the cursor before which every input byte has been handed on
 * (raw, or as a marker) or swallowed, and the open span, a redaction whose marker is out
 * and which keeps swallowing input from the cursor while it grows. Nothing before the
 * cursor is ever revisited, so nothing emitted is retracted (invariant 2).
 */
import { MAX_STAGE_COUNTERS } from "@spool/core/runtime";
import type { InputRing } from "./input-ring.js";
import { markedPiece, markerPiece } from "./redaction-markers.js";

/**
 * One piece of the redactor's output and the input range it stands for (for tests and
 * tracing); see the redactor's `trace` option.
 *
 * @category redaction
 * @example
 * ```ts
 * import { createRedactor, type TraceSegment } from "@spool/transforms";
 * const segments: TraceSegment[] = [];
 * const redactor = createRedactor({}, { trace: (segment) => segments.push(segment) });
 * ```
 */
export interface TraceSegment {
  /** Input passed through (`raw`), replaced by a `[REDACTED:…]` marker, or dropped with an `[OMITTED:…]` marker. */
  readonly kind: "raw" | "redacted" | "omitted";
  /** Input offsets `[start, end)`. */
  readonly start: number;
  /** One past the segment's last input offset. */
  readonly end: number;
  /** Rule name of a redaction. */
  readonly rule?: string;
}

/** `segFrom` of a piece of the cursor's own: bytes held from earlier chunks, or a marker. */
const OWN_BYTES = -1;
const OWN_MARKER = -2;

export class OutputCursor {
  /** Input offset before which everything is emitted or swallowed. */
  at = 0;
  /** A span's marker is out: input from `at` on that the span covers is swallowed. */
  open = false;
  /**
   * What this push hands on. Per chunk: the bytes between markers as a piece each (a view
   * of the chunk where it is one range of it) and each marker as itself; or, for a chunk
   * with many markers, one piece with the markers registered as ranges of it (per-piece
   * work downstream, in the tap, the ledger and the writer queue, once per chunk instead
   * of twice per redaction).
   */
  pieces: Uint8Array[] = [];
  readonly counters = { redactions: 0, omissions: 0, redactedBytes: 0, markerBytes: 0 };
  /** Redactions by rule index (sparse: only rules that redacted have an entry). */
  private readonly byRule: number[] = [];
  private openStart = 0;
  private openRule = 0;
  // What the current chunk hands on, in order, before it is copied into one piece: raw
  // ranges of the chunk as indices (`segFrom[k] .. segTo[k]`), or a piece of its own where
  // `segFrom[k]` is OWN_BYTES (bytes held from earlier chunks) or OWN_MARKER (a marker),
  // `segTo[k]` then indexing `own`. Numbers, not views: a view per range cost more than the
  // bytes it stood for.
  private readonly segFrom: number[] = [];
  private readonly segTo: number[] = [];
  private readonly own: Uint8Array[] = [];
  private markerCount = 0;

  constructor(
    private readonly input: InputRing,
    /** `[REDACTED:<rule>]` by rule index, each a registered marker piece (made at first use, shared). */
    private readonly markers: Buffer[],
    private readonly ruleNames: readonly string[],
    private readonly trace: ((segment: TraceSegment) => void) | undefined,
  ) {}

  /**
   * Redactions per rule name, the rules that redacted only: the most frequent first, at
   * most {@link MAX_STAGE_COUNTERS}, the rest summed under `other-rules`.
   */
  redactionsByRule(): Record<string, number> {
    const hits: Array<[string, number]> = [];
    this.byRule.forEach((n, rule) => {
      if (n > 0) hits.push([this.ruleNames[rule]!, n]);
    });
    hits.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const counts: Record<string, number> = {};
    const kept = hits.length > MAX_STAGE_COUNTERS ? MAX_STAGE_COUNTERS - 1 : hits.length;
    for (const [name, n] of hits.slice(0, kept)) counts[name] = (counts[name] ?? 0) + n;
    const rest = hits.slice(kept).reduce((sum, [, n]) => sum + n, 0);
    if (rest > 0) counts["other-rules"] = rest;
    return counts;
  }

  beginPush(): void {
    this.pieces = [];
  }

  /**
   * The chunk being read is done: what it handed on goes out (see `pieces`). Call before
   * the chunk changes: the ranges are indices into it. The same buffer object may come
   * again at another offset (the decoder emits one shared U+FFFD for every invalid byte),
   * so nothing is merged across chunks.
   */
  endChunk(): void {
    const n = this.segFrom.length;
    if (n === 0) return;
    const { chunk } = this.input;
    if (this.markerCount > FEW_MARKERS) this.pieces.push(this.gather(chunk, 0, n));
    else {
      // Few markers: no fresh copy of the whole chunk (sparse secrets cost nothing extra).
      // Bytes held from earlier chunks are a fresh copy already: they go on as themselves
      // too (merged, they made a copy of every chunk that began inside a held run).
      let run = 0;
      for (let k = 0; k <= n; k++) {
        if (k < n && this.segFrom[k]! >= 0) continue;
        if (k > run) this.pieces.push(this.gather(chunk, run, k));
        if (k < n) this.pieces.push(this.own[this.segTo[k]!]!);
        run = k + 1;
      }
    }
    this.segFrom.length = 0;
    this.segTo.length = 0;
    this.own.length = 0;
    this.markerCount = 0;
  }

  /** Hand on input `[at, to)` as it is. */
  rawTo(to: number): void {
    const from = this.at;
    if (to <= from) return;
    this.at = to;
    const { chunkBase } = this.input;
    if (from < chunkBase) this.addOwn(this.input.copyBeforeChunk(from, Math.min(to, chunkBase)));
    if (to > chunkBase) {
      const start = Math.max(from, chunkBase) - chunkBase;
      const end = to - chunkBase;
      const last = this.segTo.length - 1;
      // Consecutive raw ranges (window checks split them) go out as one.
      if (last >= 0 && this.segTo[last] === start && this.segFrom[last]! >= 0)
        this.segTo[last] = end;
      else {
        this.segFrom.push(start);
        this.segTo.push(end);
      }
    }
    this.trace?.({ kind: "raw", start: from, end: to });
  }

  /** Emit the marker of `[start, end)` (the cursor is at `start`) and swallow from there. */
  openSpan(start: number, end: number, rule: number): void {
    // The marker is gathered with the ranges around it and registered as a marker range of
    // the chunk's piece: the preview tap tells the redactor's markers from the child's bytes
    // by those ranges (see redaction-markers.ts).
    let marker = this.markers[rule];
    if (marker === undefined) {
      marker = markerPiece(Buffer.from(`[REDACTED:${this.ruleNames[rule]!}]`, "latin1"));
      this.markers[rule] = marker;
    }
    this.addOwn(marker, OWN_MARKER);
    this.counters.redactions++;
    this.counters.markerBytes += marker.byteLength;
    this.byRule[rule] = (this.byRule[rule] ?? 0) + 1;
    this.open = true;
    this.openStart = start;
    this.openRule = rule;
    this.at = end;
  }

  /** The open span's first byte (the last one opened, once closed). */
  get spanStart(): number {
    return this.openStart;
  }

  /** The open span's rule (the last one opened, once closed). */
  get spanRule(): number {
    return this.openRule;
  }

  closeOpen(): void {
    this.open = false;
    this.counters.redactedBytes += this.at - this.openStart;
    this.trace?.({
      kind: "redacted",
      start: this.openStart,
      end: this.at,
      rule: this.ruleNames[this.openRule]!,
    });
  }

  /** Emit `[OMITTED:<count> bytes undecidable]` for input `[start, end)`; the cursor moves to `end`. */
  omission(count: number, start: number, end: number): void {
    const marker = markerPiece(Buffer.from(`[OMITTED:${count} bytes undecidable]`, "latin1"));
    this.addOwn(marker, OWN_MARKER);
    this.trace?.({ kind: "omitted", start, end });
    this.counters.omissions++;
    this.counters.redactedBytes += count;
    this.counters.markerBytes += marker.byteLength;
    this.at = end;
  }

  /** A piece handed on whole (copied into the chunk's piece). */
  private addOwn(piece: Uint8Array, kind: typeof OWN_BYTES | typeof OWN_MARKER = OWN_BYTES): void {
    if (kind === OWN_MARKER) this.markerCount++;
    this.segFrom.push(kind);
    this.segTo.push(this.own.length);
    this.own.push(piece);
  }

  /**
   * Segments `[k0, k1)` as one piece: a lone range of the chunk as a view of it, anything
   * else copied, in order, into one fresh buffer (its own memory, not the shared pool: a
   * consumer may keep or merge it), every byte of which is written, with the markers in it
   * registered as its ranges.
   */
  private gather(chunk: Uint8Array, k0: number, k1: number): Uint8Array {
    if (k1 === k0 + 1 && this.segFrom[k0]! >= 0)
      return chunk.subarray(this.segFrom[k0]!, this.segTo[k0]!);
    let bytes = 0;
    let low = -1;
    let high = 0;
    let ahead = 0;
    let ranges = 0;
    for (let k = k0; k < k1; k++) {
      const from = this.segFrom[k]!;
      const to = this.segTo[k]!;
      if (from < 0) bytes += this.own[to]!.byteLength;
      else {
        if (low < 0) low = from;
        ahead = Math.max(ahead, bytes - (from - low));
        bytes += to - from;
        high = to;
        ranges++;
      }
    }
    const span = low < 0 ? 0 : high - low;
    if (span >= ranges * LONG_RANGE) return this.gatherViews(chunk, k0, k1, bytes);
    // Short ranges: the chunk's bytes from its first range to its last are copied into the
    // piece once, at `ahead`, and each range moved down to its place there (a view per range
    // cost more than its bytes): `ahead` is the most the output runs ahead of its bytes in
    // the chunk, so no write reaches a byte not moved yet.
    const piece = Buffer.allocUnsafeSlow(Math.max(bytes, ahead + span));
    if (span > 0)
      piece.set(low === 0 && high === chunk.length ? chunk : chunk.subarray(low, high), ahead);
    const shift = ahead - low;
    const markers: number[] = [];
    let at = 0;
    for (let k = k0; k < k1; k++) {
      const from = this.segFrom[k]!;
      const to = this.segTo[k]!;
      if (from < 0) {
        const own = this.own[to]!;
        if (from === OWN_MARKER) markers.push(at, at + own.byteLength);
        piece.set(own, at);
        at += own.byteLength;
      } else {
        piece.copyWithin(at, from + shift, to + shift);
        at += to - from;
      }
    }
    // What the redactions saved is left over at the end, still holding the chunk's bytes
    // (the redacted ones among them): zeroed and kept when it is little, so a piece's length
    // stays close to the memory it holds and no byte of its memory holds a secret.
    let out = piece.subarray(0, bytes);
    if (piece.byteLength - bytes > piece.byteLength >> 3) {
      out = Buffer.allocUnsafeSlow(bytes);
      out.set(piece.subarray(0, bytes));
    } else piece.fill(0, bytes);
    return markers.length === 0 ? out : markedPiece(out, markers);
  }

  /** {@link gather} where the chunk's ranges are long: each copied once, through a view. */
  private gatherViews(chunk: Uint8Array, k0: number, k1: number, bytes: number): Uint8Array {
    const piece = Buffer.allocUnsafeSlow(bytes);
    const markers: number[] = [];
    let at = 0;
    for (let k = k0; k < k1; k++) {
      const from = this.segFrom[k]!;
      const to = this.segTo[k]!;
      const part = from < 0 ? this.own[to]! : chunk.subarray(from, to);
      if (from === OWN_MARKER) markers.push(at, at + part.byteLength);
      piece.set(part, at);
      at += part.byteLength;
    }
    return markers.length === 0 ? piece : markedPiece(piece, markers);
  }
}

/**
 * Markers in one chunk past which its output goes as one piece: a piece costs ~0.4 µs
 * downstream, a fresh copy of a 64 KiB chunk some microseconds and garbage.
 */
const FEW_MARKERS = 16;
/**
 * Mean bytes of a chunk's ranges from which a gathered piece copies each through a view of
 * its own (one pass over the bytes) rather than moving them inside the piece (two).
 */
const LONG_RANGE = 2048;
