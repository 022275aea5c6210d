/**
 * The redactor stage: replaces secrets in a byte stream with `[REDACTED:<rule>]` before
 * anything reaches a file, a live read or a preview, and keeps SPEC §5's promises:
 *
 * 1. **Chunking invariance.** Every decision (a match, a candidate's verdict, an omission)
 *    is a function of the bytes up to the position where it is taken, made byte by byte in
 *    the same order whatever the chunking; pushes only decide *when* decided output is
 *    handed on.
 * 2. **No prefix exposure.** A byte is emitted only once no future match can cover it: it
 *    lies before the *frontier*, the earliest start of anything still undecided (the
 *    automaton's current partial match, every live candidate's claim). Nothing emitted is
 *    ever retracted because nothing undecided is ever emitted.
 * 3. **Bounded hold, fail closed.** Held bytes (from the output cursor or the frontier,
 *    whichever is earlier, to the input position) stay below the window. When the bytes
 *    after the cursor reach it, they are replaced by `[OMITTED:<n> bytes undecidable]`, and
 *    the input is dropped up to the next whitespace byte while only a count is kept (O(1)
 *    memory); the marker carries the exact count. Time alone never releases held bytes.
 * 4. **Linear time.** One automaton step per byte for all literals and anchors (see
 *    `aho-corasick.ts`); only live candidates see bytes, each O(1) per byte for the
 *    built-in rules.
 *
 * Overlapping and adjacent spans merge into one marker named after the span that starts
 * first (ties: the rule listed first: known values, then user rules, then built-ins). The
 * marker is emitted as soon as its start is decided; later bytes of the span are swallowed.
 *
 * @example
 * ```ts
 * import { createRedactor } from "@spool/transforms";
 * const redactor = createRedactor({ knownValues: ["hunter2-hunter2"] });
 * redactor.push([Buffer.from("pw=hunt")]);   // [<"pw=">] ("hunt" may start the secret: held)
 * redactor.push([Buffer.from("er2-hunter2\n")]); // [<"[REDACTED:known-value]">, <"\n">]
 * redactor.counters.redactions; // 1
 * ```
 */
import { SpoolError, type Stage } from "@spool/core/runtime";
import {
  type Automaton,
  FLAG_ANCHOR,
  FLAG_OUTPUT,
  FLAG_WS_END,
  isWhitespaceByte,
} from "./aho-corasick.js";
import {
  type CompiledAnchor,
  type CompiledRedaction,
  compileRedaction,
  type HeldText,
  isCompiledRedaction,
  type RedactionOptions,
} from "./compile-redaction.js";
import { type Candidate, Verdict } from "./rule.js";

export const REDACTOR = "redactor";

/** One piece of output and the input range it stands for (for tests and tracing). */
export interface TraceSegment {
  readonly kind: "raw" | "redacted" | "omitted";
  /** Input offsets `[start, end)`. */
  readonly start: number;
  readonly end: number;
  /** Rule name of a redaction. */
  readonly rule?: string;
}

export interface RedactorStageOptions {
  /** Called for every output segment, in output order. @default undefined */
  readonly trace?: (segment: TraceSegment) => void;
  /**
   * Let candidates consume runs of bytes through their `skip` fast path. `false` feeds
   * every byte to `next`; the output is the same either way (tests compare the two).
   * @default true
   */
  readonly skip?: boolean;
}

export interface RedactorStage extends Stage {
  readonly window: number;
  readonly counters: { readonly redactions: number; readonly omissions: number };
}

/** A live candidate of a matcher or pattern rule. */
interface Live {
  /** `null` once the candidate overran its declared hold and fails closed to whitespace. */
  cand: Candidate | null;
  readonly rule: number;
  /** Absolute offset of the anchor's first byte. */
  readonly at: number;
  /** Absolute offset of the first byte it may still claim. */
  front: number;
  readonly maxLength: number;
  /** Absolute offset of the next byte it is fed. */
  next: number;
  /** The last verdict `next` returned (`Hold` or `Redact`), or -1 before the first. */
  last: number;
}

/**
 * Build a redactor stage from options or from rules compiled once with
 * {@link compileRedaction} (share those between stdout, stderr and labels).
 */
