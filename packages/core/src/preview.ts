/**
 * Rendering of the bounded preview (SPEC §4) from what each stream's preview tap holds.
 * Each stream shows head + a larger tail within its character budget; the whole text
 * also fits one UTF-8 byte ceiling, shrinking the lower-priority stream first (stderr
 * has priority on failure, stdout otherwise). An omission names its byte count and the
 * command that reads it; a stream that fits is shown whole, byte-identical.
 *
 * @example
 * ```ts
 * import { renderPreview, DEFAULT_PREVIEW_BUDGET } from "@spool/core";
 * const empty = { head: new Uint8Array(), tail: new Uint8Array(), total: 0, binary: false };
 * const text = { ...empty, head: Buffer.from("ok\n"), total: 3 };
 * renderPreview({ stdout: text, stderr: empty }, DEFAULT_PREVIEW_BUDGET, { failed: false, refs: null }).text; // "ok\n"
 * ```
 */
import { UNSAFE_CHARACTERS, writtenOut } from "./printable.js";
import type { StreamName } from "./receipt-vocabulary.js";

/**
 * How much of a capture the preview shows: characters of stdout and of stderr, and a
 * ceiling on the whole text in UTF-8 bytes. Given once, as a capture's `preview`: the
 * capture hands it to its `plan` (`createStreamPlan` derives both taps from it).
 *
 * @category receipts
 * @example
 * ```ts
 * import type { PreviewBudget } from "@spool/core";
 * const small: PreviewBudget = { stdoutChars: 2000, stderrChars: 500, maxBytes: 4096 };
 * ```
 */
export interface PreviewBudget {
  /** Characters of stdout shown (head + tail). @default 8192 */
  stdoutChars: number;
  /** Characters of stderr shown (head + tail). @default 2048 */
  stderrChars: number;
  /** Ceiling of the whole preview text in UTF-8 bytes. @default 16384 */
  maxBytes: number;
}

/**
 * The CLI's preview budget: 8,192 characters of stdout, 2,048 of stderr, 16 KiB in all.
 * Give it as a capture's `preview`; the capture hands it to its `plan` (`createStreamPlan`).
 *
 * @category receipts
 * @example
 * ```ts
 * import { DEFAULT_PREVIEW_BUDGET } from "@spool/core";
 * const roomier = { ...DEFAULT_PREVIEW_BUDGET, stdoutChars: 16_384, maxBytes: 32_768 };
 * ```
 */
export const DEFAULT_PREVIEW_BUDGET: Readonly<PreviewBudget> = Object.freeze({
  stdoutChars: 8192,
  stderrChars: 2048,
  maxBytes: 16384,
});

/**
 * What a preview tap holds of one stream: representation bytes, valid UTF-8 (or raw for
 * binary). {@link renderPreview} turns two of them into the preview text.
 *
 * @category receipts
 * @example
 * ```ts
 * import type { PreviewSnapshot } from "@spool/core";
 * declare const snap: PreviewSnapshot;
 * const omitted = snap.total - snap.head.byteLength - snap.tail.byteLength; // bytes the preview leaves out
 * ```
 */
export interface PreviewSnapshot {
  /** The first bytes of the stream. */
  head: Uint8Array;
  /** The last bytes, not overlapping `head`; empty while everything fits in `head`. */
  tail: Uint8Array;
  /** Bytes the stream produced in all. */
  total: number;
  /** The stream looks binary (NUL bytes, mostly replaced): show an escaped description. */
  binary: boolean;
  /**
   * Where the redactor's own markers lie, as `[start, end)` byte pairs relative to `head`
   * and to `tail`; every other byte is the child's, and a child's look-alike of a spool
   * marker is escaped. @default no markers
   */
  markers?: { readonly head: readonly number[]; readonly tail: readonly number[] };
}

/**
 * What {@link renderPreview} needs beyond the snapshots: whether the producer failed
 * (stderr then comes first) and the refs that name where omitted bytes can be read.
 *
 * @category receipts
 * @example
 * ```ts
 * import type { RenderContext } from "@spool/core";
 * const context: RenderContext = { failed: true, refs: { stdout: null, stderr: "tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/stderr.txt" } };
 * ```
 */
export interface RenderContext {
  /** The process failed (nonzero exit, signal, timeout): stderr gets priority. */
  failed: boolean;
  /** Where omitted bytes can be read, per stream; null when nothing was stored. */
  refs: Record<StreamName, string | null> | null;
}

/**
 * The preview {@link renderPreview} rendered: its text, whether anything was omitted, and
 * its size in UTF-8 bytes (never above the budget's `maxBytes`).
 *
 * @category receipts
 * @example
 * ```ts
 * import { DEFAULT_PREVIEW_BUDGET, renderPreview } from "@spool/core";
 * const none = { head: new Uint8Array(), tail: new Uint8Array(), total: 0, binary: false };
 * const { text, state, bytes } = renderPreview({ stdout: none, stderr: none }, DEFAULT_PREVIEW_BUDGET, { failed: false, refs: null });
 * ```
 */
