/**
 * One Aho–Corasick automaton over byte classes, built once for every literal the redactor
 * looks for (known values and their encodings, literal rules, rule anchors). Scanning is
 * one table lookup per byte whatever the number of needles, which is what makes the
 * redactor linear time independent of the number of known secrets (SPEC §5.4).
 *
 * Two refinements over the textbook automaton:
 * - **Whitespace runs** (optional): every run of whitespace, in the needles and in the
 *   input, is one symbol, so a multi-line value matches whatever whitespace run stands for
 *   its line breaks. A state whose string ends in whitespace loops on whitespace.
 * - **Case folding** (optional): ASCII letters share a class, for case-insensitive anchors.
 *
 * Memory stays bounded for large needle sets: shallow states (the first ones in breadth
 * order, where scanning spends its time) get a dense transition row; deeper states keep
 * their children in a compact sorted list and fall back through failure links, the
 * classic amortised O(1) per byte.
 *
 * @example
 * ```ts
 * import { buildAutomaton } from "./aho-corasick.js";
 * const ac = buildAutomaton([{ bytes: Buffer.from("secret"), literal: 0, anchor: -1 }], {});
 * let s = 0;
 * for (const b of Buffer.from("a secret")) s = ac.step(s, ac.classOf[b]!);
 * ac.depthOf(ac.outState[s]!); // 6: "secret" ends here
 * ```
 */

import { NeedlePool } from "./needle-pool.js";

/** One needle: its bytes, and what a match means (a literal rule index and/or an anchor id). */
export interface Needle {
  readonly bytes: Uint8Array;
  /** Rule index of a literal to redact when this needle matches, or -1. */
  readonly literal: number;
  /** Anchor id to report when this needle matches, or -1. */
  readonly anchor: number;
  /**
   * Its rule rules it out after a letter or a digit, as the candidate set reads the byte
   * before (the start filter then passes a two-byte needle inside a word). @default false
   */
  readonly boundary?: boolean;
}

export interface AutomatonOptions {
  /** Treat every whitespace run as one symbol. @default false */
  readonly collapseWhitespace?: boolean;
  /** Fold ASCII case. @default false */
  readonly foldCase?: boolean;
  /** Most cells of the dense transition table. @default 1 << 20 */
  readonly denseCells?: number;
  /**
   * Deepest state (in symbols) with a dense row: deeper states use their sparse rows and
   * failure links. Scanning spends its time at shallow states, and every dense row costs
   * `classes` cells to build, which is most of the start-up cost of a large anchor set.
   * @default no limit
   */
  readonly denseDepth?: number;
}

/** State flag bits. */
export const FLAG_OUTPUT = 1;
export const FLAG_ANCHOR = 2;
export const FLAG_WS_END = 4;

export interface Automaton {
  /** Byte → class. */
  readonly classOf: Uint8Array;
  /** Number of classes. */
  readonly classes: number;
  /** Class of whitespace bytes when runs collapse, else -1. */
  readonly wsClass: number;
  readonly states: number;
  /** States below this have a dense row in `dense`. */
  readonly denseStates: number;
  readonly dense: Int32Array;
  /**
   * The dense table again, for the scanning loop: each entry is the target's row offset
   * (`state * classes`), bit-inverted (negative) when the target has a flag or no dense
   * row, so the loop needs one load and one sign test per byte.
   */
  readonly code: Int32Array;
  /**
   * The first state of each depth (breadth order: a depth's states are consecutive), and
   * the number of states after the deepest: depths in 4 bytes a depth, not a state.
   */
  readonly levelStart: Int32Array;
  /** Whitespace symbols in each state's string. */
  readonly wsCount: Int32Array;
  /** `FLAG_*` bits per state. */
  readonly flags: Uint8Array;
  /**
   * The state whose string is the longest literal needle ending at this state (itself, or
   * one down its failure links), 0 if none: its depth is the needle's length, its
   * `wsCount` the whitespace symbols inside, {@link literalOf} its literal rule index.
   */
  readonly outState: Int32Array;
  /** Depth of `state` in symbols (a search of {@link levelStart}). */
  depthOf(state: number): number;
  /** The literal rule index (the lowest among equal needles) of a state that ends a literal needle. */
  literalOf(state: number): number;
  /** Longest proper suffix state of `s` (its failure link). */
  readonly fail: Int32Array;
  /**
   * Anchors ending at a state: `anchorIds[anchorStart[s] .. anchorStart[s + 1])`, own and
   * inherited; meaningful only where `flags` has `FLAG_ANCHOR`.
   */
  readonly anchorStart: Int32Array;
  readonly anchorIds: Int32Array;
  /** Anchor length in symbols, and whitespace symbols in it, by anchor id. */
  readonly anchorLength: Int32Array;
  readonly anchorWs: Int32Array;
  /** Most whitespace symbols in any state's string. */
  readonly maxWsCount: number;
  /** Longest needle, in symbols. */
  readonly maxDepth: number;
  /** Transition on a class. */
  step(state: number, cls: number): number;
  /**
   * The same automaton (same state numbers, so a scan may switch to it between bytes)
   * with a dense row for every state, or for as many shallow states as 1 Mi cells allow:
   * fewer stops in the scan, built once on demand, for streams long enough to repay its
   * cost (`this` when those rows are dense already).
   */
  densified(): Automaton;
  /** {@link densified}'s automaton if some stream has built it already, else `this`. */
  densest(): Automaton;
}

