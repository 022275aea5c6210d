/**
 * Known values written in hex (`xxd -p`, Go's `%x`, a dump of a buffer, in either case) as
 * a view rather than as needles. Hex doubles a value's length and has two cases, so as
 * needles the hex forms were over half of the exact automaton's states for a large
 * `--redact-file`; here a run of hex digits is decoded at both alignments and the exact
 * automaton walks the decoded bytes: every literal it finds there (a known value in any of
 * its forms, a literal rule) redacts exactly the hex digits that encode it, under its own
 * rule's marker.
 *
 * A run is held like any candidate, so the redactor's promises hold:
 *
 * - **No prefix exposure.** From its first byte a run is held (part of the frontier) until
 *   it is decided.
 * - **Chunking invariance.** A run is decided on its own bytes: at its first byte outside
 *   the alphabet, at the end of input, or in segments of `cap` characters.
 * - **Bounded hold.** A run still going at `cap` characters (half the window) is decided on
 *   those, and the next segment starts `overlap` (half of `cap`) characters before where
 *   that one ended, so a value whose hex fits `overlap` is found wherever it lies in a run
 *   of any length. Longer values keep their hex forms as needles (see
 *   {@link hexViewFits}).
 * - **Linear time.** Outside runs the scan skips the shortest literal's hex at a time (a skip
 *   search); a run costs two walks of half its length, segments twice that.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * const value = "correct-horse-battery";
 * redactText(`dump ${Buffer.from(value).toString("hex")}!`, { knownValues: [value] }); // "dump [REDACTED:known-value]!"
 * ```
 */
import { type Automaton, FLAG_OUTPUT } from "./aho-corasick.js";
import { copyRun, type RunFinder, type RunView, scanRuns } from "./alphabet-runs.js";
import type { InputRing } from "./input-ring.js";
import { MIN_KNOWN_VALUE_BYTES } from "./known-values.js";
import { byteSet, HEX_VALUE } from "./rules/byte-classes.js";

/** Shortest run decoded: the hex of the shortest known value. */
export const MIN_HEX = 2 * MIN_KNOWN_VALUE_BYTES;

/** Shortest run each automaton's literals need (see {@link minRunOf}), once per automaton. */
const MIN_RUNS = new WeakMap<Automaton, number>();

/**
 * The shortest hex run that may encode a literal of `exact`: twice its shortest literal's
 * symbols (a decoded byte is at most one symbol), and never below {@link MIN_HEX}. Ten
 * known values of 32 bytes skip runs of 64 digits at a time instead of 16.
 */
function minRunOf(exact: Automaton): number {
  let run = MIN_RUNS.get(exact);
  if (run === undefined) {
    // Breadth-first numbering: the first state with an output is at the shortest literal's depth.
    let state = 1;
    while (state < exact.states && (exact.flags[state]! & FLAG_OUTPUT) === 0) state++;
    const shortest = state < exact.states ? exact.depthOf(state) : MIN_KNOWN_VALUE_BYTES;
    run = 2 * Math.max(MIN_KNOWN_VALUE_BYTES, shortest);
    MIN_RUNS.set(exact, run);
  }
  return run;
}

/** 1 for a hex digit. */
const HEX_DIGIT = byteSet("0-9A-Fa-f");

/** Characters a run of the view may hold at once (half the window). */
function capOf(window: number): number {
  return window >> 1;
}

/**
 * True when a value of `bytes` bytes is found by the hex view under `window`: its hex fits
 * a segment's overlap. Longer values keep hex needles in the automaton.
 */
export function hexViewFits(bytes: number, window: number): boolean {
  return 2 * bytes <= capOf(window) >> 1;
}

/** The hex part of one redactor: run state across chunks, and its claim on the frontier. */
export class HexRuns implements RunView {
  private holding = false;
  /** Input offset of the first character of the segment being held. */
  private runStart = 0;
  private readonly cap: number;
  private readonly overlap: number;
  /** Shortest run decoded (see {@link minRunOf}). */
  private readonly minRun: number;
  /** Decoded bytes of one alignment, and where each of their symbols starts (allocated on first use). */
  private decoded: Uint8Array | null = null;
  private symbolStart: Int32Array | null = null;
  /** A segment's characters when it began in an earlier chunk. */
  private chars: Uint8Array | null = null;

  constructor(
    private readonly input: InputRing,
    window: number,
    private readonly exact: Automaton,
    private readonly addSpan: (start: number, end: number, rule: number) => void,
  ) {
    this.cap = capOf(window);
    this.overlap = this.cap >> 1;
    this.minRun = Math.min(minRunOf(exact), this.overlap);
  }