export interface RenderedPreview {
  /** The preview text. */
  text: string;
  /** "omitted" when some bytes are not shown (each omission names where to read them). */
  state: "complete" | "omitted";
  /** Size of `text` in UTF-8 bytes. */
  bytes: number;
}

const HEADER_STDERR = "--- stderr ---\n";

/**
 * Bytes the layout adds around the stream bodies: the stderr header and its separator
 * (0 when stderr is empty). For deciding whether output fits the preview whole.
 *
 * @category receipts
 * @example
 * ```ts
 * import { previewLayoutBytes } from "@spool/core";
 * previewLayoutBytes(0); // 0
 * previewLayoutBytes(12); // 16: "--- stderr ---\n" and a newline
 * ```
 */
export function previewLayoutBytes(stderrTotal: number): number {
  return stderrTotal > 0 ? HEADER_STDERR.length + 1 : 0;
}

/**
 * Render the bounded preview from each stream's tap: head + tail of each stream within
 * its character budget, the whole within `maxBytes`, the lower-priority stream shrunk
 * first, each omission named with its byte count and the ref that reads it. A stream that
 * fits is shown whole, byte-identical.
 *
 * @category receipts
 * @example
 * ```ts
 * import { renderPreview, DEFAULT_PREVIEW_BUDGET } from "@spool/core";
 * const empty = { head: new Uint8Array(), tail: new Uint8Array(), total: 0, binary: false };
 * const text = { ...empty, head: Buffer.from("ok\n"), total: 3 };
 * renderPreview({ stdout: text, stderr: empty }, DEFAULT_PREVIEW_BUDGET, { failed: false, refs: null }).text; // "ok\n"
 * ```
 */
export function renderPreview(
  streams: Record<StreamName, PreviewSnapshot>,
  budget: PreviewBudget,
  context: RenderContext,
): RenderedPreview {
  const first: StreamName = context.failed ? "stderr" : "stdout";
  const second: StreamName = first === "stdout" ? "stderr" : "stdout";
  const chars: Record<StreamName, number> = {
    stdout: budget.stdoutChars,
    stderr: budget.stderrChars,
  };
  const ref = (name: StreamName) => context.refs?.[name] ?? null;

  const overhead = previewLayoutBytes(streams.stderr.total);
  const room = Math.max(0, budget.maxBytes - overhead);
  // The priority stream takes what it needs first, the other one gets the rest, but never
  // less than room for its omission marker: the ceiling drops body text, never a marker.
  const reserve = leastBytes(streams[second], chars[second], second, ref(second));
  const a = renderStream(
    streams[first],
    chars[first],
    Math.max(0, room - reserve),
    first,
    ref(first),
  );
  const b = renderStream(streams[second], chars[second], room - a.bytes, second, ref(second));
  const parts = { [first]: a, [second]: b } as Record<StreamName, StreamPart>;

  let text = parts.stdout.text;
  if (streams.stderr.total > 0) {
    if (text.length > 0 && !text.endsWith("\n")) text += "\n";
    text += HEADER_STDERR + parts.stderr.text;
  }
  return {
    text,
    state: parts.stdout.whole && parts.stderr.whole ? "complete" : "omitted",
    bytes: Buffer.byteLength(text),
  };
}

interface StreamPart {
  text: string;
  bytes: number;
  whole: boolean;
}

