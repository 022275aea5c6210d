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
 * 4. **Linear time.** A start filter (`start-filter.ts`) looks at the input where no
 *    literal or anchor can start, O(1) a byte; from where one may, the automata (see
 *    `aho-corasick.ts`) take one step a byte for all of them until they are shallow again,
 *    after replaying at most three bytes; only live candidates see bytes, each O(1) per
 *    byte for the built-in rules.
 *
 * Overlapping and adjacent spans merge into one marker named after the span that starts
 * first (ties: the rule listed first: known values, then user rules, then built-ins). The
 * marker is emitted as soon as its start is decided; later bytes of the span are swallowed.
 *
 * The parts, one a file: this one runs the start filter and the automata over each chunk
 * (the hot loop) and decides what to flush; `start-filter.ts` builds the filter's tables; `input-ring.ts` keeps the bytes still held; `span-queue.ts` the
 * spans decided but not yet emitted; `candidate-set.ts` the live candidates of matcher and
 * pattern rules; `output-cursor.ts` what was handed on and the open span that swallows;
 * `fail-closed.ts` the drop to whitespace behind an omission; `whitespace-runs.ts` the
 * bytes of the whitespace runs a multi-line literal spans; `base64-runs.ts` the base64
 * runs, held like candidates and decoded for a nested, non-decoding redactor. Comments
 * name the invariant (1–4 above) a line protects where that is not obvious.
 *
 * @example
 * ```ts
 * import { createRedactor } from "@spool/transforms";
 * const redactor = createRedactor({ knownValues: ["hunter2-hunter2"] });
 * redactor.push([Buffer.from("pw=hunt")]);   // [<"pw=">] ("hunt" may start the secret: held)
 * redactor.push([Buffer.from("er2-hunter2\n")]); // [<"[REDACTED:known-value]\n">]
 * redactor.counters.redactions; // 1
 * ```
 */
import { type Batch, SpoolError, type Stage } from "@spool/core/runtime";
import { type Automaton, FLAG_ANCHOR, FLAG_OUTPUT, FLAG_WS_END } from "./aho-corasick.js";
import type { RunFinder } from "./alphabet-runs.js";
import { Base64Runs } from "./base64-runs.js";
import { type ByteScan, byteScanOf, nextChunkSerial } from "./byte-scan.js";
import { CandidateSet } from "./candidate-set.js";
import {
  type CompiledAnchor,
  type CompiledRedaction,
  compileRedaction,
  isCompiledRedaction,
  type RedactionOptions,
} from "./compile-redaction.js";
import { FailClosedDrop } from "./fail-closed.js";
import { HexRuns } from "./hex-runs.js";
import { InputRing, LOOKBEHIND } from "./input-ring.js";
import { OutputCursor, type TraceSegment } from "./output-cursor.js";
import { type Repeat, RepeatedSecrets } from "./repeated-secrets.js";
import { SpanQueue } from "./span-queue.js";
import type { StartFilter } from "./start-filter.js";
import { WhitespaceRuns } from "./whitespace-runs.js";

/**
 * The redactor stage's name, e.g. to find it in a plan.
 *
 * @category redaction
 * @example
 * ```ts
 * import { createRedactor, REDACTOR } from "@spool/transforms";
 * createRedactor().name === REDACTOR; // true
 * ```
 */
export const REDACTOR = "redactor";

export type { TraceSegment } from "./output-cursor.js";

/**
 * How a redactor stage runs (what it redacts is {@link RedactionOptions}).
 *
 * @category redaction
 * @example
 * ```ts
 * import { createRedactor, type RedactorStageOptions } from "@spool/transforms";
 * const options: RedactorStageOptions = { decodeBase64: false };
 * const redactor = createRedactor({}, options);
 * ```
 */
export interface RedactorStageOptions {
  /** Called for every output segment, in output order, with the input range it stands for. @default undefined */
  readonly trace?: (segment: TraceSegment) => void;
  /**
   * Let candidates consume runs of bytes through their `skip` fast path. `false` feeds
   * every byte to `next`; the output is the same either way (tests compare the two).
   * @default true
   */
  readonly skip?: boolean;
  /**
   * Skip the automata where the start filter shows no needle can start (`start-filter.ts`).
   * `false` walks both automata over every byte; the output is the same either way (tests
   * compare the two). @default true
   */
  readonly startFilter?: boolean;
  /**
   * Run the start filter's scan and the search for base64 and hex runs as WebAssembly where
   * the runtime has it (`byte-scan.ts`).
   * `false` runs it as JavaScript; the output is the same either way (tests compare the
   * two). @default true
   */
  readonly wasmScan?: boolean;
  /**
   * Decode base64 and base64url runs and scan the decoded bytes with the same rules (see
   * `base64-runs.ts`); a hit redacts the whole run. @default true
   */
  readonly decodeBase64?: boolean;
  /**
   * Redact a secret a rule redacted again where the stream repeats it later on its own
   * (see `repeated-secrets.ts`; not without the base64 view, whose runs it reads, nor with
   * a window under 1 KiB, which could not hold a run back). @default true
   */
  readonly repeats?: boolean;
}

