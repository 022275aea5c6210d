/**
 * The live candidates of matcher and pattern rules: started at anchor occurrences, fed the
 * bytes after their anchor, and turned into spans as they decide. A candidate holds bytes
 * from its `front` (the first byte it may still claim) on; the earliest front is part of
 * the redactor's frontier, so nothing a candidate may still claim is emitted (invariant 2).
 * Only live candidates see bytes, each O(1) per byte for the built-in rules (invariant 4).
 */
import { isWhitespaceByte } from "./aho-corasick.js";
import type { CompiledAnchor } from "./compile-redaction.js";
import { ESCAPE_LOOKBEHIND, type InputRing, NAME_LOOKBEHIND } from "./input-ring.js";
import { type AnchorMatch, type Candidate, Verdict } from "./rule.js";
import { ALNUM, byteSet, ESCAPED_END, HEX_VALUE } from "./rules/byte-classes.js";

/** A live candidate and where it stands in the input (absolute offsets). */
interface LiveCandidate {
  /** `null` once it overran its declared hold: it then fails closed to the next whitespace. */
  cand: Candidate | null;
  readonly rule: number;
  /** The anchor's first byte. */
  readonly at: number;
  /** The first byte it may still claim. */
  front: number;
  /** Most bytes it may hold undecided (the rule's `maxLength`). */
  readonly maxLength: number;
  /** The next byte it is fed. */
  next: number;
  /** It has a `skip` fast path, and the set uses them (read once: candidates' classes vary). */
  readonly skips: boolean;
  /**
   * The candidate's `next` and `skip`, read once at its start: candidates of many classes
   * pass through the same loop, where reading them a byte at a time is a megamorphic lookup.
   */
  readonly nextOf: Candidate["next"];
  readonly skipOf: Candidate["skip"];
  /** The last verdict `next` returned (`Hold` or `Redact`), or -1 before the first. */
  last: number;
  /** Input offset before which `skip` is not tried again (it consumed nothing last time). */
  skipFrom: number;
  /** Bytes to wait after the next `skip` that consumes nothing (doubles up to {@link MAX_SKIP_GAP}). */
  skipGap: number;
}

/**
 * Most bytes fed through `next` before `skip` is tried again after it consumed nothing: a
 * rule whose `skip` applies only in some phases (an assignment's value, held while it is
 * judged) otherwise costs two calls a byte. Either call gives the same verdicts.
 */
const MAX_SKIP_GAP = 16;

export class CandidateSet {
  /** Anchor occurrences that started (or tried to start) a candidate, for benchmarks. */
  starts = 0;
  private live: LiveCandidate[] = [];
  // A redaction of the candidate being fed, not yet added: its consecutive spans are added
  // as one (spans merge anyway, and nothing is flushed while candidates are fed).
  private pendingFrom = 0;
  private pendingTo = 0;
  /** After `failClosed`: the candidate lives on (it reached the range's end). */
  private closedAlive = true;

  constructor(
    private readonly input: InputRing,
    /** Where decided spans go. */
    private readonly addSpan: (start: number, end: number, rule: number) => void,
    /** Let candidates consume runs through `skip` (same output, fewer calls). */
    private readonly useSkip: boolean,
    /** The first byte not yet handed on: a lead never reaches before it. */
    private readonly emittedTo: () => number = () => 0,
  ) {}

  get size(): number {
    return this.live.length;
  }

  /** The earliest byte a live candidate may still claim, or `limit` when none is earlier. */
  frontier(limit: number): number {
    let f = limit;
    for (const l of this.live) if (l.front < f) f = l.front;
    return f;
  }

