/**
 * The redactor's two scans over every byte of ordinary text: the start filter's
 * (`start-filter.ts` says what it tests), to the first byte where a needle may start or end,
 * and the search for runs of an alphabet that the base64 and hex views decode
 * (`alphabet-runs.ts`). Where the automata seldom run they are the redactor's cost, so they
 * run as WebAssembly where the runtime has it (the same tests without bounds checks or
 * deoptimisation, the filter's looks four bytes a step), and as JavaScript otherwise
 * (`node --jitless`, two bytes a step). Both give the same answers; property tests hold
 * them to it.
 *
 * The WebAssembly module is written here (`wasm-encoding.ts`) and instantiated once per
 * filter with the filter's tables and the alphabets in its memory; the scans read the chunk
 * from a window of that memory, loaded 64 KiB at a time. Redactors sharing a filter (stdout,
 * stderr, the base64 view's nested scan) each tag their chunk with a fresh serial, so a
 * window another one loaded is never read as theirs.
 *
 * @example
 * ```ts
 * import { buildStartFilter } from "./start-filter.js";
 * import { byteScanOf, nextChunkSerial } from "./byte-scan.js";
 * const scan = byteScanOf(buildStartFilter([{ bytes: Buffer.from("token"), literal: -1, anchor: 0 }], []));
 * const chunk = Buffer.from("a line with a token in it");
 * scan.scan(chunk, nextChunkSerial(), 0, chunk.length, 0, new Int32Array(1)); // 17: "toke" ends there
 * ```
 */

import { findRun } from "./alphabet-runs.js";
import {
  END2,
  END2_BOUNDARY,
  HASH_MULTIPLIER,
  HASH_SHIFT,
  LEAD_OK,
  QUAD,
  quadHash,
  SAMPLE_MASK,
  type StartFilter,
  TRIPLE,
} from "./start-filter.js";
import { op, wasmModule } from "./wasm-encoding.js";

/** Scans a chunk with one filter's tables (see {@link byteScanOf}). */
export interface ByteScan {
  /**
   * The first index in `input[from .. limit)` where the filter stops (`limit` if none),
   * `key` holding the three bytes before `from`; writes to `result[0]` the last four bytes
   * read (the byte at that index lowest, when it stopped there). `serial` names this
   * chunk's bytes ({@link nextChunkSerial}, one per chunk scanned).
   */
  scan(
    input: Uint8Array,
    serial: number,
    from: number,
    limit: number,
    key: number,
    result: Int32Array,
  ): number;
  /** `findRun` (`alphabet-runs.ts`) over `input`, named by `serial` as for {@link scan}. */
  findRun(
    input: Uint8Array,
    serial: number,
    from: number,
    end: number,
    alphabet: Uint8Array,
    min: number,
  ): number;
}

let serials = 0;

/** A serial for the next chunk a redactor scans: its bytes, as the scan's window holds them. */
export function nextChunkSerial(): number {
  serials = (serials + 1) | 0;
  return serials;
}

const SCANS = new WeakMap<StartFilter, ByteScan>();

/**
 * The scans for `filter`: WebAssembly unless `wasm` is false or the runtime has none, made
 * once per filter.
 */
export function byteScanOf(filter: StartFilter, wasm = true): ByteScan {
  if (!wasm) return new JsScan(filter);
  let scan = SCANS.get(filter);
  if (scan === undefined) {
    scan = WasmScan.create(filter) ?? new JsScan(filter);
    SCANS.set(filter, scan);
  }
  return scan;
}

class JsScan implements ByteScan {
  constructor(private readonly filter: StartFilter) {}

  findRun(
    input: Uint8Array,
    _serial: number,
    from: number,
    end: number,
    alphabet: Uint8Array,
    min: number,
  ): number {
    return findRun(input, from, end, alphabet, min);
  }

  scan(
    input: Uint8Array,
    _serial: number,
    from: number,
    limit: number,
    key: number,
    result: Int32Array,
  ): number {
    return scanJs(input, from, limit, key, this.filter, result);
  }
}

