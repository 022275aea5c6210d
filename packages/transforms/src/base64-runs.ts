/**
 * Credentials wrapped in base64: a Kubernetes Secret's `data:` value, a `.dockercfg` or
 * `.dockerconfigjson`, a JWT or an `.env` file encoded once. The redactor's rules see only
 * the encoded letters, so this part finds base64 and base64url runs of credible length
 * (at least {@link MIN_RUN} characters of `A-Za-z0-9+/_-`), decodes each one and scans the
 * decoded bytes with the same rules; a hit redacts the whole encoded run, marker
 * `[REDACTED:base64]`. A run of exactly 40 characters that looks random is a bare AWS secret
 * access key (`secret-key-shape.ts`), marker `[REDACTED:aws-secret-access-key]`.
 *
 * The redactor's promises hold because a run is treated like any other candidate:
 *
 * - **No prefix exposure.** From its first byte a run is held (it is part of the frontier)
 *   until it is decided, so no byte of it is emitted before the decision.
 * - **Chunking invariance.** A run is decided once, on its own bytes: at its first byte
 *   outside the alphabet, at the end of input, or when it reaches `cap` characters, each a
 *   function of the input alone.
 * - **Bounded hold.** A run still going at `cap` characters (at most half the window) is
 *   decided on those; if it carried no secret the rest of the run is not decoded (a long
 *   blob is data, not a wrapped credential) and the run is released.
 * - **Linear time.** Outside runs the scan skips ahead {@link MIN_RUN} bytes at a time and
 *   looks back only to the last byte outside the alphabet (a skip search). A run is tested
 *   at each of four alignments by a cheap look at its characters, decoded only where that
 *   says it may be text, and the decoded bytes are scanned by the rules only when they hold
 *   a stretch of printable text (the base64 of random bytes, digests and ids does not), by
 *   a nested redactor that does not decode again.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * const wrapped = Buffer.from("GITHUB_TOKEN=ghp_" + "a1B2".repeat(9)).toString("base64");
 * redactText(`.dockerconfigjson: ${wrapped}`); // ".dockerconfigjson: [REDACTED:base64]"
 * ```
 */
import { copyRun, type RunFinder, type RunView, scanRuns } from "./alphabet-runs.js";
import type { InputRing } from "./input-ring.js";
import { hasSecretKeyShape, SECRET_KEY_LENGTH } from "./secret-key-shape.js";

/**
 * Shortest run decoded: 24 bytes, an assignment with a token (`X_TOKEN=` and 16 more) or
 * a provider token with its prefix. Shorter runs (a bare 20-byte AWS key id, `pw=hunter2`)
 * are not decoded: the search skips MIN_RUN bytes at a time, so its cost falls as MIN_RUN
 * grows, and 24 characters instead cost the log bench a further 7% or so.
 */
export const MIN_RUN = 32;
/** Longest run decoded (characters), when the window allows. */
export const MAX_RUN = 4096;
/** Printable bytes in a row that make decoded bytes worth scanning (below the shortest secret). */
const MIN_TEXT = 17;
/** Whole 3-byte groups that MIN_TEXT bytes in a row always include (2 + 3 × 5 = 17). */
const STREAK = Math.floor((MIN_TEXT - 2) / 3);

/** Base64 and base64url characters (both alphabets: `+/` and `-_`). */
const VALUE = new Int8Array(256).fill(-1);
for (let i = 0; i < 64; i++) {
  VALUE["ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".charCodeAt(i)] = i;
}
VALUE[0x2d] = 62; // "-"
VALUE[0x5f] = 63; // "_"
const IN_RUN = Uint8Array.from(VALUE, (v) => (v >= 0 ? 1 : 0));
/** Per character, which place in a group of base64 of ASCII it may take: bit k for place k. */
const GROUP = Uint8Array.from(
  VALUE,
  (v) =>
    (v >= 0 && v < 32 ? 1 : 0) |
    (v >= 0 && (v & 8) === 0 ? 2 : 0) |
    (v >= 0 && (v & 2) === 0 ? 4 : 0),
);

/** Text a credential is written in: printable ASCII, tab, newline, carriage return. */
const TEXT = new Uint8Array(256);
for (let b = 0x20; b < 0x7f; b++) TEXT[b] = 1;
TEXT[0x09] = 1;
TEXT[0x0a] = 1;
TEXT[0x0d] = 1;