  /**
   * Start the anchors `ids[from .. to)` whose occurrence ends at `pos` (the byte just read);
   * `lengthOf(id)` is the bytes the occurrence spans.
   */
  spawn(
    anchors: readonly CompiledAnchor[],
    ids: Int32Array,
    from: number,
    to: number,
    lengthOf: (id: number) => number,
    pos: number,
  ): void {
    for (let j = from; j < to; j++) {
      const id = ids[j]!;
      const anchor = anchors[id]!;
      const length = lengthOf(id);
      const at = pos - length;
      const before = at > 0 ? byteBefore(this.input, at) : -1;
      const notBefore = anchor.notBefore;
      if (before >= 0 && notBefore != null && notBefore[before] === 1) {
        this.starts++; // ruled out as its own start would (no candidate: nothing to settle)
        continue;
      }
      const notAfter = anchor.notAfter;
      const after = notAfter == null ? -1 : this.input.byteAfter(pos);
      if (after >= 0 && notAfter![after] === 1) {
        this.starts++; // ruled out as its first byte would (read when the chunk holds it)
        continue;
      }
      this.settle(anchor.rule, pos);
      const lead =
        anchor.lookbehindClass === null
          ? 0
          : this.leadBefore(at, anchor.lookbehind, anchor.lookbehindClass);
      const match = this.matchAt(anchor, length, at, before, lead);
      this.starts++;
      const cand = anchor.start(match, this.input, at);
      if (cand === undefined) continue;
      const skip = cand.skip;
      this.live.push({
        cand,
        rule: anchor.rule,
        at,
        // Invariant 2: the redactor held the lead bytes back (`Redactor.frontier`).
        front: clampFront(at + cand.from, at - lead, pos),
        maxLength: anchor.maxLength,
        next: pos,
        skips: this.useSkip && skip !== undefined,
        nextOf: cand.next,
        skipOf: skip,
        last: -1,
        skipFrom: 0,
        skipGap: 1,
      });
    }
  }

  /** See `AnchorMatch.namePrefix`: the name's bytes before `at`, or a label's word and a space. */
  private namePrefix(nameAt: number, at: number, before: number): string {
    if (nameAt < at || before !== 0x20) return this.input.latin1(nameAt, at);
    return `${wordBefore(this.input, at)} `;
  }

  /** What a rule's `start` is told of its anchor's occurrence at `at` (see `AnchorMatch`). */
  private matchAt(
    anchor: CompiledAnchor,
    length: number,
    at: number,
    before: number,
    lead: number,
  ): AnchorMatch {
    const nameAt = nameStartAt(this.input, at, before);
    const nameBefore = nameAt === at ? before : nameAt > 0 ? byteBefore(this.input, nameAt) : -1;
    const joined = before === 0x2d && joinedAt(this.input, at - 1);
    const scoped = nameBefore === 0x3a && nameAt > 1 && this.input.byteAt(nameAt - 2) === 0x3a;
    const namePrefix = anchor.namePrefix === true ? this.namePrefix(nameAt, at, before) : undefined;
    if (lead > 0)
      return {
        anchor: anchor.anchor,
        length,
        before,
        nameBefore,
        joined,
        scoped,
        namePrefix,
        lead: this.input.latin1(at - lead, at),
        leadFirst: byteBefore(this.input, at - lead + 1),
      };
    // Rules told the word before have no lookbehind (`withWordBefore`).
    return anchor.wordBefore === true
      ? {
          anchor: anchor.anchor,
          length,
          before,
          nameBefore,
          joined,
          scoped,
          namePrefix,
          wordBefore: wordBefore(this.input, at),
        }
      : { anchor: anchor.anchor, length, before, nameBefore, joined, scoped, namePrefix };
  }

  /**
   * Feed every live candidate its bytes up to `end` (an index in `chunk`, which starts at
   * input offset `base`); drop the ones that are done. Candidates are independent of each
   * other and of the automata until the next flush (spans only accumulate), so each is fed
   * its stretch in one go: the verdicts are the same as byte by byte (invariant 1).
   */
  feedAll(chunk: Uint8Array, base: number, end: number): void {
    const live = this.live;
    let kept = 0;
    for (let k = 0; k < live.length; k++) {
      const l = live[k]!;
      if (this.feed(l, chunk, base, end) && !this.duplicate(l, kept)) live[kept++] = l;
    }
    truncate(live, kept);
  }

  /**
   * How many bytes of the anchor's lookbehind class (`bytes`, at most `most`) stand just
   * before `at` and were not handed on.
   */
  private leadBefore(at: number, most: number, bytes: Uint8Array): number {
    const floor = Math.max(0, at - most, this.emittedTo());
    let s = at;
    while (s > floor && bytes[this.input.byteAt(s - 1)] === 1) s--;
    return at - s;
  }