/** The smallest window that repeats are looked for with (see `RedactorStageOptions.repeats`). */
const REPEATS_WINDOW = 1024;

/**
 * A redactor as a stage: it holds at most `window` bytes, and counts its redactions and
 * omissions (both reported in the receipt).
 *
 * @category redaction
 * @example
 * ```ts
 * import { runStage } from "@spool/core";
 * import { createRedactor } from "@spool/transforms";
 * const redactor = createRedactor({ knownValues: ["hunter2hunter2"] });
 * runStage(redactor, [Buffer.from("pw=hunter2hunter2\n")]).toString(); // "pw=[REDACTED:known-value]\n"
 * redactor.counters.redactions; // 1
 * ```
 */
export interface RedactorStage extends Stage {
  readonly window: number;
  readonly counters: RedactorCounters;
  /** Redactions per rule name (rules that redacted only; see `OutputCursor.redactionsByRule`). */
  readonly namedCounters: Readonly<Record<string, number>>;
  /**
   * Where the scan stopped, for benchmarks: `filterStops`, times the start filter handed
   * bytes to the automata; `anchorStarts`, anchor occurrences that started (or tried to
   * start) a candidate.
   */
  readonly scanCounters: ScanCounters;
}

/**
 * How often a redactor's scan stopped (see {@link RedactorStage.scanCounters}).
 *
 * @category redaction
 * @example
 * ```ts
 * import { createRedactor, type ScanCounters } from "@spool/transforms";
 * const redactor = createRedactor();
 * redactor.push([Buffer.from("token=abc\n")]);
 * const stops: ScanCounters = redactor.scanCounters; // { filterStops: 1, anchorStarts: 1 }
 * ```
 */
export interface ScanCounters {
  readonly filterStops: number;
  readonly anchorStarts: number;
}

/**
 * What a redactor counts: redactions and omissions, the input bytes they removed and the
 * marker bytes written in their place (the receipt's `redactedBytes` and `markerBytes`).
 *
 * @category redaction
 * @example
 * ```ts
 * import { createRedactor, type RedactorCounters } from "@spool/transforms";
 * const redactor = createRedactor({ knownValues: ["hunter2hunter2"] });
 * redactor.push([Buffer.from("pw=hunter2hunter2\n")]);
 * redactor.end();
 * const counters: RedactorCounters = redactor.counters; // redactedBytes 14, markerBytes 22
 * ```
 */
export interface RedactorCounters {
  readonly redactions: number;
  readonly omissions: number;
  readonly redactedBytes: number;
  readonly markerBytes: number;
}

/** Input bytes after which the redactor scans with {@link Automaton.densified}. */
const DENSIFY_AFTER = 1024 * 1024;

/**
 * Deepest partial match (in bytes) the scan hands back to the start filter: the filter
 * looks three bytes back (its keys are a needle's first four bytes).
 */
const FILTER_DEPTH = 3;

/** What the redactor does with the next input byte. */
const Phase = {
  /** Run the automata and the candidates, hand on what is decided. */
  Matching: 0,
  /** Fail closed: drop input to the next whitespace byte, counting it (invariant 3). */
  FailingClosed: 1,
  /** `end` was called. */
  Ended: 2,
} as const;
type Phase = (typeof Phase)[keyof typeof Phase];

/**
 * Build a redactor stage from options or from rules compiled once with
 * {@link compileRedaction} (share those between stdout, stderr and labels). Throws
 * `SPOOL_E_OPTIONS` for a malformed rule, `SPOOL_E_REDACT_VALUE` for a known value too
 * short to redact safely.
 *
 * @category redaction
 * @example
 * ```ts
 * import { runStage } from "@spool/core";
 * import { createRedactor } from "@spool/transforms";
 * const redactor = createRedactor({ knownValues: ["hunter2hunter2"] });
 * runStage(redactor, [Buffer.from("pass hunter2hun"), Buffer.from("ter2 ok\n")]).toString(); // "pass [REDACTED:known-value] ok\n"
 * ```
 */
export function createRedactor(
  source: RedactionOptions | CompiledRedaction = {},
  options: RedactorStageOptions = {},
): RedactorStage {
  const compiled = isCompiledRedaction(source) ? source : compileRedaction(source);
  return new DeferredRedactor(compiled, options);
}

const NO_COUNTERS: RedactorCounters = {
  redactions: 0,
  omissions: 0,
  redactedBytes: 0,
  markerBytes: 0,
};
const NO_SCAN_COUNTERS: ScanCounters = { filterStops: 0, anchorStarts: 0 };