function renderStream(
  snap: PreviewSnapshot,
  maxChars: number,
  maxBytes: number,
  name: StreamName,
  ref: string | null,
): StreamPart {
  if (snap.total === 0) return { text: "", bytes: 0, whole: true };
  const heldAll = snap.tail.byteLength === 0 && snap.head.byteLength === snap.total;
  const headAll = Buffer.from(snap.head);
  const marks = snap.markers ?? NO_MARKERS;
  if (heldAll) {
    const all = inlineText(headAll, headAll, marks.head, snap.binary);
    const bytes = Buffer.byteLength(all);
    if (!snap.binary && [...all].length <= maxChars && bytes <= maxBytes)
      return { text: all, bytes, whole: true };
    if (snap.binary && bytes <= maxBytes && all.length <= maxChars) {
      return withDescription(all, snap, name, ref, true);
    }
  }
  const tailAll = heldAll ? Buffer.alloc(0) : Buffer.from(snap.tail);
  // When everything was held in `head`, the tail comes from its end.
  const tailOrigin = heldAll
    ? { buf: headAll, spans: marks.head }
    : { buf: tailAll, spans: marks.tail };
  const show = (buf: Buffer, origin: { buf: Buffer; spans: readonly number[] }) =>
    inlineText(buf, origin.buf, origin.spans, snap.binary);
  const headChars = Math.floor(maxChars / 4);
  const tailChars = maxChars - headChars;
  // The marker is reserved first; escapes can make the bodies longer than the bytes they
  // show, so the body budget shrinks by the excess until the whole fits (never the marker).
  let bodyBytes = Math.max(0, maxBytes - markerReserve(snap, name, ref));
  for (let attempt = 0; ; attempt++) {
    let head = takeHead(headAll, headChars, Math.floor(bodyBytes / 4));
    const tailSource = heldAll ? headAll.subarray(head.byteLength) : tailAll;
    let tail = takeTail(tailSource, tailChars, bodyBytes - head.byteLength);
    head = trimToLine(head, "head");
    tail = trimToLine(tail, "tail");
    const omitted = snap.total - head.byteLength - tail.byteLength;
    const lead = head.byteLength === 0 || head[head.byteLength - 1] === 0x0a ? "" : "\n";
    const body =
      show(head, { buf: headAll, spans: marks.head }) +
      (omitted > 0 ? omissionMarker(name, ref, omitted, head.byteLength, lead) : "") +
      show(tail, tailOrigin);
    const whole = omitted <= 0;
    const part = snap.binary
      ? withDescription(body, snap, name, ref, whole)
      : { text: body, bytes: Buffer.byteLength(body), whole };
    const over = part.bytes - maxBytes;
    if (over <= 0 || bodyBytes === 0) return part;
    bodyBytes = attempt < 8 ? Math.max(0, bodyBytes - over) : 0;
  }
}

const NO_MARKERS = { head: [], tail: [] } as const;

/** The omission marker: on a line of its own, without adding a blank line after the head. */
function omissionMarker(
  name: StreamName,
  ref: string | null,
  omitted: number,
  offset: number,
  lead: string,
): string {
  const read = ref ? ` · spool read ${ref} --offset ${offset} --length ${omitted}` : "";
  return `${lead}[… ${omitted} bytes of ${name} omitted${read} …]\n`;
}

/** The fewest bytes a stream can be shown in: whole if it fits its characters, else its marker. */
function leastBytes(
  snap: PreviewSnapshot,
  maxChars: number,
  name: StreamName,
  ref: string | null,
): number {
  const marker = markerReserve(snap, name, ref);
  if (snap.binary || snap.tail.byteLength > 0 || snap.head.byteLength !== snap.total) return marker;
  const head = Buffer.from(snap.head);
  const all = inlineText(head, head, snap.markers?.head ?? [], false);
  return [...all].length <= maxChars ? Math.min(marker, Buffer.byteLength(all)) : marker;
}

/** Bytes a stream's omission marker (and binary description) can take at most. */
function markerReserve(snap: PreviewSnapshot, name: StreamName, ref: string | null): number {
  if (snap.total === 0) return 0;
  const marker = Buffer.byteLength(omissionMarker(name, ref, snap.total, snap.total, "\n"));
  return marker + (snap.binary ? Buffer.byteLength(description(snap, name, ref)) + 1 : 0);
}

function withDescription(
  body: string,
  snap: PreviewSnapshot,
  name: StreamName,
  ref: string | null,
  whole: boolean,
): StreamPart {
  const text = `${description(snap, name, ref)}${body}\n`;
  return { text, bytes: Buffer.byteLength(text), whole };
}

function description(snap: PreviewSnapshot, name: StreamName, ref: string | null): string {
  return `[binary-looking ${name}: ${snap.total} bytes, shown escaped${ref ? `; bytes in ${ref}` : ""}]\n`;
}

/** The first `chars` characters of `buf`, at most `bytes` bytes, never splitting a character. */
function takeHead(buf: Buffer, chars: number, bytes: number): Buffer {
  let end = 0;
  let seen = 0;
  const limit = Math.min(buf.byteLength, bytes);
  while (end < limit && seen < chars) {
    const width = charWidth(buf[end]!);
    if (end + width > limit) break;
    end += width;
    seen++;
  }
  return buf.subarray(0, end);
}

/** The last `chars` characters of `buf`, at most `bytes` bytes, never splitting a character. */
function takeTail(buf: Buffer, chars: number, bytes: number): Buffer {
  let start = buf.byteLength;
  const floor = Math.max(0, buf.byteLength - Math.max(0, bytes));
  let seen = 0;
  while (start > floor && seen < chars) {
    let at = start - 1;
    while (at > floor && (buf[at]! & 0xc0) === 0x80) at--;
    if ((buf[at]! & 0xc0) === 0x80) break;
    start = at;
    seen++;
  }
  return buf.subarray(start);
}