  /** Forget candidates that can claim nothing after `limit`. */
  dropClaimsUpTo(limit: number): void {
    this.live = this.live.filter((l) => l.front > limit);
  }

  /** End of input at `pos`: candidates that redact through the end add their span. */
  endOfInput(pos: number): void {
    for (const l of this.live) {
      if (l.cand === null) continue;
      const verdict = l.cand.end();
      if (verdict === Verdict.Close || verdict === Verdict.Redact) {
        const start = clampFront(l.at + l.cand.from, l.front, pos);
        const end = l.cand.to === undefined ? pos : Math.min(pos, l.at + l.cand.to);
        this.addSpan(start, end, l.rule);
      }
    }
    this.live = [];
  }

  clear(): void {
    this.live = [];
  }

  /**
   * Before a candidate of `rule` starts at `pos`: feed every live candidate up to there,
   * dropping the ones that are done, so the set holds only what is still undecided (a
   * chunk of credential lines would otherwise pile up thousands, each walked at every
   * start), and keep one of `rule`'s per state key, so anchors repeated inside a run being
   * redacted (`token=token=…`) cost O(1) candidates, not one per occurrence (invariant 4).
   * Output unchanged: candidates are independent until the next flush, and spans merge
   * the same in any order (see `Candidate.stateKey`, `SpanQueue.add`).
   */
  private settle(rule: number, pos: number): void {
    const live = this.live;
    const { chunk, chunkBase } = this.input;
    let kept = 0;
    for (let k = 0; k < live.length; k++) {
      const l = live[k]!;
      if (l.next < pos && !this.feed(l, chunk, chunkBase, pos - chunkBase)) continue;
      if (l.rule === rule && this.duplicate(l, kept)) continue;
      live[kept++] = l;
    }
    truncate(live, kept);
  }

  /** True when `l` has the state of a live candidate among `live[0 .. kept)` of its rule. */
  private duplicate(l: LiveCandidate, kept: number): boolean {
    const key = stateKeyOf(l);
    if (key === undefined) return false;
    for (let k = 0; k < kept; k++) {
      const o = this.live[k]!;
      if (o.rule !== l.rule || o.next !== l.next || o.front !== l.front) continue;
      if (stateKeyOf(o) === key) return true;
    }
    return false;
  }

  /** Feed `l` from its next byte up to `end` (a chunk index); false once it is done. */
  private feed(l: LiveCandidate, chunk: Uint8Array, base: number, end: number): boolean {
    const rule = l.rule;
    let i = l.next - base;
    let alive = true;
    this.pendingFrom = 0;
    this.pendingTo = 0;
    while (i < end) {
      const cand = l.cand;
      if (cand === null) {
        i = this.failClosed(l, chunk, base, i, end);
        alive = this.closedAlive;
        break;
      }
      const last = l.last;
      if (last >= 0 && l.skips && base + i >= l.skipFrom) {
        // A held run may not pass the hold limit: the byte that would goes through `next`.
        const limit = last === Verdict.Hold ? Math.min(end, l.front + l.maxLength - base) : end;
        const j = l.skipOf!.call(cand, chunk, i, limit);
        if (j > i) {
          if (last === Verdict.Hold) {
            l.front = clampFront(l.at + cand.from, l.front, base + j);
          } else {
            this.pend(l.front, base + j, rule);
            l.front = base + j;
          }
          i = j;
          l.skipGap = 1;
          // Stopped short, on a byte it does not take: `next` reads it (the same verdicts).
          if (j < limit) l.skipFrom = base + j + 1;
          continue;
        }
        l.skipFrom = base + i + l.skipGap;
        l.skipGap = Math.min(2 * l.skipGap, MAX_SKIP_GAP);
      }
      const p = base + i;
      const verdict = l.nextOf.call(cand, chunk[i]!);
      i++;
      if (verdict === Verdict.Hold) {
        l.front = clampFront(l.at + cand.from, l.front, p + 1);
        l.last = Verdict.Hold;
        if (p + 1 - l.front > l.maxLength) {
          // Held past its declared hold (invariant 3): redact what it holds, fail closed.
          this.pend(l.front, p + 1, rule);
          l.cand = null;
          l.front = p + 1;
        }
        continue;
      }
      if (verdict === Verdict.Redact) {
        // Up to `to` when the candidate sets it (a value redacted, the candidate reads on):
        // the bytes from `to` through this one are released.
        const to = cand.to;
        const stop = to === undefined ? p + 1 : Math.min(p + 1, l.at + to);
        this.pend(clampFront(l.at + cand.from, l.front, p), stop, rule);
        l.front = p + 1;
        l.last = to === undefined ? Verdict.Redact : Verdict.Hold;
        continue;
      }
      if (verdict === Verdict.Close) {
        const start = clampFront(l.at + cand.from, l.front, p + 1);
        const stop = cand.to === undefined ? p : Math.min(p + 1, l.at + cand.to);
        this.pend(start, stop, rule);
      }
      alive = false;
      break;
    }
    if (this.pendingTo > this.pendingFrom) this.addSpan(this.pendingFrom, this.pendingTo, rule);
    l.next = base + i;
    return alive;
  }

