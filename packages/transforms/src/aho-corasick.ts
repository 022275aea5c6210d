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
 * ac.outLength[s]; // 6: "secret" ends here
 * ```
 */

/** One needle: its bytes, and what a match means (a literal rule index and/or an anchor id). */
export interface Needle {
  readonly bytes: Uint8Array;
  /** Rule index of a literal to redact when this needle matches, or -1. */
  readonly literal: number;
  /** Anchor id to report when this needle matches, or -1. */
  readonly anchor: number;
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
  /** Depth of each state in symbols. */
  readonly depth: Int32Array;
  /** Whitespace symbols in each state's string. */
  readonly wsCount: Int32Array;
  /** `FLAG_*` bits per state. */
  readonly flags: Uint8Array;
  /** Length in symbols of the longest literal needle ending at this state, 0 if none. */
  readonly outLength: Int32Array;
  /** Whitespace symbols inside that needle. */
  readonly outWs: Int32Array;
  /** Its literal rule index (the lowest among equal needles). */
  readonly outLiteral: Int32Array;
  /** Longest proper suffix state of `s` (its failure link). */
  readonly fail: Int32Array;
  /** Anchors ending at a state: `anchorIds[anchorStart[s] .. anchorStart[s + 1])`, own and inherited. */
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
   * with a dense row for every state: fewer stops in the scan, built once on demand, for
   * streams long enough to repay its cost (`this` when every row is dense already).
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

/** Build the automaton. Needles are normalised (runs collapsed, case folded) as the input is. */
export function buildAutomaton(needles: readonly Needle[], options: AutomatonOptions): Automaton {
  const collapse = options.collapseWhitespace ?? false;
  const fold = options.foldCase ?? false;
  const { classOf, classes, wsClass } = buildClasses(needles, collapse, fold);
  const trie = buildTrie(needles, classOf, classes, wsClass);
  const states = trie.depthList.length;
  const rows = renumberBreadthFirst(trie, groupChildren(trie, states), states);
  const denseStates = denseStateCount(options, states, classes, rows.depth);
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
    anchorLength: trie.anchorLength,
    anchorWs: trie.anchorWs,
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
  readonly rows: Omit<StateRows, "anchorLists">;
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
  let full: Automaton | null = null;
  const automaton: Automaton = {
    classOf: tables.classOf,
    classes,
    wsClass,
    states,
    denseStates,
    dense,
    code: tables.code,
    depth: rows.depth,
    wsCount: rows.wsCount,
    flags: rows.flags,
    outLength: rows.outLength,
    outWs: rows.outWs,
    outLiteral: rows.outLiteral,
    fail,
    anchorStart: tables.anchorStart,
    anchorIds: tables.anchorIds,
    anchorLength: tables.anchorLength,
    anchorWs: tables.anchorWs,
    maxWsCount: tables.maxWsCount,
    maxDepth: tables.maxDepth,
    step,
    densified() {
      if (denseStates === states) return automaton;
      full ??= densify(automaton, rows, wsClass);
      return full;
    },
    densest: () => full ?? automaton,
  };
  TABLES.set(automaton, tables);
  return automaton;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** {@link Automaton.densified}: the missing dense rows and their scan codes, in breadth order. */
function densify(a: Automaton, rows: AutomatonTables["rows"], wsClass: number): Automaton {
  const { classes, states, fail } = a;
  const dense = new Int32Array(states * classes);
  dense.set(a.dense);
  const { flags, cStart, cClass, cState } = rows;
  // Breadth order: each failure link is shallower, so its row is complete before it is copied.
  for (let s = a.denseStates; s < states; s++) {
    const row = s * classes;
    dense.copyWithin(row, fail[s]! * classes, fail[s]! * classes + classes);
    if (wsClass >= 0 && (flags[s]! & FLAG_WS_END) !== 0) dense[row + wsClass] = s;
    for (let j = cStart[s]!; j < cStart[s + 1]!; j++) dense[row + cClass[j]!] = cState[j]!;
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

/** The trie in insertion order, one list entry per state (index 0 is the root). */
interface Trie {
  /** Children in one map keyed by state * classes + class. */
  readonly childMap: Map<number, number>;
  readonly depthList: number[];
  readonly wsList: number[];
  readonly lastWs: boolean[];
  readonly ownLiteral: number[];
  readonly ownAnchors: number[][];
  /** Each state's parent and the class leading to it (the root's are unused). */
  readonly parentList: number[];
  readonly classList: number[];
  readonly anchorLength: Int32Array;
  readonly anchorWs: Int32Array;
}

/** Children grouped per state (insertion numbering), sorted by class. */
interface GroupedChildren {
  readonly childStart: Int32Array;
  readonly childClass: Int32Array;
  readonly childState: Int32Array;
}

/** Per-state rows in breadth-first numbering, before failure links. */
interface StateRows {
  readonly depth: Int32Array;
  readonly wsCount: Int32Array;
  readonly flags: Uint8Array;
  readonly outLength: Int32Array;
  readonly outWs: Int32Array;
  readonly outLiteral: Int32Array;
  readonly cStart: Int32Array;
  readonly cClass: Int32Array;
  readonly cState: Int32Array;
  readonly anchorLists: number[][];
}

/** Insert every needle's class symbols into a trie, recording its literal and anchor ends. */
function buildTrie(
  needles: readonly Needle[],
  classOf: Uint8Array,
  classes: number,
  wsClass: number,
): Trie {
  let maxAnchorId = -1;
  for (const needle of needles) maxAnchorId = Math.max(maxAnchorId, needle.anchor);
  const trie: Trie = {
    childMap: new Map<number, number>(),
    depthList: [0],
    wsList: [0],
    lastWs: [false],
    ownLiteral: [-1],
    ownAnchors: [[]],
    parentList: [0],
    classList: [0],
    anchorLength: new Int32Array(maxAnchorId + 1),
    anchorWs: new Int32Array(maxAnchorId + 1),
  };
  // Locals, not property loads, in the per-symbol loop: it runs cold (start-up cost).
  const { childMap, depthList, wsList, lastWs, ownLiteral, ownAnchors, parentList, classList } =
    trie;
  for (const needle of needles) {
    const symbols = normalise(needle.bytes, classOf, wsClass);
    if (symbols.length === 0) continue;
    let state = 0;
    let ws = 0;
    for (const sym of symbols) {
      if (sym === wsClass) ws++;
      const key = state * classes + sym;
      let next = childMap.get(key);
      if (next === undefined) {
        next = depthList.length;
        childMap.set(key, next);
        parentList.push(state);
        classList.push(sym);
        depthList.push(depthList[state]! + 1);
        wsList.push(ws);
        lastWs.push(sym === wsClass);
        ownLiteral.push(-1);
        ownAnchors.push([]);
      }
      state = next;
    }
    recordNeedleEnd(trie, needle, state, symbols.length, ws);
  }
  return trie;
}

/** The needle's literal (lowest wins) and anchor at its end state. */
function recordNeedleEnd(
  trie: Trie,
  needle: Needle,
  state: number,
  length: number,
  ws: number,
): void {
  if (needle.literal >= 0) {
    const prev = trie.ownLiteral[state]!;
    trie.ownLiteral[state] = prev < 0 ? needle.literal : Math.min(prev, needle.literal);
  }
  if (needle.anchor >= 0) {
    trie.ownAnchors[state]!.push(needle.anchor);
    trie.anchorLength[needle.anchor] = length;
    trie.anchorWs[needle.anchor] = ws;
  }
}

/**
 * Children grouped per state, sorted by class (compact rows for deep states); read from
 * the parent lists, not by iterating the map (cheaper in cold code: start-up cost).
 */
function groupChildren(trie: Trie, states: number): GroupedChildren {
  const { parentList, classList } = trie;
  const childCount = new Int32Array(states + 1);
  for (let c = 1; c < states; c++) childCount[parentList[c]! + 1]!++;
  const childStart = new Int32Array(states + 1);
  for (let s = 0; s < states; s++) childStart[s + 1] = childStart[s]! + childCount[s + 1]!;
  const childClass = new Int32Array(trie.childMap.size);
  const childState = new Int32Array(trie.childMap.size);
  const fillAt = childStart.slice(0, states);
  for (let c = 1; c < states; c++) {
    const at = fillAt[parentList[c]!]!++;
    childClass[at] = classList[c]!;
    childState[at] = c;
  }
  for (let s = 0; s < states; s++)
    sortChildren(childClass, childState, childStart[s]!, childStart[s + 1]!);
  return { childStart, childClass, childState };
}

/**
 * Breadth-first: states were numbered in insertion order, which is not breadth order, so
 * renumber so that shallow states come first and get the dense rows.
 */
function renumberBreadthFirst(trie: Trie, grouped: GroupedChildren, states: number): StateRows {
  const { childStart, childClass, childState } = grouped;
  const { depthList, wsList, lastWs, ownLiteral, ownAnchors } = trie;
  const order = breadthOrder(states, childStart, childState);
  const rank = new Int32Array(states);
  for (let i = 0; i < states; i++) rank[order[i]!] = i;
  const depth = new Int32Array(states);
  const wsCount = new Int32Array(states);
  const flags = new Uint8Array(states);
  const cStart = new Int32Array(states + 1);
  const cClass = new Int32Array(trie.childMap.size);
  const cState = new Int32Array(trie.childMap.size);
  let k = 0;
  for (let i = 0; i < states; i++) {
    const old = order[i]!;
    depth[i] = depthList[old]!;
    wsCount[i] = wsList[old]!;
    if (lastWs[old]) flags[i]! |= FLAG_WS_END;
    cStart[i] = k;
    for (let j = childStart[old]!; j < childStart[old + 1]!; j++) {
      cClass[k] = childClass[j]!;
      cState[k] = rank[childState[j]!]!;
      k++;
    }
  }
  cStart[states] = k;
  const outLength = new Int32Array(states);
  const outWs = new Int32Array(states);
  const outLiteral = new Int32Array(states).fill(-1);
  const anchorLists: number[][] = new Array(states);
  for (let i = 0; i < states; i++) {
    const old = order[i]!;
    anchorLists[i] = ownAnchors[old]!;
    const lit = ownLiteral[old]!;
    if (lit >= 0) {
      outLength[i] = depth[i]!;
      outWs[i] = wsCount[i]!;
      outLiteral[i] = lit;
    }
  }
  return {
    depth,
    wsCount,
    flags,
    outLength,
    outWs,
    outLiteral,
    cStart,
    cClass,
    cState,
    anchorLists,
  };
}

/** How many breadth-first states get a dense row: within the cell budget and `denseDepth`. */
function denseStateCount(
  options: AutomatonOptions,
  states: number,
  classes: number,
  depth: Int32Array,
): number {
  const cells = options.denseCells ?? 1 << 20;
  let denseStates = Math.max(1, Math.min(states, Math.floor(cells / classes)));
  const denseDepth = options.denseDepth ?? Number.POSITIVE_INFINITY;
  // Breadth order: the states within `denseDepth` are a prefix.
  while (denseStates > 1 && depth[denseStates - 1]! > denseDepth) denseStates--;
  return denseStates;
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
  const { flags, cStart, cClass, cState } = rows;
  return (state: number, cls: number): number => {
    let s = state;
    for (;;) {
      if (s < denseStates) return dense[s * classes + cls]!;
      if (cls === wsClass && (flags[s]! & FLAG_WS_END) !== 0) return s;
      for (let j = cStart[s]!; j < cStart[s + 1]!; j++) if (cClass[j] === cls) return cState[j]!;
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
  const { flags, cStart, cClass, cState } = rows;
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
      const child = cState[j]!;
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
  const { depth, wsCount, flags, outLength, outWs, outLiteral, anchorLists } = rows;
  const anchorStart = new Int32Array(states + 1);
  const ids: number[] = [];
  let maxWsCount = 0;
  let maxDepth = 0;
  for (let s = 0; s < states; s++) {
    maxWsCount = Math.max(maxWsCount, wsCount[s]!);
    maxDepth = Math.max(maxDepth, depth[s]!);
    const f = fail[s]!;
    if (s > 0 && outLength[s] === 0 && outLength[f]! > 0) {
      outLength[s] = outLength[f]!;
      outWs[s] = outWs[f]!;
      outLiteral[s] = outLiteral[f]!;
    }
    if (outLength[s]! > 0) flags[s]! |= FLAG_OUTPUT;
    anchorStart[s] = ids.length;
    for (const id of anchorLists[s]!) ids.push(id);
    if (s > 0) for (let j = anchorStart[f]!; j < anchorStart[f + 1]!; j++) ids.push(ids[j]!);
    anchorStart[s + 1] = ids.length;
    if (anchorStart[s + 1]! > anchorStart[s]!) flags[s]! |= FLAG_ANCHOR;
  }
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
  needles: readonly Needle[],
  collapse: boolean,
  fold: boolean,
): { classOf: Uint8Array; classes: number; wsClass: number } {
  const classOf = new Uint8Array(256);
  const used = new Uint8Array(256);
  for (const needle of needles)
    for (const byte of needle.bytes) used[fold ? lower(byte) : byte] = 1;
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

function sortChildren(cls: Int32Array, state: Int32Array, from: number, to: number): void {
  // Insertion sort: rows are short (bounded by the number of classes).
  for (let i = from + 1; i < to; i++) {
    const c = cls[i]!;
    const s = state[i]!;
    let j = i - 1;
    while (j >= from && cls[j]! > c) {
      cls[j + 1] = cls[j]!;
      state[j + 1] = state[j]!;
      j--;
    }
    cls[j + 1] = c;
    state[j + 1] = s;
  }
}

function breadthOrder(states: number, childStart: Int32Array, childState: Int32Array): Int32Array {
  const order = new Int32Array(states);
  let head = 0;
  let tail = 1;
  order[0] = 0;
  while (head < tail) {
    const s = order[head++]!;
    for (let j = childStart[s]!; j < childStart[s + 1]!; j++) order[tail++] = childState[j]!;
  }
  return order;
}