/**
 * The redactor, created on the first bytes pushed: until then the rules' automaton need
 * not exist, so `spool run` with no output never builds it (start-up).
 */
class DeferredRedactor implements RedactorStage {
  readonly name = REDACTOR;
  readonly transform = "redact";
  readonly window: number;
  private stage: Redactor | null = null;
  private endedEmpty = false;

  constructor(
    private readonly compiled: CompiledRedaction,
    private readonly options: RedactorStageOptions,
  ) {
    this.window = compiled.window;
  }

  get held(): number {
    return this.stage?.held ?? 0;
  }

  get counters(): RedactorCounters {
    return this.stage?.counters ?? NO_COUNTERS;
  }

  get namedCounters(): Readonly<Record<string, number>> {
    return this.stage?.namedCounters ?? {};
  }

  get scanCounters(): ScanCounters {
    return this.stage?.scanCounters ?? NO_SCAN_COUNTERS;
  }

  push(batch: Batch): Uint8Array[] {
    if (this.endedEmpty) throw new SpoolError("SPOOL_E_STAGE", REDACTOR, "push after end");
    this.stage ??= new Redactor(this.compiled, this.options);
    return this.stage.push(batch);
  }

  end(): Uint8Array[] {
    if (this.stage) return this.stage.end();
    this.endedEmpty = true;
    return [];
  }
}

/**
 * The orchestration: bytes go through the automata (spans for literals, candidates at
 * anchors), candidates are fed, and at every chunk end and window deadline whatever lies
 * before the frontier is flushed to the output.
 */
class Redactor implements RedactorStage {
  readonly name = REDACTOR;
  readonly transform = "redact";
  readonly window: number;
  private exact: Automaton;
  private readonly folded: Automaton;
  private readonly exactAnchors: readonly CompiledAnchor[];
  private readonly foldedAnchors: readonly CompiledAnchor[];
  private readonly input: InputRing;
  private readonly output: OutputCursor;
  private readonly spans = new SpanQueue();
  private readonly candidates: CandidateSet;
  private readonly wsRuns: WhitespaceRuns;
  private readonly drop = new FailClosedDrop();
  /** Base64 runs, decoded and scanned beside the automata (`null`: not decoded). */
  private readonly base64: Base64Runs | null;
  /** Hex runs, decoded and walked for known values (`null`: no known value needs it). */
  private readonly hex: HexRuns | null;
  /** Secrets redacted so far, looked for again in what is handed on (`null`: not looked for). */
  private readonly repeats: RepeatedSecrets | null;
  private readonly repeat: Repeat = { start: 0, end: 0, rule: 0 };
  /** Bytes rules may claim before their anchors, held back behind a partial match. */
  private readonly lead: CompiledRedaction["lead"];
  private readonly scan: typeof scanBoth;
  private readonly scanResult = new Int32Array(4);
  private readonly byteScan: ByteScan;
  /** The views' search for runs, in the chunk being processed. */
  private readonly findRun: RunFinder = (chunk, from, end, alphabet, min) =>
    this.byteScan.findRun(chunk, this.serial, from, end, alphabet, min);
  /** The chunk being processed, as the byte scans name it ({@link nextChunkSerial}). */
  private serial = 0;
  private readonly filter: StartFilter;
  /** False: never hand over to the filter (`RedactorStageOptions.startFilter`). */
  private readonly useFilter: boolean;
  /** States below these have partial matches of at most {@link FILTER_DEPTH} symbols (breadth order). */
  private readonly exactShallow: number;
  private readonly foldedShallow: number;
  /**
   * True while the start filter scans instead of the automata (see `start-filter.ts`): both
   * automata are then at the root, and only the last three bytes (`key`) may still start a
   * needle.
   */
  private filtering = false;
  /** The last three bytes before `pos` (the latest lowest), while filtering. */
  private key = 0;
  /** The last three bytes before the chunk being processed. */
  private tail = 0;
  /** Where the automata last started afresh (the start, the end of a fail-closed drop). */
  private resetAt = 0;
  /** Times the filter stopped and handed the bytes to the automata. */
  private stops = 0;
  private phase: Phase = Phase.Matching;
  /** Input bytes consumed. */
  private pos = 0;
  /** The automata's states after `pos` bytes. */
  private exactState = 0;
  private foldedState = 0;
  /** Input offset where the window is next enforced; nothing is flushed before it. */
  private deadline: number;