  /**
   * Feed `l`, failed closed (invariant 3), from `i` in `chunk[.. end)`: redacted up to
   * `failClosedEnd`; the index to go on from is returned, and whether it lives on is left in
   * `closedAlive`. When it stopped at the last range's final byte, a backslash (`i` is -1
   * now), an escape's letter here ends it before the backslash, as in one range; anything
   * else goes on from here with the backslash.
   */
  private failClosed(
    l: LiveCandidate,
    chunk: Uint8Array,
    base: number,
    i: number,
    end: number,
  ): number {
    this.closedAlive = true;
    if (i < 0 && (end === 0 || ESCAPED_END[chunk[0]!] === 1)) {
      this.closedAlive = end === 0;
      return i;
    }
    const j = failClosedEnd(chunk, Math.max(i, 0), end);
    if (j > i) {
      this.pend(base + i, base + j, l.rule);
      l.front = base + j;
    }
    if (j === end) return j;
    this.closedAlive = chunk[j] === BACKSLASH && j + 1 === end;
    return isWhitespaceByte(chunk[j]!) ? j + 1 : j;
  }

  private pend(start: number, end: number, rule: number): void {
    if (end <= start) return;
    const from = this.pendingFrom;
    const to = this.pendingTo;
    if (to > from && start <= to && end >= from) {
      if (start < from) this.pendingFrom = start;
      if (end > to) this.pendingTo = end;
      return;
    }
    if (to > from) this.addSpan(from, to, rule);
    this.pendingFrom = start;
    this.pendingTo = end;
  }
}

/**
 * Where a candidate failing closed from `i` stops in `chunk[.. end)`: at the next whitespace
 * byte (redacted through it, which ends it), at a double quote (the end of the JSON string
 * the value stood in: redacted up to it, which stays), or at a backslash that escapes a line
 * break, a tab or a double quote (`\n` in one-line JSON, which may hold no blank to its end;
 * `\"`, the end of a string inside a string), also one that ends the range (the candidate
 * lives on: its escape's letter, still to come, decides); `end` when none comes first.
 */
function failClosedEnd(chunk: Uint8Array, i: number, end: number): number {
  let j = i;
  while (j < end) {
    const byte = chunk[j]!;
    if (isWhitespaceByte(byte) || byte === QUOTE) return j;
    if (byte === BACKSLASH && (j + 1 === end || ESCAPED_END[chunk[j + 1]!] === 1)) return j;
    j++;
  }
  return j;
}

/** A candidate's state key; -1 for one failing closed (its future is the same for all). */
function stateKeyOf(l: LiveCandidate): number | undefined {
  return l.cand === null ? -1 : l.cand.stateKey?.();
}

/**
 * `value` within `[low, high]`; `low` when `value` is below it or not a number. A front
 * never moves backwards (invariant 2: what was emitted stays emitted).
 */
function clampFront(value: number, low: number, high: number): number {
  if (!(value >= low)) return low;
  return Math.min(value, high);
}

/** `list.length = length` without the runtime call a length store costs (pops are inlined). */
function truncate(list: unknown[], length: number): void {
  while (list.length > length) list.pop();
}