export function createRedactor(
  source: RedactionOptions | CompiledRedaction = {},
  options: RedactorStageOptions = {},
): RedactorStage {
  const compiled = isCompiledRedaction(source) ? source : compileRedaction(source);
  const { window: W, exact, folded, ruleNames, exactAnchors, foldedAnchors } = compiled;
  const trace = options.trace;
  const useSkip = options.skip ?? true;

  const cls1 = exact.classOf;
  const D1 = exact.denseStates;
  const flags1 = exact.flags;
  const step1 = exact.step;
  const cls2 = folded.classOf;
  const K2 = folded.classes;
  const dense2 = folded.dense;
  const flags2 = folded.flags;
  const markers = ruleNames.map((name) => Buffer.from(`[REDACTED:${name}]`, "latin1"));

  // Input already seen, kept in a ring: the held bytes and one byte before them (for
  // anchors' word-boundary checks).
  const ringSize = nextPowerOfTwo(W + 2);
  const ringMask = ringSize - 1;
  const ring = new Uint8Array(ringSize);
  // Whitespace runs inside the exact automaton's state: the total extra bytes of all runs
  // (a run of n bytes is one symbol plus n - 1 extra bytes) when each recent run started.
  const runsSize = nextPowerOfTwo(exact.maxWsCount + 2);
  const runStartExtra = new Float64Array(runsSize);
  let runCount = 0;
  let extraTotal = 0;

  let pos = 0; // input bytes consumed
  let c = 0; // output cursor: everything before it is emitted or swallowed
  let open = false; // a span whose marker is out still swallows bytes from c on
  let openStart = 0;
  let openRule = 0;
  let s1 = 0;
  let s2 = 0;
  let live: Live[] = [];
  const spanStart: number[] = [];
  const spanEnd: number[] = [];
  const spanRule: number[] = [];
  let dropping = false;
  let dropStart = 0;
  let dropCount = 0;
  let deadline = W;
  let chunk: Uint8Array = EMPTY;
  let chunkBase = 0;
  let out: Uint8Array[] = [];
  let ended = false;
  const scanState = new Int32Array(4);
  const scan = folded.states > 1 ? scanBoth : scanExact;
  // The last raw view pushed, to extend it rather than push a neighbour.
  let rawChunk: Uint8Array = EMPTY;
  let rawPiece: Uint8Array = EMPTY;
  let rawStart = -1;
  let rawEnd = -1;
  const counters = { redactions: 0, omissions: 0 };

  const byteAt = (p: number): number =>
    p >= chunkBase ? chunk[p - chunkBase]! : ring[p & ringMask]!;

  const held: HeldText = {
    latin1(start, end) {
      const bytes = Buffer.allocUnsafe(Math.max(0, end - start));
      for (let p = start; p < end; p++) bytes[p - start] = byteAt(p);
      return bytes.toString("latin1");
    },
  };

  /** Extra bytes of the last `runs` whitespace runs. */
  const extraOf = (runs: number): number =>
    runs === 0 ? 0 : extraTotal - runStartExtra[(runCount - runs) & (runsSize - 1)]!;

  const exactFrontier = (): number => pos - exact.depth[s1]! - extraOf(exact.wsCount[s1]!);

  const frontier = (): number => {
    let f = exactFrontier();
    const f2 = pos - folded.depth[s2]!;
    if (f2 < f) f = f2;
    for (const l of live) if (l.front < f) f = l.front;
    return f;
  };

  const emitRaw = (from: number, to: number) => {
    if (to <= from) return;
    if (from < chunkBase) {
      const end = Math.min(to, chunkBase);
      const piece = new Uint8Array(end - from);
      const a = from & ringMask;
      const first = Math.min(piece.length, ringSize - a);
      piece.set(ring.subarray(a, a + first), 0);
      if (first < piece.length) piece.set(ring.subarray(0, piece.length - first), first);
      out.push(piece);
    }
    if (to > chunkBase) {
      const start = Math.max(from, chunkBase);
      // Consecutive raw ranges of one chunk go out as one view (checks split them every window).
      if (
        start === rawEnd &&
        rawChunk === chunk &&
        out.length > 0 &&
        out[out.length - 1] === rawPiece
      ) {
        rawPiece = chunk.subarray(rawStart - chunkBase, to - chunkBase);
        out[out.length - 1] = rawPiece;
      } else {
        rawStart = start;
        rawPiece = chunk.subarray(start - chunkBase, to - chunkBase);
        out.push(rawPiece);
      }
      rawChunk = chunk;
      rawEnd = to;
    }
    trace?.({ kind: "raw", start: from, end: to });
  };

  const closeOpen = () => {
    open = false;
    trace?.({ kind: "redacted", start: openStart, end: c, rule: ruleNames[openRule]! });
  };

  /** Swallow pending spans that now touch the open span. */
  const absorb = () => {
    while (spanStart.length > 0 && spanStart[0]! <= c) {
      if (spanEnd[0]! > c) c = spanEnd[0]!;
      spanStart.shift();
      spanEnd.shift();
      spanRule.shift();
    }
  };

  const addSpan = (start: number, end: number, rule: number) => {
    if (end <= start) return;
    if (open && start <= c) {
      if (end > c) {
        c = end;
        absorb();
      }
      return;
    }
    if (start < c)
      throw new SpoolError("SPOOL_E_STAGE", REDACTOR, "internal: a span reaches emitted bytes");
    // Spans are sorted and disjoint (ends increase), and new ones mostly come last:
    // search from the end, so many redactions in one chunk stay linear.
    let i = spanStart.length;
    while (i > 0 && spanEnd[i - 1]! >= start) i--;
    if (i < spanStart.length && spanStart[i]! <= end) {
      let s = spanStart[i]!;
      let e = Math.max(spanEnd[i]!, end);
      let r = spanRule[i]!;
      if (start < s || (start === s && rule < r)) r = rule;
      if (start < s) s = start;
      let j = i + 1;
      while (j < spanStart.length && spanStart[j]! <= e) {
        if (spanEnd[j]! > e) e = spanEnd[j]!;
        j++;
      }
      if (j === i + 1) {
        // The common case, a span growing byte by byte: update it in place.
        spanStart[i] = s;
        spanEnd[i] = e;
        spanRule[i] = r;
      } else {
        spanStart.splice(i, j - i, s);
        spanEnd.splice(i, j - i, e);
        spanRule.splice(i, j - i, r);
      }
    } else if (i === spanStart.length) {
      spanStart.push(start);
      spanEnd.push(end);
      spanRule.push(rule);
    } else {
      spanStart.splice(i, 0, start);
      spanEnd.splice(i, 0, end);
      spanRule.splice(i, 0, rule);
    }
  };

  /** Hand on everything decided before `f` (everything at all when `final`). */
  const flush = (f: number, final: boolean) => {
    for (;;) {
      if (open) {
        if (!final && f <= c) return;
        closeOpen();
      }
      if (spanStart.length > 0 && (final || spanStart[0]! < f)) {
        emitRaw(c, spanStart[0]!);
        const rule = spanRule[0]!;
        out.push(markers[rule]!.slice());
        counters.redactions++;
        open = true;
        openStart = spanStart[0]!;
        openRule = rule;
        c = spanEnd[0]!;
        spanStart.shift();
        spanEnd.shift();
        spanRule.shift();
        absorb();
        continue;
      }
      const to = final ? pos : f;
      if (to > c) {
        emitRaw(c, to);
        c = to;
      }
      return;
    }
  };

  const resetMatching = () => {
    s1 = 0;
    s2 = 0;
    live = [];
    spanStart.length = 0;
    spanEnd.length = 0;
    spanRule.length = 0;
    runCount = 0;
    extraTotal = 0;
  };

  /** The bytes after the cursor reached the window undecided: omit them, drop to whitespace. */
  const omit = () => {
    if (open) closeOpen();
    dropping = true;
    dropStart = c;
    dropCount = pos - c;
    c = pos;
    resetMatching();
  };

  const endDrop = () => {
    out.push(Buffer.from(`[OMITTED:${dropCount} bytes undecidable]`, "latin1"));
    trace?.({ kind: "omitted", start: dropStart, end: pos });
    counters.omissions++;
    dropping = false;
    c = pos;
    deadline = pos + W;
  };

  /** At the deadline: settle, then enforce the window exactly at this byte. */
  const check = () => {
    let f = frontier();
    flush(f, false);
    if (pos - Math.min(c, f) >= W) {
      if (pos - c >= W) {
        omit();
        return;
      }
      // Only candidates that started inside an open span are that old: drop them (the
      // span they would extend is already redacted).
      const limit = pos - W;
      while (s1 !== 0 && exactFrontier() <= limit) s1 = exact.fail[s1]!;
      while (s2 !== 0 && pos - folded.depth[s2]! <= limit) s2 = folded.fail[s2]!;
      live = live.filter((l) => l.front > limit);
      f = frontier();
    }
    deadline = Math.min(c, f) + W;
  };

  const spawn = (
    anchors: readonly CompiledAnchor[],
    ids: Int32Array,
    from: number,
    to: number,
    lengthOf: (id: number) => number,
  ) => {
    for (let j = from; j < to; j++) {
      const id = ids[j]!;
      const anchor = anchors[id]!;
      settle(anchor.rule);
      const length = lengthOf(id);
      const at = pos - length;
      const before = at > 0 ? byteAt(at - 1) : -1;
      const cand = anchor.start({ anchor: anchor.anchor, length, before }, held, at);
      if (cand === undefined) continue;
      live.push({
        cand,
        rule: anchor.rule,
        at,
        front: clampFront(at + cand.from, at, pos),
        maxLength: anchor.maxLength,
        next: pos,
        last: -1,
      });
    }
  };
  /**
   * Before a candidate of `rule` starts: feed the rule's live candidates up to here and keep
   * one per state key, so anchors repeated inside a run being redacted (`token=token=…`)
   * cost O(1) candidates, not one per occurrence (linear time; output unchanged, see
   * `Candidate.stateKey`).
   */
  const settle = (rule: number) => {
    let kept = 0;
    for (let k = 0; k < live.length; k++) {
      const l = live[k]!;
      if (l.rule === rule && ((l.next < pos && !feed(l, pos - chunkBase)) || duplicate(l, kept)))
        continue;
      live[kept++] = l;
    }
    live.length = kept;
  };

  /** True when `l` has the state of a live candidate among `live[0 .. kept)` of its rule. */
  const duplicate = (l: Live, kept: number): boolean => {
    const key = l.cand === null ? -1 : l.cand.stateKey?.();
    if (key === undefined) return false;
    for (let k = 0; k < kept; k++) {
      const o = live[k]!;
      if (o.rule !== l.rule || o.next !== l.next || o.front !== l.front) continue;
      if ((o.cand === null ? -1 : o.cand.stateKey?.()) === key) return true;
    }
    return false;
  };

  const exactAnchorLength = (id: number) => exact.anchorLength[id]! + extraOf(exact.anchorWs[id]!);
  const foldedAnchorLength = (id: number) => folded.anchorLength[id]!;

  /** Events of the byte just consumed (at `pos - 1`), entered from state `prev`. */
  const events = (prev: number) => {
    const f1 = flags1[s1]!;
    if ((f1 & FLAG_WS_END) !== 0) {
      if (s1 === prev) extraTotal++;
      else runStartExtra[runCount++ & (runsSize - 1)] = extraTotal;
    }
    if ((f1 & FLAG_OUTPUT) !== 0) {
      const length = exact.outLength[s1]! + extraOf(exact.outWs[s1]!);
      addSpan(pos - length, pos, exact.outLiteral[s1]!);
    }
    if ((f1 & FLAG_ANCHOR) !== 0) {
      spawn(
        exactAnchors,
        exact.anchorIds,
        exact.anchorStart[s1]!,
        exact.anchorStart[s1 + 1]!,
        exactAnchorLength,
      );
    }
    if ((flags2[s2]! & FLAG_ANCHOR) !== 0) {
      spawn(
        foldedAnchors,
        folded.anchorIds,
        folded.anchorStart[s2]!,
        folded.anchorStart[s2 + 1]!,
        foldedAnchorLength,
      );
    }
  };

  // A redaction of the candidate being fed, not yet added: its consecutive spans are
  // added as one (spans merge anyway, and nothing is flushed while candidates are fed).
  let pendingFrom = 0;
  let pendingTo = 0;
  const pend = (start: number, end: number, rule: number) => {
    if (end <= start) return;
    if (pendingTo > pendingFrom && start <= pendingTo && end >= pendingFrom) {
      if (start < pendingFrom) pendingFrom = start;
      if (end > pendingTo) pendingTo = end;
      return;
    }
    if (pendingTo > pendingFrom) addSpan(pendingFrom, pendingTo, rule);
    pendingFrom = start;
    pendingTo = end;
  };

  /**
   * Feed candidate `l` the bytes from its next one up to `end` (an index in the chunk);
   * false once it is done. Candidates are independent of each other and of the automaton
   * until the next flush (spans only accumulate), so each is fed its bytes in one go.
   */
  const feed = (l: Live, end: number): boolean => {
    const input = chunk;
    const base = chunkBase;
    const rule = l.rule;
    let i = l.next - base;
    let alive = true;
    pendingFrom = 0;
    pendingTo = 0;
    while (i < end) {
      const cand = l.cand;
      if (cand === null) {
        // Failed closed: redacted through the next whitespace byte (which ends it).
        let j = i;
        while (j < end && !isWhitespaceByte(input[j]!)) j++;
        if (j > i) {
          pend(base + i, base + j, rule);
          l.front = base + j;
        }
        i = j;
        if (j < end) {
          i = j + 1;
          alive = false;
        }
        break;
      }
      const last = l.last;
      if (last >= 0 && useSkip && cand.skip !== undefined) {
        // A held run may not pass the hold limit: the byte that would goes through `next`.
        const limit = last === Verdict.Hold ? Math.min(end, l.front + l.maxLength - base) : end;
        const j = cand.skip(input, i, limit);
        if (j > i) {
          if (last === Verdict.Hold) {
            l.front = clampFront(l.at + cand.from, l.front, base + j);
          } else {
            pend(l.front, base + j, rule);
            l.front = base + j;
          }
          i = j;
          continue;
        }
      }
      const p = base + i;
      const verdict = cand.next(input[i]!);
      i++;
      if (verdict === Verdict.Hold) {
        l.front = clampFront(l.at + cand.from, l.front, p + 1);
        l.last = Verdict.Hold;
        if (p + 1 - l.front > l.maxLength) {
          pend(l.front, p + 1, rule);
          l.cand = null;
          l.front = p + 1;
        }
        continue;
      }
      if (verdict === Verdict.Redact) {
        pend(clampFront(l.at + cand.from, l.front, p), p + 1, rule);
        l.front = p + 1;
        l.last = Verdict.Redact;
        continue;
      }
      if (verdict === Verdict.Close) {
        const start = clampFront(l.at + cand.from, l.front, p + 1);
        const stop = cand.to === undefined ? p : Math.min(p + 1, l.at + cand.to);
        pend(start, stop, rule);
      }
      alive = false;
      break;
    }
    if (pendingTo > pendingFrom) addSpan(pendingFrom, pendingTo, rule);
    pendingFrom = 0;
    pendingTo = 0;
    l.next = base + i;
    return alive;
  };

  const processChunk = (input: Uint8Array) => {
    chunk = input;
    chunkBase = pos;
    const n = input.length;
    let i = 0;
    for (;;) {
      if (!dropping && pos >= deadline) check();
      if (i >= n) break;
      if (dropping) {
        const from = i;
        while (i < n && !isWhitespaceByte(input[i]!)) i++;
        dropCount += i - from;
        pos = chunkBase + i;
        if (i < n) endDrop();
        continue;
      }
      // Up to the next deadline nothing is flushed: run the automata over the whole stretch
      // (spawning candidates at anchors), then feed every live candidate its bytes.
      const end = Math.min(n, deadline - chunkBase);
      while (i < end) {
        if (s1 < D1) {
          // The hot loop: two table lookups per byte until something happens.
          i = scan(input, i, end, s1, s2, exact, folded, scanState);
          s1 = scanState[0]!;
          s2 = scanState[1]!;
          pos = chunkBase + i;
          if (scanState[3] === 1) events(scanState[2]!);
          continue;
        }
        const byte = input[i]!;
        const prev = s1;
        s1 = step1(s1, cls1[byte]!);
        s2 = dense2[s2 * K2 + cls2[byte]!]!;
        i++;
        pos = chunkBase + i;
        if ((flags1[s1]! | flags2[s2]!) !== 0) events(prev);
      }
      if (live.length > 0) {
        let kept = 0;
        for (let k = 0; k < live.length; k++) {
          const l = live[k]!;
          if (feed(l, end) && !duplicate(l, kept)) live[kept++] = l;
        }
        if (kept !== live.length) live.length = kept;
      }
    }
    if (!dropping) {
      const f = frontier();
      flush(f, false);
      deadline = Math.min(c, f) + W;
      // Keep what is held, and one byte before it, for the next chunk.
      const keep = Math.max(chunkBase, Math.min(c, f) - 1);
      for (let p = keep; p < pos; ) {
        const at = p & ringMask;
        const len = Math.min(pos - p, ringSize - at);
        ring.set(input.subarray(p - chunkBase, p - chunkBase + len), at);
        p += len;
      }
    }
    chunk = EMPTY;
    chunkBase = pos;
  };

  return {
    name: REDACTOR,
    transform: "redact",
    window: W,
    get held() {
      return dropping ? 0 : pos - Math.min(c, frontier());
    },
    get counters() {
      return counters;
    },
    push(batch) {
      if (ended) throw new SpoolError("SPOOL_E_STAGE", REDACTOR, "push after end");
      out = [];
      for (const input of batch) if (input.byteLength > 0) processChunk(input);
      return out;
    },
    end() {
      if (ended) return [];
      ended = true;
      out = [];
      if (dropping) {
        endDrop();
        return out;
      }
      for (const l of live) {
        if (l.cand === null) continue;
        const verdict = l.cand.end();
        if (verdict === Verdict.Close || verdict === Verdict.Redact) {
          const start = clampFront(l.at + l.cand.from, l.front, pos);
          const end = l.cand.to === undefined ? pos : Math.min(pos, l.at + l.cand.to);
          addSpan(start, end, l.rule);
        }
      }
      live = [];
      flush(pos, true);
      if (open) closeOpen();
      return out;
    },
  };
}