const Mode = {
  /** Not in a run: the byte before the scan position is outside the alphabet. */
  Idle: 0,
  /** In a run not decided yet: held from `runStart`. */
  Holding: 1,
  /** In a run that carries a secret: redacted to its end. */
  Redacting: 2,
  /** In a run decided clean at `cap`: released, skipped to its end. */
  Released: 3,
  /** After a redacted run: its `=` padding (at most two) is redacted with it. */
  Padding: 4,
} as const;
const PAD = 0x3d;
const LF = 0x0a;
const CR = 0x0d;
type Mode = (typeof Mode)[keyof typeof Mode];

/** Says whether decoded bytes hold a secret by the rules (a nested, non-decoding redactor). */
export type DecodedScan = (decoded: Uint8Array) => boolean;

/** The base64 part of one redactor: run state across chunks, and its claim on the frontier. */
export class Base64Runs implements RunView {
  private mode: Mode = Mode.Idle;
  /** Input offset of the current run's first byte. */
  private runStart = 0;
  /** While redacting: the end of what is redacted so far. */
  private redactedTo = 0;
  /** While padding: `=` bytes redacted so far. */
  private padded = 0;
  private readonly cap: number;
  /** Where the last run decided ended, and its length (see {@link continuesWrapped}). */
  private lastEnd = -1;
  private lastLength = 0;
  /** Decoded run bytes, allocated at the first decision (most redactors never make one). */
  private decodedBytes: Uint8Array | null = null;
  /** The characters of the run being decided, grown as runs need. */
  private runChars: Uint8Array | null = null;

  constructor(
    private readonly input: InputRing,
    window: number,
    private readonly rule: number,
    /** Rule index of a bare AWS secret access key, or -1 when that test is off. */
    private readonly keyRule: number,
    private readonly addSpan: (start: number, end: number, rule: number) => void,
    private readonly scanDecoded: DecodedScan,
    /**
     * True when `[start, end)` is decided redacted already: adding it for a rule no lower
     * than the third argument would change nothing.
     */
    private readonly redacted: (start: number, end: number, rule: number) => boolean,
    /**
     * Told of every run of {@link MIN_RUN}+ characters as it ends, `[start, end)` (one past
     * `cap` is not told), for the search for repeated secrets (`repeated-secrets.ts`).
     */
    private readonly ended: ((start: number, end: number) => void) | null = null,
  ) {
    this.cap = Math.max(MIN_RUN, Math.min(MAX_RUN, window >> 1));
  }

  private get decoded(): Uint8Array {
    this.decodedBytes ??= new Uint8Array(Math.ceil((this.cap * 3) / 4) + 3);
    return this.decodedBytes;
  }

  /** Room for `length` run characters (a run is at most `cap`). */
  private charsFor(length: number): Uint8Array {
    if (this.runChars === null || this.runChars.length < length)
      this.runChars = new Uint8Array(Math.min(this.cap, Math.max(64, 2 * length)));
    return this.runChars;
  }

  /** The earliest byte a run may still claim, or `limit` when none is earlier (invariant 2). */
  frontier(limit: number): number {
    if (this.mode === Mode.Holding) return Math.min(limit, this.runStart);
    if (this.mode === Mode.Redacting || this.mode === Mode.Padding)
      return Math.min(limit, this.redactedTo);
    return limit;
  }

  /** Scan `chunk[from .. end)` (`chunk[0]` is input offset `base`), runs found by `find`. */
  scan(chunk: Uint8Array, base: number, from: number, end: number, find?: RunFinder): void {
    scanRuns(this, chunk, base, from, end, IN_RUN, MIN_RUN, find);
  }

  get inRun(): boolean {
    return this.mode !== Mode.Idle;
  }

  startRun(at: number): void {
    this.mode = Mode.Holding;
    this.runStart = at;
  }

  /** End of input at `pos`: decide the run still held. */
  endOfInput(pos: number): void {
    if (this.mode === Mode.Holding && pos - this.runStart >= MIN_RUN) {
      this.ended?.(this.runStart, pos);
      // Padding cannot follow: the input ends here.
      const rule = this.decide(this.runStart, pos - this.runStart, -1);
      if (rule >= 0) this.addSpan(this.runStart, pos, rule);
    }
    this.mode = Mode.Idle;
  }

  /** Fail closed dropped everything held: start again outside any run. */
  clear(): void {
    this.mode = Mode.Idle;
  }