  constructor(compiled: CompiledRedaction, options: RedactorStageOptions) {
    const { window, exact, folded, ruleNames } = compiled;
    this.window = window;
    this.deadline = window;
    // Rules shared by many streams: once one stream has paid for the dense rows, the
    // others use them from the start (the same state numbers either way).
    this.exact = exact.densest();
    this.folded = folded;
    this.exactAnchors = compiled.exactAnchors;
    this.foldedAnchors = compiled.foldedAnchors;
    this.input = new InputRing(window);
    this.output = new OutputCursor(this.input, markersOf(compiled), ruleNames, options.trace);
    this.candidates = new CandidateSet(
      this.input,
      (start, end, rule) => this.addSpan(start, end, rule),
      options.skip ?? true,
      () => this.output.at,
    );
    this.lead = compiled.lead;
    this.wsRuns = new WhitespaceRuns(exact.maxWsCount);
    this.scan = folded.states > 1 ? scanBoth : scanExact;
    this.filter = compiled.startFilter;
    this.useFilter = options.startFilter ?? true;
    this.byteScan = byteScanOf(this.filter, options.wasmScan ?? true);
    this.exactShallow = shallowStates(exact);
    this.foldedShallow = shallowStates(folded);
    const decodes = options.decodeBase64 !== false;
    const repeats =
      (options.repeats ?? true) && decodes && window >= REPEATS_WINDOW
        ? new RepeatedSecrets(compiled.ruleNames)
        : null;
    this.repeats = repeats;
    this.base64 = decodes
      ? new Base64Runs(
          this.input,
          window,
          compiled.base64Rule,
          compiled.secretKeyRule,
          this.addSpanOf,
          (decoded) => findsSecret(compiled, decoded),
          (start, end, rule) => this.redacted(start, end, rule),
          repeats === null ? null : (start, end) => repeats.noteRun(start, end),
        )
      : null;
    this.hex = compiled.hexView ? new HexRuns(this.input, window, exact, this.addSpanOf) : null;
  }

  get held(): number {
    if (this.phase === Phase.FailingClosed) return 0;
    return this.pos - Math.min(this.output.at, this.frontier());
  }

  get counters(): RedactorCounters {
    return this.output.counters;
  }

  get namedCounters(): Readonly<Record<string, number>> {
    return this.output.redactionsByRule();
  }

  get scanCounters(): ScanCounters {
    return { filterStops: this.stops, anchorStarts: this.candidates.starts };
  }

  push(batch: Batch): Uint8Array[] {
    if (this.phase === Phase.Ended)
      throw new SpoolError("SPOOL_E_STAGE", REDACTOR, "push after end");
    this.output.beginPush();
    for (const chunk of batch) if (chunk.byteLength > 0) this.processChunk(chunk);
    return this.output.pieces;
  }

  end(): Uint8Array[] {
    if (this.phase === Phase.Ended) return [];
    const failingClosed = this.phase === Phase.FailingClosed;
    this.phase = Phase.Ended;
    this.output.beginPush();
    if (failingClosed) this.endFailClosed();
    else {
      this.candidates.endOfInput(this.pos);
      this.base64?.endOfInput(this.pos);
      this.hex?.endOfInput(this.pos);
      this.flush(this.pos, true);
      if (this.output.open) this.output.closeOpen();
    }
    this.output.endChunk();
    return this.output.pieces;
  }

  private processChunk(chunk: Uint8Array): void {
    const base = this.pos;
    // A long stream repays dense rows for every state (fewer stops in the scan); the
    // state numbers are the same, so the switch between chunks changes no decision.
    if (base >= DENSIFY_AFTER) this.exact = this.exact.densified();
    this.input.begin(chunk, base);
    const n = chunk.length;
    this.serial = nextChunkSerial();
    let i = 0;
    for (;;) {
      // Invariant 3: the window is enforced exactly at the deadline byte, however chunked.
      if (this.phase === Phase.Matching && this.pos >= this.deadline) this.enforceWindow();
      if (i >= n) break;
      if (this.phase === Phase.FailingClosed) {
        i = this.drop.consume(chunk, i, n);
        this.pos = base + i;
        if (i < n) this.endFailClosed();
        continue;
      }
      // Up to the next deadline nothing is flushed: run the automata over the whole stretch
      // (spawning candidates at anchors), then feed every live candidate its bytes.
      const end = Math.min(n, this.deadline - base);
      const start = i;
      i = this.runAutomata(chunk, i, end, base);
      if (this.candidates.size > 0) this.candidates.feedAll(chunk, base, end);
      if (this.base64 !== null) this.base64.scan(chunk, base, start, end, this.findRun);
      if (this.hex !== null) this.hex.scan(chunk, base, start, end, this.findRun);
    }
    if (this.phase === Phase.Matching) {
      const f = this.frontier();
      this.flush(f, false);
      const heldFrom = Math.min(this.output.at, f);
      this.deadline = heldFrom + this.window;
      // Keep what is held, and the bytes before it that anchors read (a word boundary
      // through an escape, where a name starts).
      this.input.retain(Math.max(base, heldFrom - LOOKBEHIND), this.pos);
      this.repeats?.dropRuns(this.output.at);
    }
    this.output.endChunk();
    this.input.finish(this.pos);
    this.tail = keyBefore(chunk, n, this.tail);
  }