const WS_BYTES = [0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d];

/** True for the bytes that end a whitespace run and stand for line breaks. */
export function isWhitespaceByte(byte: number): boolean {
  return byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);
}

/**
 * Build the automaton. Needles are normalised (runs collapsed, case folded) as the input is.
 * Given a {@link NeedlePool}, no object is made per needle or per state: the trie is built
 * one depth at a time straight into breadth-first numbered typed arrays.
 */
export function buildAutomaton(
  needles: readonly Needle[] | NeedlePool,
  options: AutomatonOptions,
): Automaton {
  const pool = needles instanceof NeedlePool ? needles : NeedlePool.of(needles);
  const collapse = options.collapseWhitespace ?? false;
  const fold = options.foldCase ?? false;
  const { classOf, classes, wsClass } = buildClasses(pool, collapse, fold);
  const rows = buildRows(pool, classOf, wsClass);
  const states = rows.flags.length;
  const denseStates = denseStateCount(options, states, classes, rows.levelStart);
  const dense = new Int32Array(denseStates * classes);
  const fail = new Int32Array(states);
  const step = createStep(rows, dense, fail, denseStates, classes, wsClass);
  linkFailures(rows, dense, fail, step, denseStates, classes, wsClass);
  const outputs = inheritOutputs(rows, fail, states);
  const code = buildScanCodes(rows, dense, fail, denseStates, classes, wsClass);
  return assemble({
    classOf,
    classes,
    wsClass,
    denseStates,
    dense,
    code,
    fail,
    rows,
    anchorStart: outputs.anchorStart,
    anchorIds: outputs.anchorIds,
    anchorLength: rows.anchorLength,
    anchorWs: rows.anchorWs,
    maxWsCount: outputs.maxWsCount,
    maxDepth: outputs.maxDepth,
  });
}

/**
 * Everything an automaton is made of: what {@link automatonTables} gives and
 * {@link assemble} takes, so a built automaton can be stored and loaded again without
 * being rebuilt (`automaton-image.ts`).
 */
export interface AutomatonTables
  extends Pick<
    Automaton,
    | "classOf"
    | "classes"
    | "wsClass"
    | "denseStates"
    | "dense"
    | "code"
    | "fail"
    | "anchorStart"
    | "anchorIds"
    | "anchorLength"
    | "anchorWs"
    | "maxWsCount"
    | "maxDepth"
  > {
  /** Per-state rows, the sparse children included (what `step` falls back to). */
  readonly rows: Omit<StateRows, "ownAnchorStart" | "ownAnchorIds" | "anchorLength" | "anchorWs">;
}

const TABLES = new WeakMap<Automaton, AutomatonTables>();

/** The tables `a` was assembled from (its dense rows as built, not densified). */
export function automatonTables(a: Automaton): AutomatonTables {
  const tables = TABLES.get(a);
  if (tables === undefined) throw new TypeError("not an automaton built by buildAutomaton");
  return tables;
}

