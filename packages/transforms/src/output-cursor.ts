/**
 * The redactor's output side: the cursor before which every input byte has been handed on
 * (raw, or as a marker) or swallowed, and the open span, a redaction whose marker is out
 * and which keeps swallowing input from the cursor while it grows. Nothing before the
 * cursor is ever revisited, so nothing emitted is retracted (invariant 2).
 */
import type { InputRing } from "./input-ring.js";
import { markerPiece } from "./redaction-markers.js";
import type { TraceSegment } from "./redactor.js";

const EMPTY = new Uint8Array(0);

export class OutputCursor {
  /** Input offset before which everything is emitted or swallowed. */
  at = 0;
  /** A span's marker is out: input from `at` on that the span covers is swallowed. */
  open = false;
  /** What this push hands on. */
  pieces: Uint8Array[] = [];
  readonly counters = { redactions: 0, omissions: 0 };
  private openStart = 0;
  private openRule = 0;
  // The last raw view of the chunk pushed, to extend it rather than push a neighbour.
  private lastRaw: Uint8Array = EMPTY;
  private lastRawStart = 0;
  private lastRawEnd = -1;

  constructor(
    private readonly input: InputRing,
    /** `[REDACTED:<rule>]` by rule index. */
    private readonly markers: readonly Buffer[],
    private readonly ruleNames: readonly string[],
    private readonly trace: ((segment: TraceSegment) => void) | undefined,
  ) {}

  beginPush(): void {
    this.pieces = [];
  }

  /**
   * Views merge only within one chunk: the same buffer object may come again at another
   * offset (the decoder emits one shared U+FFFD for every invalid byte).
   */
  beginChunk(): void {
    this.lastRawEnd = -1;
  }

  /** Hand on input `[at, to)` as it is. */
  rawTo(to: number): void {
    const from = this.at;
    if (to <= from) return;
    this.at = to;
    const { chunk, chunkBase } = this.input;
    if (from < chunkBase)
      this.pieces.push(this.input.copyBeforeChunk(from, Math.min(to, chunkBase)));
    if (to > chunkBase) {
      const start = Math.max(from, chunkBase);
      // Consecutive raw ranges of one chunk go out as one view (window checks split them).
      if (start === this.lastRawEnd && this.pieces[this.pieces.length - 1] === this.lastRaw) {
        this.lastRaw = chunk.subarray(this.lastRawStart - chunkBase, to - chunkBase);
        this.pieces[this.pieces.length - 1] = this.lastRaw;
      } else {
        this.lastRawStart = start;
        this.lastRaw = chunk.subarray(start - chunkBase, to - chunkBase);
        this.pieces.push(this.lastRaw);
      }
      this.lastRawEnd = to;
    }
    this.trace?.({ kind: "raw", start: from, end: to });
  }

  /** Emit the marker of `[start, end)` (the cursor is at `start`) and swallow from there. */
  openSpan(start: number, end: number, rule: number): void {
    // A distinct piece per marker: consumers may keep, merge or transfer what they get.
    this.pieces.push(markerPiece(this.markers[rule]!.slice()));
    this.counters.redactions++;
    this.open = true;
    this.openStart = start;
    this.openRule = rule;
    this.at = end;
  }

  closeOpen(): void {
    this.open = false;
    this.trace?.({
      kind: "redacted",
      start: this.openStart,
      end: this.at,
      rule: this.ruleNames[this.openRule]!,
    });
  }

  /** Emit `[OMITTED:<count> bytes undecidable]` for input `[start, end)`; the cursor moves to `end`. */
  omission(count: number, start: number, end: number): void {
    this.pieces.push(markerPiece(Buffer.from(`[OMITTED:${count} bytes undecidable]`, "latin1")));
    this.trace?.({ kind: "omitted", start, end });
    this.counters.omissions++;
    this.at = end;
  }
}