/**
 * Two bytes a step while the looks at every other byte are clear: a byte is passed only
 * when the looks on both sides of it are, and the byte a look ends at only when that look
 * is; a look that is not clear sends the scan a byte at a time through the exact test
 * until the look before the next byte is clear again.
 */
function scanJs(
  input: Uint8Array,
  from: number,
  limit: number,
  key: number,
  filter: StartFilter,
  result: Int32Array,
): number {
  const { samples, pairs, quads, triples } = filter;
  let k = key;
  let i = from;
  while (i < limit) {
    // A shift count is taken modulo 32: `>> v` picks bit `v & 31` of the word.
    let v = k & SAMPLE_MASK;
    if (((samples[v >> 5]! >> v) & 1) === 0) {
      // The look ending before `i` is clear: look at the bytes ending at `i + 1`.
      while (i + 1 < limit) {
        const t = (k << 16) | (input[i]! << 8) | input[i + 1]!;
        v = t & SAMPLE_MASK;
        if (((samples[v >> 5]! >> v) & 1) !== 0) break;
        k = t;
        i += 2;
      }
      if (i >= limit) break;
    }
    k = (k << 8) | input[i]!;
    v = k & SAMPLE_MASK;
    if (((samples[v >> 5]! >> v) & 1) !== 0) {
      const p = pairs[k & 0xffff]!;
      if ((p & END2) !== 0) break;
      if ((p & END2_BOUNDARY) !== 0 && (pairs[(k >>> 16) & 0xffff]! & LEAD_OK) !== 0) break;
      if ((p & QUAD) !== 0) {
        const h = quadHash(k);
        if (((quads[h >> 5]! >> h) & 1) !== 0) break;
      }
      if ((p & TRIPLE) !== 0) {
        const h = quadHash(k & 0xffffff);
        if (((triples[h >> 5]! >> h) & 1) !== 0) break;
      }
    }
    i++;
  }
  // The caller keeps the bytes before `i` (a conditional here, rarely taken in text where
  // the filter seldom stops, made V8 drop the loop's optimised code again and again).
  result[0] = k;
  return i;
}

// The WebAssembly memory: the last four bytes read at 0, the filter's tables, `samples`
// again indexed by the bytes as a little-endian load reads them (`SAMPLES_LE`), the
// alphabets of runs (256 bytes each, 1 for a member), the byte before the window (`from`
// 0 looks back at it), the window, and room for a four-byte load at its last byte.
const SAMPLES = 64;
const SAMPLE_BYTES = (SAMPLE_MASK + 1) >> 3;
const SAMPLES_LE = SAMPLES + SAMPLE_BYTES;
const PAIRS = SAMPLES_LE + SAMPLE_BYTES;
const QUADS = PAIRS + (1 << 16);
const TRIPLES = QUADS + (1 << 15);
const ALPHABETS = TRIPLES + (1 << 15);
const MAX_ALPHABETS = 4;
const WINDOW_AT = ALPHABETS + 256 * MAX_ALPHABETS + 4;
/** Chunk bytes the memory holds at once. */
const WINDOW = 1 << 16;
const PAGES = Math.ceil((WINDOW_AT + WINDOW + 4) / (1 << 16));
/**
 * The bits of a little-endian word that index `SAMPLES_LE`: its first three bytes, the
 * latest (highest) by its low 7 bits.
 */
const SAMPLE_MASK_LE = 0x7fffff;

/** The module, compiled once per process (each filter instantiates it with its own memory). */
let compiledModule: object | undefined;

/** What the scan needs of the runtime's `WebAssembly` (the project's types leave it out). */
interface WasmRuntime {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object) => { readonly exports: Record<string, unknown> };
}

/** The module's functions (window offsets; see `SCAN_MODULE`). */
interface WasmExports {
  scan(from: number, limit: number, key: number): number;
  findRun(from: number, end: number, min: number, alphabet: number): number;
}

class WasmScan implements ByteScan {
  private serial = 0;
  private loadedFrom = 0;
  private loadedTo = 0;
  /** The alphabets copied into memory so far, by their address there. */
  private readonly alphabets = new Map<Uint8Array, number>();

  private constructor(
    private readonly memory: Uint8Array,
    private readonly last: Int32Array,
    private readonly run: WasmExports,
  ) {}