/** The automaton of `tables`: the transition function and the scan's view of them. */
export function assemble(tables: AutomatonTables): Automaton {
  const { classes, wsClass, denseStates, dense, fail, rows } = tables;
  const states = fail.length;
  const step = createStep(rows, dense, fail, denseStates, classes, wsClass);
  const { levelStart, literalStates, literalIds } = rows;
  let full: Automaton | null = null;
  const automaton: Automaton = {
    classOf: tables.classOf,
    classes,
    wsClass,
    states,
    denseStates,
    dense,
    code: tables.code,
    levelStart,
    wsCount: rows.wsCount,
    flags: rows.flags,
    outState: rows.outState,
    depthOf: (state) => lastAtMost(levelStart, levelStart.length, state),
    literalOf: (state) => literalIds[lastAtMost(literalStates, literalStates.length, state)]!,
    fail,
    anchorStart: tables.anchorStart,
    anchorIds: tables.anchorIds,
    anchorLength: tables.anchorLength,
    anchorWs: tables.anchorWs,
    maxWsCount: tables.maxWsCount,
    maxDepth: tables.maxDepth,
    step,
    densified() {
      if (denseStates >= densifiedStates(states, classes)) return automaton;
      full ??= densify(automaton, rows, wsClass);
      return full;
    },
    densest: () => full ?? automaton,
  };
  TABLES.set(automaton, tables);
  return automaton;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Most cells (4 bytes each, twice: the rows and their scan codes) of a densified automaton.
 * The built-in rules' automaton (~2,650 states) is far below it; one holding the forms of
 * 50,000 known values (millions of states) would need gigabytes to be dense everywhere, so
 * only its shallow states are, where the scan spends its time.
 */
const DENSIFIED_CELLS = 1 << 20;

/** States with a dense row once densified: all of them, or the shallow ones within {@link DENSIFIED_CELLS}. */
function densifiedStates(states: number, classes: number): number {
  return Math.min(states, Math.floor(DENSIFIED_CELLS / classes));
}

/** {@link Automaton.densified}: the missing dense rows and their scan codes, in breadth order. */
function densify(a: Automaton, rows: AutomatonTables["rows"], wsClass: number): Automaton {
  const { classes, fail } = a;
  const states = densifiedStates(a.states, classes);
  const dense = new Int32Array(states * classes);
  dense.set(a.dense);
  const { flags, cStart, cClass } = rows;
  // Breadth order: each failure link is shallower, so its row is complete before it is copied.
  for (let s = a.denseStates; s < states; s++) {
    const row = s * classes;
    dense.copyWithin(row, fail[s]! * classes, fail[s]! * classes + classes);
    if (wsClass >= 0 && (flags[s]! & FLAG_WS_END) !== 0) dense[row + wsClass] = s;
    for (let j = cStart[s]!; j < cStart[s + 1]!; j++) dense[row + cClass[j]!] = j + 1;
  }
  const step = createStep(rows, dense, fail, states, classes, wsClass);
  const code = buildScanCodes(rows, dense, fail, states, classes, wsClass);
  // A clone with the fields replaced in place keeps the object's shape: the scan loops see
  // one shape of automaton before and after the switch (no polymorphic property loads).
  const full: Mutable<Automaton> = { ...a };
  full.denseStates = states;
  full.dense = dense;
  full.code = code;
  full.step = step;
  full.densified = () => full;
  full.densest = () => full;
  return full;
}

/** Per-state rows in breadth-first numbering, before failure links. */
interface StateRows {
  /** See {@link Automaton.levelStart}. */
  readonly levelStart: Int32Array;
  readonly wsCount: Int32Array;
  readonly flags: Uint8Array;
  /** See {@link Automaton.outState}: before failure links, a state's own needle only. */
  readonly outState: Int32Array;
  /**
   * The states that end literal needles, ascending, and each one's literal rule index:
   * outputs are found in millions of states of known values, their index is read only
   * where one matches (a search), so it takes 8 bytes an output, not 4 a state.
   */
  readonly literalStates: Int32Array;
  readonly literalIds: Int32Array;
  /**
   * Children of `s`: `cClass[cStart[s] .. cStart[s + 1])`, sorted by class. In breadth-first
   * numbering every state's children are consecutive and state 0 is no one's, so the child
   * at `j` is state `j + 1`: no table of child states (4 bytes per state).
   */
  readonly cStart: Int32Array;
  /** One byte per child: classes fit a byte (`classOf` holds them). */
  readonly cClass: Uint8Array;
  /** Anchors ending at `s` itself (not inherited): `ownAnchorIds[ownAnchorStart[s] .. ownAnchorStart[s + 1])`. */
  readonly ownAnchorStart: Int32Array;
  readonly ownAnchorIds: Int32Array;
  /** Anchor length in symbols, and whitespace symbols in it, by anchor id. */
  readonly anchorLength: Int32Array;
  readonly anchorWs: Int32Array;
}

/**
 * The trie of `pool`'s needles, one depth at a time: the needles still long enough are kept
 * grouped by the state their prefix reached (groups in state order), each group is sorted
 * by the next symbol, and every new (state, symbol) pair becomes the next state number.
 * That numbering is breadth-first with children in class order, with no map and no
 * renumbering; time is linear in the needles' total length (groups are sorted by counting
 * when large), memory a few typed arrays sized by it.
 */
function buildRows(pool: NeedlePool, classOf: Uint8Array, wsClass: number): StateRows {
  const normalised = normaliseAll(pool, classOf, wsClass);
  const count = normalised.kept.length;
  // (Two arrays, not two views of one: a layout's arrays are reused by `relayout`.)
  let layout: Layout = {
    symbols: normalised.symbols,
    symStart: normalised.symStart.subarray(0, count),
    symEnd: normalised.symStart.slice(1),
    kept: normalised.kept,
  };
  let maxAnchorId = -1;
  for (let n = 0; n < pool.count; n++) maxAnchorId = Math.max(maxAnchorId, pool.anchor[n]!);
  // States are at most one per symbol, plus the root.
  const rows = newRows((layout.symEnd[count - 1] ?? 0) + 1, count, maxAnchorId);
  // `active[0 .. live)`: needles (indices into the layout) longer than the depth `d`, grouped
  // by `at[k]`, the state their first `d` symbols reach. `at` goes by position, not by needle
  // (sequential reads): sorting within a group, where it is all one value, leaves it as is.
  let live = count;
  const active = new Int32Array(live);
  for (let k = 0; k < live; k++) active[k] = k;
  const at = new Int32Array(live);
  const scratch = new Int32Array(live);
  const bins = new Int32Array(257);
  let spare: Layout | null = null;
  for (let d = 0; live > 0; d++) {
    rows.levelStart.push(rows.states);
    if (d >= 2 && (d & (d - 1)) === 0) {
      // Every needle still active, its symbols from `d` on, copied in the active order and
      // renumbered so: the reads of the deeper levels are sequential, not one cache miss per
      // symbol (the active order stops changing once paths are unique). Each copy is at
      // most the symbols left, and depths double between copies.
      const from = layout;
      layout = relayout(active, live, d, from, spare);
      spare = from; // two sets of buffers in turn: no garbage per copy
    }
    sortGroups(active, live, at, layout.symbols, layout.symStart, d, scratch, bins);
    addLevel(rows, active, at, live, layout, d, wsClass);
    live = retireEnded(rows, pool, active, at, live, layout, d);
  }
  return finishRows(rows);
}

/** The per-state tables while {@link buildRows} fills them, sized for the most states. */
interface GrowingRows {
  states: number;
  /** The first state of each depth made so far (depth 0: the root, state 0). */
  readonly levelStart: number[];
  readonly wsCount: Int32Array;
  readonly flags: Uint8Array;
  readonly outState: Int32Array;
  /** `literalStates[0 .. literals)`, `literalIds`: see {@link StateRows}. */
  literals: number;
  readonly literalStates: Int32Array;
  readonly literalIds: Int32Array;
  /** Children per state, at `s + 1` (prefix-summed into `cStart` at the end). */
  readonly childCount: Int32Array;
  readonly cClass: Uint8Array;
  readonly anchorLength: Int32Array;
  readonly anchorWs: Int32Array;
  /** (state, anchor id) pairs: anchors are few. */
  readonly ownAnchors: number[];
}

function newRows(capacity: number, needles: number, maxAnchorId: number): GrowingRows {
  // Tables are cut to the states made at the end (views): the pages never touched cost no
  // memory. Only whitespace writes `wsCount`, so most of its pages stay untouched too (most
  // known values have no whitespace).
  return {
    states: 1,
    levelStart: [0],
    wsCount: new Int32Array(capacity),
    flags: new Uint8Array(capacity),
    outState: new Int32Array(capacity),
    literals: 0,
    literalStates: new Int32Array(needles),
    literalIds: new Int32Array(needles),
    childCount: new Int32Array(capacity + 1),
    cClass: new Uint8Array(capacity),
    anchorLength: new Int32Array(maxAnchorId + 1),
    anchorWs: new Int32Array(maxAnchorId + 1),
    ownAnchors: [],
  };
}

/** The states of depth `d + 1`: one per new (parent, symbol) pair of the sorted active needles. */
function addLevel(
  rows: GrowingRows,
  active: Int32Array,
  at: Int32Array,
  live: number,
  { symbols, symStart }: Layout,
  d: number,
  wsClass: number,
): void {
  const { wsCount, flags, cClass, childCount } = rows;
  let states = rows.states;
  let prevState = -1;
  let prevSym = -1;
  for (let k = 0; k < live; k++) {
    const parent = at[k]!;
    const sym = symbols[symStart[active[k]!]! + d]!;
    if (parent !== prevState || sym !== prevSym) {
      const s = states++;
      const ws = wsCount[parent]! + (sym === wsClass ? 1 : 0);
      if (ws > 0) wsCount[s] = ws;
      if (sym === wsClass) flags[s]! |= FLAG_WS_END;
      cClass[s - 1] = sym;
      childCount[parent + 1]!++;
      prevState = parent;
      prevSym = sym;
    }
    at[k] = states - 1;
  }
  rows.states = states;
}

/** Needles ending at depth `d + 1` are recorded at their state and leave the active list; returns how many stay. */
function retireEnded(
  rows: GrowingRows,
  pool: NeedlePool,
  active: Int32Array,
  at: Int32Array,
  live: number,
  { symStart, symEnd, kept }: Layout,
  d: number,
): number {
  const { wsCount, outState, literalStates, literalIds, anchorLength, anchorWs } = rows;
  let w = 0;
  for (let k = 0; k < live; k++) {
    const n = active[k]!;
    if (symEnd[n]! - symStart[n]! > d + 1) {
      at[w] = at[k]!;
      active[w++] = n;
      continue;
    }
    const s = at[k]!;
    const needle = kept[n]!;
    const literal = pool.literal[needle]!;
    if (literal >= 0) {
      // States come in ascending order, equal needles one after another.
      const last = rows.literals - 1;
      if (outState[s] === s) literalIds[last] = Math.min(literalIds[last]!, literal);
      else {
        outState[s] = s;
        literalStates[rows.literals] = s;
        literalIds[rows.literals++] = literal;
      }
    }
    const anchor = pool.anchor[needle]!;
    if (anchor >= 0) {
      rows.ownAnchors.push(s, anchor);
      anchorLength[anchor] = d + 1;
      anchorWs[anchor] = wsCount[s]!;
    }
  }
  return w;
}

/** The tables cut to the states made, children as ranges. */
function finishRows(rows: GrowingRows): StateRows {
  const { states } = rows;
  const cStart = rows.childCount.subarray(0, states + 1);
  for (let s = 0; s < states; s++) cStart[s + 1] = cStart[s]! + cStart[s + 1]!;
  const { ownAnchorStart, ownAnchorIds } = groupAnchors(rows.ownAnchors, states);
  return {
    levelStart: Int32Array.from([...rows.levelStart, states]),
    wsCount: rows.wsCount.subarray(0, states),
    flags: rows.flags.subarray(0, states),
    outState: rows.outState.subarray(0, states),
    literalStates: rows.literalStates.slice(0, rows.literals),
    literalIds: rows.literalIds.slice(0, rows.literals),
    cStart,
    cClass: rows.cClass.subarray(0, states - 1),
    ownAnchorStart,
    ownAnchorIds,
    anchorLength: rows.anchorLength,
    anchorWs: rows.anchorWs,
  };
}

/** Every needle's class symbols (see {@link normalise}; classes fit a byte, as `classOf` holds them) in one array; empty needles left out. */
function normaliseAll(
  pool: NeedlePool,
  classOf: Uint8Array,
  wsClass: number,
): { symbols: Uint8Array; symStart: Int32Array; kept: Int32Array } {
  const symbols = new Uint8Array(pool.size);
  const symStart = new Int32Array(pool.count + 1);
  const kept = new Int32Array(pool.count);
  const { bytes, ends } = pool;
  let w = 0;
  let from = 0;
  let k = 0;
  for (let n = 0; n < pool.count; n++) {
    const start = w;
    const to = ends[n]!;
    for (let i = from; i < to; i++) {
      const cls = classOf[bytes[i]!]!;
      if (cls === wsClass && (w === start || symbols[w - 1] === wsClass)) continue;
      symbols[w++] = cls;
    }
    while (w > start && symbols[w - 1] === wsClass) w--;
    from = to;
    if (w > start) {
      symStart[k] = start;
      kept[k++] = n;
    }
  }
  symStart[k] = w;
  return { symbols, symStart: symStart.subarray(0, k + 1), kept: kept.subarray(0, k) };
}

/** Needles' symbols as {@link buildRows} reads them: needle n is `symbols[symStart[n] .. symEnd[n])`, pool needle `kept[n]`. */
interface Layout {
  readonly symbols: Uint8Array;
  readonly symStart: Int32Array;
  readonly symEnd: Int32Array;
  readonly kept: Int32Array;
}

/**
 * {@link buildRows}' copy of the active needles' remaining symbols, in the active order, into
 * `into` (a layout no longer read, at least as large: the active needles only shrink) or new
 * buffers.
 */
function relayout(
  active: Int32Array,
  live: number,
  d: number,
  { symbols, symStart, symEnd, kept }: Layout,
  into: Layout | null,
): Layout {
  let size = 0;
  for (let k = 0; k < live; k++) size += symEnd[active[k]!]! - symStart[active[k]!]! - d;
  const copy = into !== null && into.symbols.length >= size ? into.symbols : new Uint8Array(size);
  const fits = into !== null && into.kept.length >= live;
  const start = fits ? into.symStart : new Int32Array(live);
  const end = fits ? into.symEnd : new Int32Array(live);
  const ids = fits ? into.kept : new Int32Array(live);
  let w = 0;
  for (let k = 0; k < live; k++) {
    const n = active[k]!;
    const from = symStart[n]! + d;
    start[k] = w - d; // so that depth d is at `w`
    for (let i = from; i < symEnd[n]!; i++) copy[w++] = symbols[i]!;
    end[k] = w;
    ids[k] = kept[n]!;
    active[k] = k;
  }
  return { symbols: copy, symStart: start, symEnd: end, kept: ids };
}

/**
 * Sort each group of `active` (a run of equal `at`) by the needle's symbol at `d`: insertion
 * sort for small groups, counting sort for large ones (so a level costs its length plus at
 * most a constant times it).
 */
function sortGroups(
  active: Int32Array,
  live: number,
  at: Int32Array,
  symbols: Uint8Array,
  symStart: Int32Array,
  d: number,
  scratch: Int32Array,
  bins: Int32Array,
): void {
  let from = 0;
  while (from < live) {
    const group = at[from]!;
    let to = from + 1;
    while (to < live && at[to] === group) to++;
    if (to - from <= 32) {
      for (let i = from + 1; i < to; i++) {
        const n = active[i]!;
        const key = symbols[symStart[n]! + d]!;
        let j = i - 1;
        while (j >= from && symbols[symStart[active[j]!]! + d]! > key) {
          active[j + 1] = active[j]!;
          j--;
        }
        active[j + 1] = n;
      }
    } else {
      bins.fill(0);
      for (let i = from; i < to; i++) bins[symbols[symStart[active[i]!]! + d]! + 1]!++;
      for (let c = 1; c < bins.length; c++) bins[c]! += bins[c - 1]!;
      for (let i = from; i < to; i++) {
        const n = active[i]!;
        scratch[from + bins[symbols[symStart[n]! + d]!]!++] = n;
      }
      active.set(scratch.subarray(from, to), from);
    }
    from = to;
  }
}

/** (state, anchor id) pairs as per-state ranges. */
function groupAnchors(
  pairs: readonly number[],
  states: number,
): { ownAnchorStart: Int32Array; ownAnchorIds: Int32Array } {
  const ownAnchorStart = new Int32Array(states + 1);
  for (let p = 0; p < pairs.length; p += 2) ownAnchorStart[pairs[p]! + 1]!++;
  for (let s = 0; s < states; s++) ownAnchorStart[s + 1]! += ownAnchorStart[s]!;
  const fill = ownAnchorStart.slice(0, states);
  const ownAnchorIds = new Int32Array(pairs.length / 2);
  for (let p = 0; p < pairs.length; p += 2) ownAnchorIds[fill[pairs[p]!]!++] = pairs[p + 1]!;
  return { ownAnchorStart, ownAnchorIds };
}

/** How many breadth-first states get a dense row: within the cell budget and `denseDepth`. */
function denseStateCount(
  options: AutomatonOptions,
  states: number,
  classes: number,
  levelStart: Int32Array,
): number {
  const cells = options.denseCells ?? 1 << 20;
  const denseStates = Math.max(1, Math.min(states, Math.floor(cells / classes)));
  const denseDepth = options.denseDepth ?? Number.POSITIVE_INFINITY;
  // Breadth order: the states within `denseDepth` are a prefix.
  if (denseDepth + 1 >= levelStart.length) return denseStates;
  return Math.max(1, Math.min(denseStates, levelStart[denseDepth + 1]!));
}

/** The transition function: dense row, whitespace loop, sparse children, else failure link. */
function createStep(
  rows: AutomatonTables["rows"],
  dense: Int32Array,
  fail: Int32Array,
  denseStates: number,
  classes: number,
  wsClass: number,
): (state: number, cls: number) => number {
  const { flags, cStart, cClass } = rows;
  return (state: number, cls: number): number => {
    let s = state;
    for (;;) {
      if (s < denseStates) return dense[s * classes + cls]!;
      if (cls === wsClass && (flags[s]! & FLAG_WS_END) !== 0) return s;
      for (let j = cStart[s]!; j < cStart[s + 1]!; j++) if (cClass[j] === cls) return j + 1;
      s = fail[s]!;
    }
  };
}

/**
 * Failure links and dense rows, breadth-first: when state s is reached, every state before
 * it (its failure link included) has its row and link final, so `step` may be used on them.
 */
function linkFailures(
  rows: AutomatonTables["rows"],
  dense: Int32Array,
  fail: Int32Array,
  step: (state: number, cls: number) => number,
  denseStates: number,
  classes: number,
  wsClass: number,
): void {
  const { flags, cStart, cClass } = rows;
  const states = fail.length;
  for (let s = 0; s < states; s++) {
    if (s < denseStates) {
      // The failure link's row (root: all zero), then this state's own moves: one native
      // copy per row instead of a loop per cell (start-up cost).
      const row = s * classes;
      if (s > 0) dense.copyWithin(row, fail[s]! * classes, fail[s]! * classes + classes);
      if (wsClass >= 0 && (flags[s]! & FLAG_WS_END) !== 0) dense[row + wsClass] = s;
    }
    for (let j = cStart[s]!; j < cStart[s + 1]!; j++) {
      const child = j + 1;
      const cls = cClass[j]!;
      fail[child] = s === 0 ? 0 : step(fail[s]!, cls);
      if (s < denseStates) dense[s * classes + cls] = child;
    }
  }
}

/** Outputs inherited along failure links (breadth order: the link is already final). */
function inheritOutputs(
  rows: StateRows,
  fail: Int32Array,
  states: number,
): { anchorStart: Int32Array; anchorIds: Int32Array; maxWsCount: number; maxDepth: number } {
  const { levelStart, wsCount, flags, outState, ownAnchorStart, ownAnchorIds } = rows;
  const anchorStart = new Int32Array(states + 1);
  const ids: number[] = [];
  let maxWsCount = 0;
  for (let s = 0; s < states; s++) {
    maxWsCount = Math.max(maxWsCount, wsCount[s]!);
    const f = fail[s]!;
    if (s > 0 && outState[s] === 0) outState[s] = outState[f]!;
    if (outState[s] !== 0) flags[s]! |= FLAG_OUTPUT;
    // Only states with anchors (own or inherited) write their range: the pages of the
    // others stay untouched (no memory for the millions of states of known values).
    const inherits = s > 0 && (flags[f]! & FLAG_ANCHOR) !== 0;
    if (ownAnchorStart[s + 1]! > ownAnchorStart[s]! || inherits) {
      anchorStart[s] = ids.length;
      for (let j = ownAnchorStart[s]!; j < ownAnchorStart[s + 1]!; j++) ids.push(ownAnchorIds[j]!);
      if (inherits) for (let j = anchorStart[f]!; j < anchorStart[f + 1]!; j++) ids.push(ids[j]!);
      anchorStart[s + 1] = ids.length;
      flags[s]! |= FLAG_ANCHOR;
    }
  }
  const maxDepth = levelStart.length - 2;
  return { anchorStart, anchorIds: Int32Array.from(ids), maxWsCount, maxDepth };
}

/**
 * The scan codes, row by row in breadth order: a cell that differs from the failure
 * link's row is a child or a whitespace loop; every other cell has the same target as
 * there, so the row is copied and only those cells are coded.
 */
function buildScanCodes(
  rows: AutomatonTables["rows"],
  dense: Int32Array,
  fail: Int32Array,
  denseStates: number,
  classes: number,
  wsClass: number,
): Int32Array {
  const { flags, cStart, cClass } = rows;
  const code = new Int32Array(dense.length);
  const codeOf = (target: number) => {
    const offset = target * classes;
    return flags[target] !== 0 || target >= denseStates ? ~offset : offset;
  };
  for (let cls = 0; cls < classes; cls++) code[cls] = codeOf(dense[cls]!);
  for (let s = 1; s < denseStates; s++) {
    const row = s * classes;
    const failRow = fail[s]! * classes;
    code.copyWithin(row, failRow, failRow + classes);
    for (let j = cStart[s]!; j < cStart[s + 1]!; j++) {
      const cell = row + cClass[j]!;
      code[cell] = codeOf(dense[cell]!);
    }
    if (wsClass >= 0) code[row + wsClass] = codeOf(dense[row + wsClass]!);
  }
  return code;
}

/** Needle bytes as class symbols: whitespace runs become one symbol, the ends trimmed. */
export function normalise(bytes: Uint8Array, classOf: Uint8Array, wsClass: number): number[] {
  const out: number[] = [];
  for (const byte of bytes) {
    const cls = classOf[byte]!;
    if (cls === wsClass && (out.length === 0 || out[out.length - 1] === wsClass)) continue;
    out.push(cls);
  }
  while (out.length > 0 && out[out.length - 1] === wsClass) out.pop();
  return out;
}

function buildClasses(
  pool: NeedlePool,
  collapse: boolean,
  fold: boolean,
): { classOf: Uint8Array; classes: number; wsClass: number } {
  const classOf = new Uint8Array(256);
  const used = new Uint8Array(256);
  const { bytes, size } = pool;
  for (let i = 0; i < size; i++) used[fold ? lower(bytes[i]!) : bytes[i]!] = 1;
  // Class 0 is every byte no needle uses: such a byte sends the automaton back to the root.
  let classes = 1;
  let wsClass = -1;
  if (collapse) {
    wsClass = classes++;
    for (const byte of WS_BYTES) classOf[byte] = wsClass;
  }
  for (let byte = 0; byte < 256; byte++) {
    if (collapse && isWhitespaceByte(byte)) continue;
    if (fold && byte !== lower(byte)) continue;
    if (used[byte] === 1) classOf[byte] = classes++;
  }
  if (fold) for (let byte = 0x41; byte <= 0x5a; byte++) classOf[byte] = classOf[byte + 0x20]!;
  return { classOf, classes, wsClass };
}

function lower(byte: number): number {
  return byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte;
}

/** The last index `i < n` with `sorted[i] <= value` (`sorted` ascending, `sorted[0] <= value`). */
function lastAtMost(sorted: Int32Array, n: number, value: number): number {
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (sorted[mid]! <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
