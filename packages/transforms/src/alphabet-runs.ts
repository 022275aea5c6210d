/**
 * What the base64 and hex views share: the scan for runs of an alphabet in a chunk (a skip
 * search), and reading a run back when it began in an earlier chunk.
 *
 * @example
 * ```ts
 * import { findRun } from "./alphabet-runs.js";
 * const digits = new Uint8Array(256);
 * for (let b = 0x30; b <= 0x39; b++) digits[b] = 1;
 * findRun(Buffer.from("id 12345678 x"), 0, 13, digits, 8); // 3
 * ```
 */
import type { InputRing } from "./input-ring.js";

/** {@link findRun}'s contract: the redactor hands the views a WebAssembly one (`byte-scan.ts`). */
export type RunFinder = (
  chunk: Uint8Array,
  from: number,
  end: number,
  alphabet: Uint8Array,
  min: number,
) => number;

/** A view's run state, as {@link scanRuns} drives it. */
export interface RunView {
  /** A run is held from an earlier stretch. */
  readonly inRun: boolean;
  /** A run (maybe shorter than `min` so far: the chunk ended) starts at input offset `at`. */
  startRun(at: number): void;
  /**
   * Go on with the held run from `chunk[i]`; returns the index of the first byte after it
   * (no run held then) or `end` (still in the run).
   */
  continueRun(chunk: Uint8Array, base: number, i: number, end: number): number;
}

/**
 * Scan `chunk[from .. end)` (`chunk[0]` is input offset `base`) for runs of at least `min`
 * bytes of `alphabet`, handing each to `view` from its first byte; a run reaching `end`
 * is started too, however short, as the next stretch may go on with it. `find` searches.
 */
export function scanRuns(
  view: RunView,
  chunk: Uint8Array,
  base: number,
  from: number,
  end: number,
  alphabet: Uint8Array,
  min: number,
  find: RunFinder = findRun,
): void {
  let i = from;
  if (view.inRun) {
    i = view.continueRun(chunk, base, i, end);
    if (i >= end) return;
  }
  for (;;) {
    const found = find(chunk, i, end, alphabet, min);
    if (found < 0) {
      i = -1 - found;
      break;
    }
    view.startRun(base + found);
    i = view.continueRun(chunk, base, found + min, end);
    if (i >= end) return;
  }
  // Fewer than `min` bytes left: a run reaching the end may go on in the next chunk.
  const tail = tailRun(chunk, i, end, alphabet);
  if (tail >= 0) view.startRun(base + tail);
}

/**
 * The first index in `[from, end - min]` where `min` bytes of `alphabet` (1 per byte in it)
 * start, or `-1 - i` where `i` is where the search stopped (fewer than `min` bytes left
 * after it, none of them a run start found so far). The byte before `from` is outside the
 * alphabet, and stays so before every `i` tried: a run of `min` starting at `i` covers `i
 * .. i + min - 1`, and looking from the far end back, the first byte outside the alphabet
 * rules out every start up to it (a skip search: most looks stop within a word).
 */
export function findRun(
  chunk: Uint8Array,
  from: number,
  end: number,
  alphabet: Uint8Array,
  min: number,
): number {
  let i = from;
  const last = end - min;
  while (i <= last) {
    let r = i + min - 1;
    while (alphabet[chunk[r]!] === 1) {
      if (r === i) return i;
      r--;
    }
    i = r + 1;
  }
  return -1 - i;
}

/**
 * Where the run of `alphabet` that reaches `chunk[end - 1]` starts (not before `from`), or
 * -1 when that byte is outside it: a run the next chunk may go on with.
 */
function tailRun(chunk: Uint8Array, from: number, end: number, alphabet: Uint8Array): number {
  if (from >= end || alphabet[chunk[end - 1]!] !== 1) return -1;
  let s = end - 1;
  while (s > from && alphabet[chunk[s - 1]!] === 1) s--;
  return s;
}

/** A run's bytes `[start, start + length)`, from the held bytes and the chunk, into `out`. */
export function copyRun(
  input: InputRing,
  start: number,
  length: number,
  out: Uint8Array,
): Uint8Array {
  const { chunk, chunkBase } = input;
  const end = start + length;
  const held = input.copyBeforeChunk(start, Math.min(end, chunkBase));
  out.set(held, 0);
  for (let p = Math.max(start, chunkBase); p < end; p++) out[p - start] = chunk[p - chunkBase]!;
  return out;
}