const EMPTY = new Uint8Array(0);

/**
 * Run both automata over `input[i .. limit)` until a state with a flag (or without a dense
 * row) is entered. States travel as row offsets with flags in the sign bit, so each byte
 * costs one load and one sign test per automaton; kept a small top-level function so the
 * engine optimises it on its own. Writes the two states, the exact automaton's previous
 * state and whether a flag stopped it to `result`; returns the index after the last byte.
 */
function scanBoth(
  input: Uint8Array,
  from: number,
  limit: number,
  state1: number,
  state2: number,
  exact: Automaton,
  folded: Automaton,
  result: Int32Array,
): number {
  const cls1 = exact.classOf;
  const K1 = exact.classes;
  const code1 = exact.code;
  const cls2 = folded.classOf;
  const K2 = folded.classes;
  const code2 = folded.code;
  let a = state1 * K1;
  let b = state2 * K2;
  let i = from;
  while (i < limit) {
    const byte = input[i]!;
    const x = code1[a + cls1[byte]!]!;
    const y = code2[b + cls2[byte]!]!;
    i++;
    if ((x | y) < 0) {
      result[0] = (x < 0 ? ~x : x) / K1;
      result[1] = (y < 0 ? ~y : y) / K2;
      result[2] = a / K1;
      result[3] = 1;
      return i;
    }
    a = x;
    b = y;
  }
  result[0] = a / K1;
  result[1] = b / K2;
  result[2] = a / K1;
  result[3] = 0;
  return i;
}

/** {@link scanBoth} when no rule has case-insensitive anchors: one lookup per byte. */
function scanExact(
  input: Uint8Array,
  from: number,
  limit: number,
  state1: number,
  _state2: number,
  exact: Automaton,
  _folded: Automaton,
  result: Int32Array,
): number {
  const cls1 = exact.classOf;
  const K1 = exact.classes;
  const code1 = exact.code;
  let a = state1 * K1;
  let i = from;
  while (i < limit) {
    const x = code1[a + cls1[input[i]!]!]!;
    i++;
    if (x < 0) {
      result[0] = ~x / K1;
      result[1] = 0;
      result[2] = a / K1;
      result[3] = 1;
      return i;
    }
    a = x;
  }
  result[0] = a / K1;
  result[1] = 0;
  result[2] = a / K1;
  result[3] = 0;
  return i;
}

function clampFront(value: number, low: number, high: number): number {
  if (!(value >= low)) return low;
  return Math.min(value, high);
}

function nextPowerOfTwo(n: number): number {
  let size = 1;
  while (size < n) size *= 2;
  return size;
}