  /**
   * The hot loop over `chunk[from .. end)`: the start filter where nothing may start, the
   * automata from where something may until they are shallow again. Returns `end`; `pos`
   * and the states are current on return and at every event.
   */
  private runAutomata(chunk: Uint8Array, from: number, end: number, base: number): number {
    const { byteScan, scanResult, serial } = this;
    let i = from;
    while (i < end) {
      if (this.filtering) {
        i = byteScan.scan(chunk, serial, i, end, this.key, scanResult);
        const k = scanResult[0]!;
        if (i >= end) {
          this.key = k & 0xffffff;
          break;
        }
        this.key = (k >> 8) & 0xffffff;
        this.enterAutomata();
      }
      i = this.walk(chunk, i, end, base);
    }
    this.pos = base + i;
    return i;
  }

  /**
   * The filter stopped at the next byte: a needle may start within the last three bytes
   * (`key`), or end at the next byte. Before them nothing is live (invariant 1: the
   * states are the automata's on the bytes since the last start a needle may have), so the
   * automata restart from the root on those three bytes; no needle ends within them (one
   * would have stopped the filter there), so they raise no event.
   */
  private enterAutomata(): void {
    const { exact, folded, key } = this;
    const exactClassOf = exact.classOf;
    const foldedClassOf = folded.classOf;
    this.wsRuns.clear();
    let e = 0;
    let f = 0;
    for (let shift = 16; shift >= 0; shift -= 8) {
      const byte = (key >>> shift) & 0xff;
      const previous = e;
      e = exact.step(e, exactClassOf[byte]!);
      if ((exact.flags[e]! & FLAG_WS_END) !== 0) this.wsRuns.note(e === previous);
      f = folded.step(f, foldedClassOf[byte]!);
    }
    this.exactState = e;
    this.foldedState = f;
    this.filtering = false;
    this.stops++;
  }

  /**
   * Both automata over `chunk[from .. end)`, stopping only at states with events, until
   * both are shallow again (then the filter takes over). Returns where it stopped.
   */
  private walk(chunk: Uint8Array, from: number, end: number, base: number): number {
    const { exact, folded, scan, scanResult } = this;
    const denseStates = exact.denseStates;
    const exactClassOf = exact.classOf;
    const exactStep = exact.step;
    const exactFlags = exact.flags;
    const foldedClassOf = folded.classOf;
    const foldedClasses = folded.classes;
    const foldedDense = folded.dense;
    const foldedFlags = folded.flags;
    const exactShallow = this.exactShallow;
    const foldedShallow = this.foldedShallow;
    const exactShallowRow = exactShallow * exact.classes;
    const foldedShallowRow = foldedShallow * foldedClasses;
    let exactState = this.exactState;
    let foldedState = this.foldedState;
    let i = from;
    while (i < end) {
      if (exactState < denseStates) {
        // Invariant 4: two table lookups per byte until something happens.
        i = scan(
          chunk,
          i,
          end,
          exactState,
          foldedState,
          exact,
          folded,
          scanResult,
          exactShallowRow,
          foldedShallowRow,
        );
        exactState = scanResult[0]!;
        foldedState = scanResult[1]!;
        if (scanResult[3] === 1) {
          this.exactState = exactState;
          this.foldedState = foldedState;
          this.pos = base + i;
          this.events(scanResult[2]!);
        }
      } else {
        // A state without a dense row: one step through its sparse transitions.
        const byte = chunk[i]!;
        const previous = exactState;
        exactState = exactStep(exactState, exactClassOf[byte]!);
        foldedState = foldedDense[foldedState * foldedClasses + foldedClassOf[byte]!]!;
        i++;
        if ((exactFlags[exactState]! | foldedFlags[foldedState]!) !== 0) {
          this.exactState = exactState;
          this.foldedState = foldedState;
          this.pos = base + i;
          this.events(previous);
        }
      }
      if (
        this.useFilter &&
        exactState < exactShallow &&
        foldedState < foldedShallow &&
        exact.wsCount[exactState] === 0 &&
        base + i >= this.resetAt + FILTER_DEPTH
      ) {
        // Shallow again: the filter decides from the last three bytes (the partial matches'
        // bytes, at most three, are among them).
        this.exactState = 0;
        this.foldedState = 0;
        this.filtering = true;
        this.key = keyBefore(chunk, i, this.tail);
        this.pos = base + i;
        return i;
      }
    }
    this.exactState = exactState;
    this.foldedState = foldedState;
    this.pos = base + i;
    return i;
  }