  /**
   * Go on with the current run from `chunk[i]`; returns the index of the first byte after
   * it and its padding (the mode is then Idle, and the byte before is outside the alphabet)
   * or `end` (still in the run).
   */
  continueRun(chunk: Uint8Array, base: number, i: number, end: number): number {
    if (this.mode === Mode.Padding) return this.pad(chunk, base, i, end);
    if (this.mode === Mode.Holding) {
      const capAt = this.runStart + this.cap - base;
      const limit = Math.min(end, capAt);
      while (i < limit && IN_RUN[chunk[i]!] === 1) i++;
      if (i < capAt) {
        if (i === end) return end;
        // The run ended at chunk[i]: decide it on all of its bytes.
        const length = base + i - this.runStart;
        this.mode = Mode.Idle;
        if (length >= MIN_RUN) this.ended?.(this.runStart, base + i);
        const rule = length >= MIN_RUN ? this.decide(this.runStart, length, chunk[i]!) : -1;
        if (rule >= 0) {
          this.addSpan(this.runStart, base + i, rule);
          return this.startPadding(chunk, base, i, end);
        }
        return i;
      }
      // Invariant 3: decided at `cap` characters, however long the run goes on.
      if (this.carriesSecret(this.runStart, this.cap)) {
        this.mode = Mode.Redacting;
        this.redactedTo = this.runStart;
      } else {
        this.mode = Mode.Released;
      }
    }
    const start = i;
    while (i < end && IN_RUN[chunk[i]!] === 1) i++;
    const redacting = this.mode === Mode.Redacting;
    if (redacting) {
      this.addSpan(Math.min(this.redactedTo, base + start), base + i, this.rule);
      this.redactedTo = base + i;
    }
    if (i === end) return end;
    this.mode = Mode.Idle;
    return redacting ? this.startPadding(chunk, base, i, end) : i;
  }

  /** A redacted run ended at `chunk[i]` (< end): its padding goes with it. */
  private startPadding(chunk: Uint8Array, base: number, i: number, end: number): number {
    if (chunk[i] !== PAD) return i;
    this.mode = Mode.Padding;
    this.padded = 0;
    this.redactedTo = base + i;
    return this.pad(chunk, base, i, end);
  }

  /** Up to two `=` after a redacted run; returns the first byte after them, or `end`. */
  private pad(chunk: Uint8Array, base: number, i: number, end: number): number {
    const start = i;
    while (i < end && this.padded < 2 && chunk[i] === PAD) {
      i++;
      this.padded++;
    }
    if (i > start) {
      this.addSpan(base + start, base + i, this.rule);
      this.redactedTo = base + i;
    }
    if (i === end && this.padded < 2) return end;
    this.mode = Mode.Idle;
    return i;
  }

  /**
   * The rule that redacts the whole run of `length` bytes from `start` ended by `next` (-1:
   * the end of input), or -1: a bare secret key, else a decoded secret.
   */
  private decide(start: number, length: number, next: number): number {
    const wrapped = this.continuesWrapped(start);
    this.lastEnd = start + length;
    this.lastLength = length;
    // A run the rules already redacted whole (a token, a JWT's parts, an assignment's
    // value) is not decoded: its span would change no byte, and no padding follows it
    // (only, at most, the marker's name: `MY_SECRET=<40 random>` stays a secret
    // assignment rather than an AWS secret key, which nothing but its length says).
    if (next !== PAD && this.redacted(start, start + length, Number.MAX_SAFE_INTEGER)) return -1;
    // The last line of a wrapped block (a certificate's, 64 characters a line) may be 40
    // characters long: it is the block's tail, not a bare key.
    if (
      length === SECRET_KEY_LENGTH &&
      this.keyRule >= 0 &&
      !wrapped &&
      this.isSecretKey(start, next)
    )
      return this.keyRule;
    return this.carriesSecret(start, length) ? this.rule : -1;
  }

  /**
   * The run starting at `start` begins the line after a run of a wrapped block's width (64
   * characters, PEM's; 76, MIME's) that filled its line to the end: it continues the block.
   */
  private continuesWrapped(start: number): boolean {
    const gap = start - this.lastEnd;
    if ((this.lastLength !== 64 && this.lastLength !== 76) || (gap !== 1 && gap !== 2))
      return false;
    if (this.input.byteAt(start - 1) !== LF) return false;
    return gap === 1 || this.input.byteAt(start - 2) === CR;
  }