  /** The earliest byte a run may still claim, or `limit` when none is earlier (invariant 2). */
  frontier(limit: number): number {
    return this.holding ? Math.min(limit, this.runStart) : limit;
  }

  /** Scan `chunk[from .. end)` (`chunk[0]` is input offset `base`), runs found by `find`. */
  scan(chunk: Uint8Array, base: number, from: number, end: number, find?: RunFinder): void {
    scanRuns(this, chunk, base, from, end, HEX_DIGIT, this.minRun, find);
  }

  get inRun(): boolean {
    return this.holding;
  }

  startRun(at: number): void {
    this.holding = true;
    this.runStart = at;
  }

  /** End of input at `pos`: decide the run still held. */
  endOfInput(pos: number): void {
    if (this.holding && pos - this.runStart >= this.minRun)
      this.decide(this.runStart, pos - this.runStart);
    this.holding = false;
  }

  /** Fail closed dropped everything held: start again outside any run. */
  clear(): void {
    this.holding = false;
  }

  /**
   * Go on with the held run from `chunk[i]`; returns the index of the first byte after it
   * (no longer holding) or `end` (still in the run).
   */
  continueRun(chunk: Uint8Array, base: number, from: number, end: number): number {
    let i = from;
    for (;;) {
      const capAt = this.runStart + this.cap - base;
      const limit = Math.min(end, capAt);
      while (i < limit && HEX_DIGIT[chunk[i]!] === 1) i++;
      if (i < capAt) {
        if (i === end) return end;
        // The run ended at chunk[i]: decide it on all of its characters.
        const length = base + i - this.runStart;
        this.holding = false;
        if (length >= this.minRun) this.decide(this.runStart, length);
        return i;
      }
      // Invariant 3: a segment is decided at `cap` characters, and the next one begins
      // `overlap` characters back, however long the run goes on.
      this.decide(this.runStart, this.cap);
      this.runStart += this.cap - this.overlap;
    }
  }

  private heldChars(): Uint8Array {
    this.chars ??= new Uint8Array(this.cap);
    return this.chars;
  }

  /** Redact every literal encoded in the `length` hex characters from input offset `start`. */
  private decide(start: number, length: number): void {
    const { chunk, chunkBase } = this.input;
    // Mostly the run lies in the chunk: read it there; else copy it out of the held bytes.
    const inChunk = start >= chunkBase;
    const chars = inChunk ? chunk : copyRun(this.input, start, length, this.heldChars());
    const from = inChunk ? start - chunkBase : 0;
    for (let align = 0; align < 2; align++) {
      const n = (length - align) >> 1;
      if (n < MIN_KNOWN_VALUE_BYTES) continue;
      this.decoded ??= new Uint8Array(this.cap >> 1);
      this.symbolStart ??= new Int32Array(this.cap >> 1);
      const decoded = this.decoded;
      for (let k = 0, p = from + align; k < n; k++, p += 2)
        decoded[k] = (HEX_VALUE[chars[p]!]! << 4) | HEX_VALUE[chars[p + 1]!]!;
      const at = start + align;
      findLiterals(this.exact, decoded, n, this.symbolStart, (s, e, rule) =>
        this.addSpan(at + 2 * s, at + 2 * e, rule),
      );
    }
  }
}

/**
 * Walk `a` over `bytes[0 .. n)` from its root and report every literal needle that ends
 * there: its bytes `[start, end)` and rule. A whitespace run is one symbol, as in the
 * redactor's scan: `symbolStart[k]` is where the k-th symbol began.
 */
function findLiterals(
  a: Automaton,
  bytes: Uint8Array,
  n: number,
  symbolStart: Int32Array,
  report: (start: number, end: number, rule: number) => void,
): void {
  const { classOf, wsClass, flags, outState } = a;
  let state = 0;
  let symbol = -1;
  let previousWs = false;
  for (let k = 0; k < n; k++) {
    const cls = classOf[bytes[k]!]!;
    const ws = cls === wsClass;
    if (!(ws && previousWs)) symbolStart[++symbol] = k;
    previousWs = ws;
    state = a.step(state, cls);
    if ((flags[state]! & FLAG_OUTPUT) !== 0) {
      const own = outState[state]!;
      report(symbolStart[symbol - a.depthOf(own) + 1]!, k + 1, a.literalOf(own));
    }
  }
}