  /** The scan with `filter`'s tables in its memory, or null where WebAssembly is missing. */
  static create(filter: StartFilter): WasmScan | null {
    const runtime = (globalThis as { WebAssembly?: WasmRuntime }).WebAssembly;
    if (runtime === undefined || filter.quads.byteLength !== 1 << 15) return null;
    let exports: Record<string, unknown>;
    try {
      compiledModule ??= new runtime.Module(SCAN_MODULE());
      exports = new runtime.Instance(compiledModule).exports;
    } catch {
      return null; // e.g. `node --jitless`
    }
    const { buffer } = exports.memory as { readonly buffer: ArrayBuffer };
    const memory = new Uint8Array(buffer);
    const bytesOf = (a: Int32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    memory.set(bytesOf(filter.samples), SAMPLES);
    setLittleEndianSamples(filter.samples, memory, SAMPLES_LE);
    memory.set(filter.pairs, PAIRS);
    memory.set(bytesOf(filter.quads), QUADS);
    memory.set(bytesOf(filter.triples), TRIPLES);
    return new WasmScan(memory, new Int32Array(buffer, 0, 1), exports as unknown as WasmExports);
  }

  scan(
    input: Uint8Array,
    serial: number,
    from: number,
    limit: number,
    key: number,
    result: Int32Array,
  ): number {
    let i = from;
    let k = key;
    while (i < limit) {
      this.load(input, serial, i);
      const base = this.loadedFrom;
      const end = Math.min(limit, this.loadedTo);
      i = this.run.scan(i - base, end - base, k) + base;
      k = this.last[0]!;
      if (i < end) break;
    }
    result[0] = k;
    return i;
  }

  findRun(
    input: Uint8Array,
    serial: number,
    from: number,
    end: number,
    alphabet: Uint8Array,
    min: number,
  ): number {
    const at = this.alphabetAt(alphabet);
    if (at < 0 || end <= from) return findRun(input, from, end, alphabet, min);
    this.load(input, serial, from);
    // A range past the window (chunks over 64 KiB) is searched in JavaScript.
    if (end > this.loadedTo) return findRun(input, from, end, alphabet, min);
    const base = this.loadedFrom;
    const found = this.run.findRun(from - base, end - base, min, at);
    return found >= 0 ? found + base : found - base;
  }

  /** Have `input[at]` in the window: the whole chunk when it fits, else from `at` on. */
  private load(input: Uint8Array, serial: number, at: number): void {
    if (serial === this.serial && at >= this.loadedFrom && at < this.loadedTo) return;
    const from = input.length <= WINDOW ? 0 : at;
    const to = Math.min(input.length, from + WINDOW);
    this.memory.set(input.subarray(from, to), WINDOW_AT);
    this.serial = serial;
    this.loadedFrom = from;
    this.loadedTo = to;
  }

  /** `alphabet`'s address in memory (copied there on first use), or -1 when there is no room. */
  private alphabetAt(alphabet: Uint8Array): number {
    let at = this.alphabets.get(alphabet);
    if (at === undefined) {
      if (this.alphabets.size >= MAX_ALPHABETS) return -1;
      at = ALPHABETS + 256 * this.alphabets.size;
      this.memory.set(alphabet.subarray(0, 256), at);
      this.alphabets.set(alphabet, at);
    }
    return at;
  }
}

/**
 * `samples` as the four-bytes step reads it: the bit of three bytes `a b c` (the earliest
 * first) at `a | b << 8 | (c & 0x7f) << 16`, set wherever `samples` has the bit of `a b c`
 * with either top bit of `a` (which it shares) and of `c` (shared here): a clear bit
 * here is clear there, so the step stops no less often than `samples` would.
 */
function setLittleEndianSamples(samples: Int32Array, memory: Uint8Array, at: number): void {
  for (let w = 0; w < samples.length; w++) {
    let word = samples[w]! >>> 0;
    while (word !== 0) {
      const low = word & -word;
      const v = w * 32 + (31 - Math.clz32(low));
      word = (word ^ low) >>> 0;
      // Both top bits of the earliest byte: `le` and `le | 0x80`, one byte apart in memory.
      const le = ((v >> 16) & 0x7f) | (v & 0xff00) | ((v & 0x7f) << 16);
      const bit = 1 << (le & 7);
      memory[at + (le >> 3)]! |= bit;
      memory[at + ((le | 0x80) >> 3)]! |= bit;
    }
  }
}

/**
 * `scan(from, limit, key) -> index`, `scanJs` over the window (indices are the window's),
 * the last four bytes read stored at address 0. Its four-bytes step reads the looks ending
 * at `i + 1` and `i + 3` as two little-endian loads at `i - 1` and `i + 1` (`SAMPLES_LE`),
 * and rebuilds the last bytes read from the window once it leaves the step.
 */
const SCAN_MODULE = (): Uint8Array => {
  const { from, limit, key, i, k, v, t, x } = SCAN_LOCALS;
  const { get, set, brIf, br } = op;
  const c = op.const;
  const sample = (value: number) => bit(SAMPLES, value);
  // The look ending at `i + end`, from the little-endian word at `i + end - 2`.
  // biome-ignore format: the load, then its bit
  const lookLE = (end: number) => [
    ...get(i), ...op.loadBytes(WINDOW_AT + end - 2), ...c(SAMPLE_MASK_LE), ...op.and, ...set(v),
    ...bit(SAMPLES_LE, v),
  ];
  const byteAt = (offset: number) => [...get(i), ...op.load8(WINDOW_AT + offset)];
  const advance = (n: number) => [...get(i), ...c(n), ...op.add, ...set(i)];
  // biome-ignore format: one step of the loop a line, nested as the blocks nest
  const code = [
    ...get(key), ...set(k), ...get(from), ...set(i),
    // The byte before the window, for the look back from `from` 0 (`key` has it).
    ...get(from), ...op.eqz, ...op.if, ...c(0), ...get(k), ...op.store8(WINDOW_AT - 1), ...op.end,
    ...op.block, ...op.loop, // $done, $outer
      ...get(i), ...get(limit), ...op.geU, ...brIf(1),
      ...get(k), ...c(SAMPLE_MASK), ...op.and, ...set(v),
      ...sample(v), ...op.eqz, ...op.if,
        ...get(i), ...set(x),
        ...op.block, ...op.loop, // four bytes a step
          ...get(i), ...c(3), ...op.add, ...get(limit), ...op.geU, ...brIf(1),
          ...lookLE(1), ...brIf(1),
          ...lookLE(3), ...op.if, ...advance(2), ...br(2), ...op.end,
          ...advance(4), ...br(0),
        ...op.end, ...op.end,
        // It moved: the last four bytes read are the window's before `i` (two of them, after
        // one half step, the key's before `x`).
        ...get(i), ...get(x), ...op.sub, ...set(t),
        ...get(t), ...c(2), ...op.eq, ...op.if,
          ...get(k), ...c(16), ...op.shl, ...byteAt(-2), ...c(8), ...op.shl, ...op.or,
          ...byteAt(-1), ...op.or, ...set(k),
        ...op.end,
        ...get(t), ...c(4), ...op.geU, ...op.if,
          ...byteAt(-4), ...c(24), ...op.shl, ...byteAt(-3), ...c(16), ...op.shl, ...op.or,
          ...byteAt(-2), ...c(8), ...op.shl, ...op.or, ...byteAt(-1), ...op.or, ...set(k),
        ...op.end,
        ...op.block, ...op.loop, // two bytes a step
          ...get(i), ...c(1), ...op.add, ...get(limit), ...op.geU, ...brIf(1),
          ...get(k), ...c(16), ...op.shl, ...byteAt(0), ...c(8), ...op.shl, ...op.or,
          ...byteAt(1), ...op.or, ...set(t),
          ...get(t), ...c(SAMPLE_MASK), ...op.and, ...set(v), ...sample(v), ...brIf(1),
          ...get(t), ...set(k), ...advance(2), ...br(0),
        ...op.end, ...op.end,
        ...get(i), ...get(limit), ...op.geU, ...brIf(2),
      ...op.end,
      ...get(k), ...c(8), ...op.shl, ...byteAt(0), ...op.or, ...set(k),
      ...get(k), ...c(SAMPLE_MASK), ...op.and, ...set(v), ...sample(v), ...op.if,
        ...EXACT_TEST(),
      ...op.end,
      ...advance(1), ...br(0),
    ...op.end, ...op.end,
    ...c(0), ...get(k), ...op.store(0),
    ...get(i),
  ];
  return wasmModule(PAGES, [
    { name: "scan", params: 3, locals: 7, code },
    { name: "findRun", params: 4, locals: 3, code: FIND_RUN },
  ]);
};

/** The scan's parameters, then its locals (`x`: where the four-bytes step started; `t`: how far it went). */
const SCAN_LOCALS = { from: 0, limit: 1, key: 2, i: 3, k: 4, v: 5, t: 6, x: 7, p: 8, h: 9 };

// biome-ignore format: the word's address, then the bit in it
const bit = (table: number, index: number) => [
  ...op.get(index), ...op.const(5), ...op.shrU, ...op.const(2), ...op.shl, ...op.load(table),
  ...op.get(index), ...op.shrU, ...op.const(1), ...op.and,
];

/**
 * The scan's exact test of the last four bytes read (`k`), inside the `if` its samples bit
 * opened, in the loop inside the block the scan leaves by to stop: `filterHit`.
 */
const EXACT_TEST = (): number[] => {
  const { k, p, h } = SCAN_LOCALS;
  const { get, set, brIf } = op;
  const c = op.const;
  const hash = [...c(HASH_MULTIPLIER), ...op.mul, ...c(HASH_SHIFT), ...op.shrU, ...set(h)];
  // biome-ignore format: one test a line, nested as the blocks nest
  return [
    ...get(k), ...c(0xffff), ...op.and, ...op.load8(PAIRS), ...set(p),
    ...get(p), ...c(END2), ...op.and, ...brIf(2),
    ...get(p), ...c(END2_BOUNDARY), ...op.and, ...op.if,
      ...get(k), ...c(16), ...op.shrU, ...c(0xffff), ...op.and, ...op.load8(PAIRS),
      ...c(LEAD_OK), ...op.and, ...brIf(3),
    ...op.end,
    ...get(p), ...c(QUAD), ...op.and, ...op.if,
      ...get(k), ...hash, ...bit(QUADS, h), ...brIf(3),
    ...op.end,
    ...get(p), ...c(TRIPLE), ...op.and, ...op.if,
      ...get(k), ...c(0xffffff), ...op.and, ...hash, ...bit(TRIPLES, h), ...brIf(3),
    ...op.end,
  ];
};

/**
 * `findRun(from, end, min, alphabet) -> index`: `findRun` of `alphabet-runs.ts` over the
 * window, the alphabet's 256 bytes at address `alphabet`.
 */
const FIND_RUN = (() => {
  const [from, end, min, alphabet, i, last, r] = [0, 1, 2, 3, 4, 5, 6];
  const { get, set, brIf, br } = op;
  const c = op.const;
  // biome-ignore format: one step of the search a line, nested as the blocks nest
  return [
    ...get(from), ...set(i), ...get(end), ...get(min), ...op.sub, ...set(last),
    ...op.loop, // each start tried
      ...get(i), ...get(last), ...op.gtS, ...op.if,
        ...c(-1), ...get(i), ...op.sub, ...op.return,
      ...op.end,
      ...get(i), ...get(min), ...op.add, ...c(1), ...op.sub, ...set(r),
      ...op.block, ...op.loop, // back from the far end while in the alphabet
        ...get(r), ...op.load8(WINDOW_AT), ...get(alphabet), ...op.add, ...op.load8(0), ...op.eqz,
        ...brIf(1),
        ...get(r), ...get(i), ...op.eq, ...op.if, ...get(i), ...op.return, ...op.end,
        ...get(r), ...c(1), ...op.sub, ...set(r),
        ...br(0),
      ...op.end, ...op.end,
      ...get(r), ...c(1), ...op.add, ...set(i),
      ...br(0),
    ...op.end,
    ...c(0),
  ];
})();