/**
 * Where the name bytes (`A-Za-z0-9_-`) that end at `at` start: `at` when `before` (the byte
 * before `at`) is no name byte; when the name is longer than {@link NAME_LOOKBEHIND}, its
 * last that many bytes' start. The byte before it, read as {@link byteBefore} reads it, is
 * `AnchorMatch.nameBefore`. The redactor keeps that many bytes, and the escape before them,
 * before anything held.
 */
function nameStartAt(input: InputRing, at: number, before: number): number {
  if (before < 0 || NAME_BYTE[before] !== 1) return at;
  const floor = Math.max(0, at - NAME_LOOKBEHIND);
  let s = at - 1;
  // The letter of a string's escape is no part of the name (`\nDB_PASSWORD`: a line feed).
  while (s > floor && NAME_BYTE[input.byteAt(s - 1)] === 1 && !escapeLetterAt(input, s - 1)) s--;
  return s;
}

/**
 * The byte at `joiner` is `-` itself (not a `%2D` read as one) and a letter or a digit
 * stands before it, not as the letter of a string's escape (`\n-`: a line feed, then `-`).
 */
function joinedAt(input: InputRing, joiner: number): boolean {
  if (joiner < 1 || input.byteAt(joiner) !== 0x2d || ALNUM[input.byteAt(joiner - 1)] !== 1)
    return false;
  return !escapeLetterAt(input, joiner - 1);
}

/** The byte at `p` is the letter of a string's escape (`n` of `\n`), as byteBefore reads it. */
function escapeLetterAt(input: InputRing, p: number): boolean {
  return p >= 1 && input.byteAt(p - 1) === BACKSLASH && CONTROL_ESCAPES[input.byteAt(p)] !== 0;
}

const NAME_BYTE = byteSet("A-Za-z0-9_-");
const LETTER = byteSet("A-Za-z");

/**
 * The letters of the word just before `at`, or of the word before the one space there
 * (`License` in `License key:`); "" when there is none or it runs on past
 * {@link NAME_LOOKBEHIND} bytes (the redactor keeps that many before anything held; the
 * bytes are read, never claimed, so none is held back for them).
 */
function wordBefore(input: InputRing, at: number): string {
  const end = at >= 2 && input.byteAt(at - 1) === 0x20 ? at - 1 : at;
  const floor = Math.max(0, at - NAME_LOOKBEHIND);
  let s = end;
  while (s > floor && LETTER[input.byteAt(s - 1)] === 1) s--;
  if (s === floor && floor > 0 && LETTER[input.byteAt(floor - 1)] === 1) return "";
  // The letter of a string's escape is no part of the word (`\nappKey`, as byteBefore reads).
  if (s < end && escapeLetterAt(input, s)) s++;
  let word = "";
  for (let p = s; p < end; p++) word += String.fromCharCode(input.byteAt(p));
  return word;
}

/**
 * The byte before `at` as a word-boundary check should see it: through a string escape
 * (JSON, C, JavaScript), `\n`, `\t`, `\r`, `\b`, `\f` stand for their control byte and
 * `\u0041` for the character it names (a space for one outside ASCII), and through
 * percent-encoding `%3D` for `=`, so a token right after an escape inside a string or a
 * URL-encoded form starts a word as it does in the decoded text. The
 * redactor keeps {@link ESCAPE_LOOKBEHIND} bytes before anything held for this.
 */
export function byteBefore(input: Pick<InputRing, "byteAt">, at: number): number {
  const b = input.byteAt(at - 1);
  if (at >= 2 && input.byteAt(at - 2) === BACKSLASH) {
    const control = CONTROL_ESCAPES[b]!;
    return control === 0 ? b : control;
  }
  if (at >= 3 && HEX_VALUE[b]! >= 0 && input.byteAt(at - 3) === PERCENT) {
    // Percent-encoding (`token%3Dghp_…`, `%20`): the byte it stands for.
    const high = HEX_VALUE[input.byteAt(at - 2)]!;
    if (high >= 0) return high * 16 + HEX_VALUE[b]!;
  }
  if (at >= ESCAPE_LOOKBEHIND && HEX_VALUE[b]! >= 0 && input.byteAt(at - 5) === 0x75) {
    if (input.byteAt(at - 6) !== BACKSLASH) return b;
    let code = 0;
    for (let p = at - 4; p < at; p++) {
      const digit = HEX_VALUE[input.byteAt(p)]!;
      if (digit < 0) return b;
      code = code * 16 + digit;
    }
    return code < 0x80 ? code : 0x20;
  }
  // A terminal's escape sequence (a colour, `ESC[32m`; see `CSI_FINAL`), raw or written as a string's escape
  // (`\u001b[32m` in JSON, `\x1b[…`, `\033[…`, `\e[…`): it ends at a letter, but reads as
  // the control it is.
  if (CSI_FINAL[b] === 1 && csiEndsAt(input, at)) return 0x1b;
  return b;
}