  /** Events of the byte just read (at `pos - 1`), the exact automaton entered from `previous`. */
  private events(previous: number): void {
    const { exact, folded, pos } = this;
    const state = this.exactState;
    const flags = exact.flags[state]!;
    if ((flags & FLAG_WS_END) !== 0) this.wsRuns.note(state === previous);
    if ((flags & FLAG_OUTPUT) !== 0) {
      const own = exact.outState[state]!;
      const length = exact.depthOf(own) + this.wsRuns.extraOf(exact.wsCount[own]!);
      this.addSpan(pos - length, pos, exact.literalOf(own));
    }
    if ((flags & FLAG_ANCHOR) !== 0) {
      const from = exact.anchorStart[state]!;
      const to = exact.anchorStart[state + 1]!;
      this.candidates.spawn(
        this.exactAnchors,
        exact.anchorIds,
        from,
        to,
        this.exactAnchorLength,
        pos,
      );
    }
    const foldedState = this.foldedState;
    if ((folded.flags[foldedState]! & FLAG_ANCHOR) !== 0) {
      const from = folded.anchorStart[foldedState]!;
      const to = folded.anchorStart[foldedState + 1]!;
      const lengthOf = this.foldedAnchorLength;
      this.candidates.spawn(this.foldedAnchors, folded.anchorIds, from, to, lengthOf, pos);
    }
  }

  private readonly exactAnchorLength = (id: number): number =>
    this.exact.anchorLength[id]! + this.wsRuns.extraOf(this.exact.anchorWs[id]!);

  private readonly foldedAnchorLength = (id: number): number => this.folded.anchorLength[id]!;

  private readonly addSpanOf = (start: number, end: number, rule: number): void =>
    this.addSpan(start, end, rule);

  /** `[start, end)` is decided: redact it. */
  private addSpan(start: number, end: number, rule: number): void {
    if (end <= start) return;
    const output = this.output;
    if (output.open && start <= output.at) {
      // It touches the open span, whose marker is out: swallow it (and what it now touches).
      if (end > output.at) {
        const from = output.at;
        output.at = this.spans.absorbInto(end);
        this.repeats?.span.swallowed(this.input, from, output.at);
      }
      return;
    }
    // Invariant 2: nothing undecided was emitted, so no span can reach the cursor.
    if (start < output.at)
      throw new SpoolError("SPOOL_E_STAGE", REDACTOR, "internal: a span reaches emitted bytes");
    this.spans.add(start, end, rule);
  }

  /**
   * True when `[start, end)` lies in what is decided redacted (the open span, or one
   * pending span), so that adding it for a rule no lower than `rule` would change nothing.
   */
  private redacted(start: number, end: number, rule: number): boolean {
    const output = this.output;
    if (output.open && start <= output.at && end <= output.at) return true;
    return this.spans.covers(start, end, rule);
  }

  /** Hand on everything decided before `frontier` (everything at all when `final`). */
  private flush(frontier: number, final: boolean): void {
    const { output, spans } = this;
    for (;;) {
      if (output.open) {
        // Invariant 2: an undecided match starting at or before the cursor may still extend it.
        if (!final && frontier <= output.at) return;
        this.closeOpen();
      }
      // Invariant 2: a span starting before the frontier cannot grow backwards any more.
      const queued = spans.size > 0 && (final || spans.firstStart < frontier);
      const limit = final ? this.pos : frontier;
      if (this.openRepeat(queued ? spans.firstStart : limit)) continue;
      if (queued) {
        const { firstStart: start, firstEnd: end, firstRule: rule } = spans;
        spans.removeFirst();
        output.rawTo(start);
        output.openSpan(start, end, rule);
        output.at = spans.absorbInto(output.at);
        this.repeats?.span.opened(this.input, start, output.at);
        continue;
      }
      output.rawTo(limit);
      return;
    }
  }

  /** Close the open span, and learn the secret it redacted (see `repeated-secrets.ts`). */
  private closeOpen(): void {
    const output = this.output;
    output.closeOpen();
    this.repeats?.closed(output.spanRule);
  }

  /**
   * A secret redacted before, repeated in the bytes before `to` that are about to go out
   * as they are: its span is opened (touching spans absorbed) and true returned.
   */
  private openRepeat(to: number): boolean {
    const { repeats, output, repeat } = this;
    if (repeats === null || repeats.size === 0 || to <= output.at) return false;
    if (!repeats.find(this.input, output.at, to, repeat)) return false;
    output.rawTo(repeat.start);
    output.openSpan(repeat.start, repeat.end, repeat.rule);
    output.at = this.spans.absorbInto(output.at);
    this.repeats?.span.opened(this.input, repeat.start, output.at);
    return true;
  }