  /** A run of 40 random-looking characters, not the base64 of text (`secret-key-shape.ts`). */
  private isSecretKey(start: number, next: number): boolean {
    const { chunk, chunkBase } = this.input;
    const inChunk = start >= chunkBase;
    const chars = inChunk ? chunk : this.copyRun(start, SECRET_KEY_LENGTH);
    const from = inChunk ? start - chunkBase : 0;
    if (!hasSecretKeyShape(chars, from, next) || this.pathAfterHost(start, chars, from))
      return false;
    const decoded = this.decoded;
    const n = decode(chars, from, from + SECRET_KEY_LENGTH, decoded);
    for (let k = 0; k < n; k++) if (TEXT[decoded[k]!] !== 1) return true;
    return false;
  }

  /**
   * The run at `start` (`chars[from…]`) is a URL's path from its host's last label
   * (`pytorch.slack.com/archives/C3PD…/p1705…`: a `.`, small letters, a `/`) or a home
   * directory's (`/~may/VIGRE/…`: a `~` before it).
   */
  private pathAfterHost(start: number, chars: Uint8Array, from: number): boolean {
    const before = start > 0 ? this.input.byteAt(start - 1) : -1;
    if (before === 0x7e) return true;
    if (before !== 0x2e) return false;
    let k = 0;
    while (k < 7 && chars[from + k]! >= 0x61 && chars[from + k]! <= 0x7a) k++;
    return k >= 2 && chars[from + k] === 0x2f;
  }

  /**
   * Decode `length` run bytes from `start` at each of the four alignments (the run may
   * begin with a few characters that are not part of the encoding: `sha512-…`); true when
   * the rules find a secret in one of them.
   */
  private carriesSecret(start: number, length: number): boolean {
    const { chunk, chunkBase } = this.input;
    // Mostly the run lies in the chunk: read it there; else copy it out of the held bytes.
    const inChunk = start >= chunkBase;
    const chars = inChunk ? chunk : this.copyRun(start, length);
    const from = inChunk ? start - chunkBase : 0;
    for (let skip = 0; skip < 4 && length - skip >= MIN_RUN; skip++) {
      if (!mayHoldText(chars, from + skip, from + length)) continue;
      const decoded = this.decoded;
      const n = decode(chars, from + skip, from + length, decoded);
      if (hasText(decoded, n) && this.scanDecoded(decoded.subarray(0, n))) return true;
    }
    return false;
  }

  /** The run's characters `[start, start + length)`, from the held bytes and the chunk. */
  private copyRun(start: number, length: number): Uint8Array {
    return copyRun(this.input, start, length, this.charsFor(length));
  }
}

/**
 * A cheap test before decoding: base64 of ASCII text has, in every group of four
 * characters, a first value below 32, a second with bit 3 clear and a third with bit 1
 * clear (the top bit of each byte is 0). MIN_TEXT bytes in a row need {@link STREAK}
 * such groups in a row at this alignment; random bytes give one group in eight. Any
 * STREAK groups in a row include one whose index is STREAK - 1 modulo STREAK, so only
 * those are looked at first (a skip search again).
 */
function mayHoldText(chars: Uint8Array, from: number, end: number): boolean {
  const groups = Math.floor((end - from) / 4);
  const ok = (k: number): boolean => {
    const g = from + 4 * k;
    return (
      (GROUP[chars[g]!]! & 1) !== 0 &&
      (GROUP[chars[g + 1]!]! & 2) !== 0 &&
      (GROUP[chars[g + 2]!]! & 4) !== 0
    );
  };
  for (let k = STREAK - 1; k < groups; k += STREAK) {
    if (!ok(k)) continue;
    let low = k;
    while (low > k - STREAK + 1 && ok(low - 1)) low--;
    let high = k;
    while (high < low + STREAK - 1 && high + 1 < groups && ok(high + 1)) high++;
    if (high - low + 1 >= STREAK) return true;
  }
  return false;
}

/** Decode `chars[from .. end)` into `out`; returns the bytes written. */
function decode(chars: Uint8Array, from: number, end: number, out: Uint8Array): number {
  let bits = 0;
  let acc = 0;
  let n = 0;
  for (let p = from; p < end; p++) {
    acc = (acc << 6) | VALUE[chars[p]!]!;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (acc >> bits) & 0xff;
      acc &= (1 << bits) - 1;
    }
  }
  return n;
}

/** True when `bytes[0 .. n)` holds MIN_TEXT printable bytes in a row. */
function hasText(bytes: Uint8Array, n: number): boolean {
  let run = 0;
  for (let i = 0; i < n; i++) {
    run = TEXT[bytes[i]!] === 1 ? run + 1 : 0;
    if (run >= MIN_TEXT) return true;
  }
  return false;
}