/**
 * True when `input[.. at)` ends with a CSI escape sequence (its introducer, `[`, parameter
 * and intermediate bytes, and the final byte at `at - 1`), read no further back than
 * {@link NAME_LOOKBEHIND} bytes (a 24-bit colour, `\u001b[38;2;255;255;255m`, fits).
 */
function csiEndsAt(input: Pick<InputRing, "byteAt">, at: number): boolean {
  const floor = Math.max(0, at - NAME_LOOKBEHIND);
  // The byte before the final: a parameter's digit or `;`, or the `[` (what the start filter
  // tests for, see `mayReadNonAlnum`).
  if (at < 2 || CSI_LAST_PARAMETER[input.byteAt(at - 2)] !== 1) return false;
  let p = at - 2;
  while (p > floor) {
    const c = input.byteAt(p);
    if (c < 0x20 || c > 0x3f) break;
    p--;
  }
  if (p <= floor || input.byteAt(p) !== 0x5b) return false;
  if (input.byteAt(p - 1) === 0x1b) return true;
  return CSI_INTRODUCERS.some((form) => {
    const from = p - form.length;
    if (from < floor) return false;
    for (let i = 0; i < form.length; i++) if (input.byteAt(from + i) !== form[i]) return false;
    return true;
  });
}

/**
 * The final bytes of the sequences text follows: a colour (`m`), erasing the line (`K`,
 * after a progress bar's `\r`), moving the cursor to a column or a place (`G`, `H`). Others
 * are read as the letters they are (a digit and a letter are common in tokens, and each
 * pair read so makes the start filter stop at a two-byte needle after it).
 */
const CSI_FINAL = byteSet("mKGH");
/** Bytes that may stand right before a CSI sequence's final byte: a digit, `;`, `[`. */
const CSI_LAST_PARAMETER = byteSet("0-9;[");

/** ESC as strings write it before a CSI's `[`: JSON's, C's and Python's, octal, bash's `$'\e'`. */
const CSI_INTRODUCERS = [
  "\\u001b",
  "\\u001B",
  "\\x1b",
  "\\x1B",
  "\\033",
  "\\e",
  "\\u{1b}",
  "\\u{1B}",
].map((form) => Buffer.from(form, "latin1"));

/**
 * False when {@link byteBefore} reads a letter or a digit whatever precedes the two bytes
 * before `at`, `earlier` and `last` (the later): for the start filter, which sees no more
 * than these two of what stands before a two-byte anchor (`s.` in `routes.js`).
 */
export function mayReadNonAlnum(earlier: number, last: number): boolean {
  if (ALNUM[last] === 0) return true;
  if (earlier === BACKSLASH && CONTROL_ESCAPES[last] !== 0) return true;
  // An escape sequence's final byte after a digit, a `;` or its `[` (`ESC[32m`, `ESC[m`).
  if (CSI_FINAL[last] === 1 && CSI_LAST_PARAMETER[earlier] === 1) return true;
  // Percent-encoding and `\uXXXX` end in two hex digits.
  return HEX_VALUE[earlier]! >= 0 && HEX_VALUE[last]! >= 0;
}

const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const PERCENT = 0x25;
const CONTROL_ESCAPES = (() => {
  const table = new Uint8Array(256);
  table[0x6e] = 0x0a; // n
  table[0x74] = 0x09; // t
  table[0x72] = 0x0d; // r
  table[0x62] = 0x08; // b
  table[0x66] = 0x0c; // f
  // `\/` (PHP's JSON) reads as the escape itself: a boundary, where a bare `/` inside a
  // base64 run is not one.
  table[0x2f] = BACKSLASH;
  return table;
})();