  /** At the deadline: settle, then enforce the window exactly at this byte (invariant 3). */
  private enforceWindow(): void {
    let f = this.frontier();
    this.flush(f, false);
    if (this.pos - Math.min(this.output.at, f) >= this.window) {
      if (this.pos - this.output.at >= this.window) {
        this.failClosed();
        return;
      }
      // Only candidates that started inside an open span are that old: drop them (the
      // span they would extend is already redacted).
      const limit = this.pos - this.window;
      const { exact, folded } = this;
      while (this.exactState !== 0 && this.exactFrontier() <= limit)
        this.exactState = exact.fail[this.exactState]!;
      while (this.foldedState !== 0 && this.pos - folded.depthOf(this.foldedState) <= limit)
        this.foldedState = folded.fail[this.foldedState]!;
      this.candidates.dropClaimsUpTo(limit);
      f = this.frontier();
    }
    this.deadline = Math.min(this.output.at, f) + this.window;
  }

  /** The bytes after the cursor reached the window undecided: omit them, drop to whitespace. */
  private failClosed(): void {
    const output = this.output;
    if (output.open) this.closeOpen();
    this.phase = Phase.FailingClosed;
    this.drop.begin(output.at, this.pos - output.at);
    output.at = this.pos;
    this.exactState = 0;
    this.foldedState = 0;
    this.filtering = false;
    this.candidates.clear();
    this.base64?.clear();
    this.hex?.clear();
    this.spans.clear();
    this.wsRuns.clear();
  }

  /** A whitespace byte (or the end) ends the drop: one marker with the exact count. */
  private endFailClosed(): void {
    this.output.omission(this.drop.count, this.drop.start, this.pos);
    if (this.phase === Phase.FailingClosed) this.phase = Phase.Matching;
    this.deadline = this.pos + this.window;
    this.resetAt = this.pos;
  }

  /**
   * Invariant 2 for rules that look behind their anchor: an anchor may still start at `f`
   * (or later), so the lead bytes just before `f` (at most `lead.length`, none already
   * handed on) stay held. Every byte read lies after the last chunk's held bytes or in them.
   */
  private leadStart(f: number): number {
    const { bytes, length } = this.lead!;
    const floor = Math.max(0, f - length, this.output.at);
    let s = f;
    while (s > floor && bytes[this.input.byteAt(s - 1)] === 1) s--;
    return s;
  }

  /**
   * While filtering: how many of the last three bytes (`key`) start a prefix of a needle
   * running to `pos`, which the next bytes may complete (invariant 2).
   */
  private heldByFilter(): number {
    const key = this.key;
    for (let length = FILTER_DEPTH; length > 0; length--) {
      if (isPrefix(this.exact, key, length) || isPrefix(this.folded, key, length)) return length;
    }
    return 0;
  }

  /** Earliest start of the exact automaton's partial match. */
  private exactFrontier(): number {
    const state = this.exactState;
    const { exact } = this;
    return this.pos - exact.depthOf(state) - this.wsRuns.extraOf(exact.wsCount[state]!);
  }

  /**
   * Invariant 2: the earliest start of anything undecided (either automaton's partial match,
   * every live candidate's claim); only bytes before it may be emitted.
   */
  private frontier(): number {
    let f: number;
    if (this.filtering) f = this.pos - this.heldByFilter();
    else {
      f = this.exactFrontier();
      const f2 = this.pos - this.folded.depthOf(this.foldedState);
      if (f2 < f) f = f2;
    }
    if (this.lead !== null) f = this.leadStart(f);
    if (this.base64 !== null) f = this.base64.frontier(f);
    if (this.hex !== null) f = this.hex.frontier(f);
    // A run that may be a repeat, its end not read yet, is the base64 view's held run.
    return this.candidates.frontier(f);
  }
}

/**
 * The marker of each rule, built and registered as a marker piece at most once per
 * compiled rules, when the rule first redacts (base64 runs start a redactor each;
 * registering a piece per redaction cost ~7% of a redacting capture's CPU, and building
 * every rule's marker up front a few milliseconds of each capture's start-up). Every
 * redaction of a rule hands on the same read-only piece.
 */
const MARKERS = new WeakMap<CompiledRedaction, Buffer[]>();
function markersOf(compiled: CompiledRedaction): Buffer[] {
  let markers = MARKERS.get(compiled);
  if (markers === undefined) {
    markers = new Array<Buffer>(compiled.ruleNames.length);
    MARKERS.set(compiled, markers);
  }
  return markers;
}

/** True when the rules redact anything in `decoded` (read whole, without decoding base64 again). */
function findsSecret(compiled: CompiledRedaction, decoded: Uint8Array): boolean {
  const nested = new Redactor(compiled, { decodeBase64: false });
  nested.push([decoded]);
  nested.end();
  return nested.counters.redactions + nested.counters.omissions > 0;
}