/** Prefer to cut at a line boundary when one lies in the outer half of the slice. */
function trimToLine(buf: Buffer, side: "head" | "tail"): Buffer {
  if (buf.byteLength < 2) return buf;
  if (side === "head") {
    const nl = buf.lastIndexOf(0x0a);
    return nl >= buf.byteLength / 2 ? buf.subarray(0, nl + 1) : buf;
  }
  const nl = buf.indexOf(0x0a);
  return nl !== -1 && nl < buf.byteLength / 2 && nl + 1 < buf.byteLength
    ? buf.subarray(nl + 1)
    : buf;
}

function charWidth(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xf0) return 4;
  if (lead >= 0xe0) return 3;
  if (lead >= 0xc0) return 2;
  return 1;
}

/**
 * Largest end ≤ `max` that does not split a UTF-8 character of `buf`: for cutting text
 * bytes to a budget.
 *
 * @category receipts
 * @example
 * ```ts
 * import { cutUtf8 } from "@spool/core";
 * const bytes = Buffer.from("héllo"); // "é" is 2 bytes, at 1..3
 * cutUtf8(bytes, 2); // 1: cutting at 2 would split "é"
 * ```
 */
export function cutUtf8(buf: Uint8Array, max: number): number {
  if (max >= buf.byteLength) return buf.byteLength;
  let end = max;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return end;
}

/**
 * A stream's bytes as inline text, safe for a terminal and unambiguous for a reader:
 * the redactor's markers (`spans`, byte pairs relative to `origin`) as they are; in
 * the child's text every control character but newline and tab becomes `\xNN` (C1
 * controls too: U+009B is a terminal's CSI), every invisible or bidi character `\uXXXX`
 * (`UNSAFE_CHARACTERS`: a forged separator cannot hide behind a U+200B), and the opening of anything that reads as
 * spool's own text gets a backslash (`\[REDACTED:`, `\[OMITTED:`, `\[…`, `\[spool]`,
 * `\[binary-looking`, a line `\--- stderr ---`). A binary stream also shows U+FFFD as
 * `\ufffd`. Files keep the bytes as they are.
 */
export function inlineText(
  buf: Buffer,
  origin: Buffer,
  spans: readonly number[],
  binary: boolean,
): string {
  const base = buf.byteOffset - origin.byteOffset;
  let out = "";
  let at = 0;
  for (let i = 0; i < spans.length; i += 2) {
    const start = spans[i]! - base;
    const end = spans[i + 1]! - base;
    if (end <= 0 || start >= buf.byteLength) continue;
    const s = Math.max(0, start);
    if (s > at) out += escapeChildText(buf.subarray(at, s).toString("utf8"), binary);
    at = Math.min(buf.byteLength, end);
    out += buf.subarray(s, at).toString("utf8");
  }
  if (at < buf.byteLength) out += escapeChildText(buf.subarray(at).toString("utf8"), binary);
  return out;
}

/** Whether the preview can show this stream as itself: text that needs no escape. */
export function shownAsItself(snap: PreviewSnapshot): boolean {
  if (snap.binary) return false;
  const marks = snap.markers ?? NO_MARKERS;
  const same = (buf: Uint8Array, spans: readonly number[]) => {
    const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
    return inlineText(b, b, spans, false) === b.toString("utf8");
  };
  return same(snap.head, marks.head) && same(snap.tail, marks.tail);
}

/** Control characters but tab and newline, C1 included, and the invisible and bidi ones. */
const CONTROLS = UNSAFE_CHARACTERS;
/** The opening of spool's own text: markers, the status line, the stderr header. */
const LOOK_ALIKES = String.raw`\[(?=REDACTED:|OMITTED:|…|spool\]|binary-looking )|^-(?=-- stderr ---)`;
const CHILD_ESCAPES = new RegExp(`[${CONTROLS}]|${LOOK_ALIKES}`, "gm");
const BINARY_ESCAPES = new RegExp(`[${CONTROLS}\ufffd]|${LOOK_ALIKES}`, "gm");

/**
 * Whether the preview would escape some of `text` as a child's (a control character, or
 * the opening of one of spool's own markers): such a stream is stored even when small.
 *
 * @category receipts
 * @example
 * ```ts
 * import { needsEscape } from "@spool/core";
 * needsEscape("plain text\n"); // false
 * needsEscape("\x1b[31mred"); // true
 * ```
 */
export function needsEscape(text: string): boolean {
  CHILD_ESCAPES.lastIndex = 0;
  return CHILD_ESCAPES.test(text);
}

function escapeChildText(text: string, binary: boolean): string {
  return text.replace(binary ? BINARY_ESCAPES : CHILD_ESCAPES, (c) =>
    c === "[" || c === "-" ? `\\${c}` : writtenOut(c),
  );
}