/**
 * Run both automata over `input[from .. limit)` until a state with a flag (or without a
 * dense row) is entered, or both are shallow (rows below `exactShallowRow` and
 * `foldedShallowRow`). States travel as row offsets with flags in the sign bit, so each
 * byte costs one load and one sign test per automaton; kept a small top-level function so
 * the engine optimises it on its own. Writes to `result` the two states, the exact
 * automaton's previous state and why it stopped (1: a flag, 2: shallow, 0: the limit);
 * returns the index after the last byte read.
 */
function scanBoth(
  input: Uint8Array,
  from: number,
  limit: number,
  exactState: number,
  foldedState: number,
  exact: Automaton,
  folded: Automaton,
  result: Int32Array,
  exactShallowRow: number,
  foldedShallowRow: number,
): number {
  const exactClassOf = exact.classOf;
  const exactClasses = exact.classes;
  const exactCode = exact.code;
  const foldedClassOf = folded.classOf;
  const foldedClasses = folded.classes;
  const foldedCode = folded.code;
  let exactRow = exactState * exactClasses;
  let foldedRow = foldedState * foldedClasses;
  let i = from;
  while (i < limit) {
    const byte = input[i]!;
    const exactNext = exactCode[exactRow + exactClassOf[byte]!]!;
    const foldedNext = foldedCode[foldedRow + foldedClassOf[byte]!]!;
    i++;
    if ((exactNext | foldedNext) < 0) {
      result[0] = (exactNext < 0 ? ~exactNext : exactNext) / exactClasses;
      result[1] = (foldedNext < 0 ? ~foldedNext : foldedNext) / foldedClasses;
      result[2] = exactRow / exactClasses;
      result[3] = 1;
      return i;
    }
    if (exactNext < exactShallowRow && foldedNext < foldedShallowRow) {
      result[0] = exactNext / exactClasses;
      result[1] = foldedNext / foldedClasses;
      result[2] = exactRow / exactClasses;
      result[3] = 2;
      return i;
    }
    exactRow = exactNext;
    foldedRow = foldedNext;
  }
  result[0] = exactRow / exactClasses;
  result[1] = foldedRow / foldedClasses;
  result[2] = exactRow / exactClasses;
  result[3] = 0;
  return i;
}

/** {@link scanBoth} when no rule has case-insensitive anchors: one lookup per byte. */
function scanExact(
  input: Uint8Array,
  from: number,
  limit: number,
  exactState: number,
  _foldedState: number,
  exact: Automaton,
  _folded: Automaton,
  result: Int32Array,
  exactShallowRow: number,
  _foldedShallowRow: number,
): number {
  const exactClassOf = exact.classOf;
  const exactClasses = exact.classes;
  const exactCode = exact.code;
  let exactRow = exactState * exactClasses;
  let i = from;
  while (i < limit) {
    const exactNext = exactCode[exactRow + exactClassOf[input[i]!]!]!;
    i++;
    if (exactNext < exactShallowRow) {
      result[0] = (exactNext < 0 ? ~exactNext : exactNext) / exactClasses;
      result[1] = 0;
      result[2] = exactRow / exactClasses;
      result[3] = exactNext < 0 ? 1 : 2;
      return i;
    }
    exactRow = exactNext;
  }
  result[0] = exactRow / exactClasses;
  result[1] = 0;
  result[2] = exactRow / exactClasses;
  result[3] = 0;
  return i;
}

/** The three bytes before `chunk[i]` (the latest lowest), `tail` holding those before the chunk. */
function keyBefore(chunk: Uint8Array, i: number, tail: number): number {
  if (i >= 3) return (chunk[i - 3]! << 16) | (chunk[i - 2]! << 8) | chunk[i - 1]!;
  let k = tail;
  for (let j = 0; j < i; j++) k = ((k << 8) | chunk[j]!) & 0xffffff;
  return k;
}

/** True when the last `length` bytes of `key` spell the start of one of `a`'s needles. */
function isPrefix(a: Automaton, key: number, length: number): boolean {
  let s = 0;
  for (let shift = 8 * (length - 1); shift >= 0; shift -= 8) {
    const cls = a.classOf[(key >>> shift) & 0xff]!;
    const next = a.step(s, cls);
    // A child is one symbol deeper; a whitespace run stays in its state.
    const loops = next === s && s !== 0 && cls === a.wsClass;
    if (a.depthOf(next) !== a.depthOf(s) + 1 && !loops) return false;
    s = next;
  }
  return true;
}

/** States of at most {@link FILTER_DEPTH} symbols: a prefix of the breadth-first numbering. */
function shallowStates(a: Automaton): number {
  const { levelStart } = a;
  return levelStart[Math.min(FILTER_DEPTH + 1, levelStart.length - 1)]!;
}
