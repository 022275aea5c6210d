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
import type { StreamName } from "./receipt-vocabulary.js";

export interface PreviewBudget {
  /** @default 8192 */
  stdoutChars: number;
  /** @default 2048 */
  stderrChars: number;
  /** Ceiling of the whole preview text in UTF-8 bytes. @default 16384 */
  maxBytes: number;
}

/**
 * The CLI's preview budget: 8,192 characters of stdout, 2,048 of stderr, 16 KiB in all.
 * Pass the same object as a capture's `preview` and to `createStreamPlan`.
 *
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

/** What a preview tap holds of one stream: representation bytes, valid UTF-8 (or raw for binary). */
export interface PreviewSnapshot {
  /** The first bytes of the stream. */
  head: Uint8Array;
  /** The last bytes, not overlapping `head`; empty while everything fits in `head`. */
  tail: Uint8Array;
  /** Bytes the stream produced in all. */
  total: number;
  /** The stream looks binary (NUL bytes, mostly replaced): show an escaped description. */
  binary: boolean;
}

export interface RenderContext {
  /** The process failed (nonzero exit, signal, timeout): stderr gets priority. */
  failed: boolean;
  /** Where omitted bytes can be read, per stream; null when nothing was stored. */
  refs: Record<StreamName, string | null> | null;
}

export interface RenderedPreview {
  text: string;
  state: "complete" | "omitted";
  bytes: number;
}

const HEADER_STDERR = "--- stderr ---\n";

/** Bytes the layout adds around the stream bodies: the stderr header and its separator. */
export function previewLayoutBytes(stderrTotal: number): number {
  return stderrTotal > 0 ? HEADER_STDERR.length + 1 : 0;
}

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
  // The priority stream takes what it needs first, the other one gets the rest.
  const a = renderStream(streams[first], chars[first], room, first, ref(first));
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
  const show = snap.binary ? escapeBinary : (s: string) => s;
  const heldAll = snap.tail.byteLength === 0 && snap.head.byteLength === snap.total;
  if (heldAll) {
    const all = show(Buffer.from(snap.head).toString("utf8"));
    const bytes = Buffer.byteLength(all);
    if (!snap.binary && [...all].length <= maxChars && bytes <= maxBytes)
      return { text: all, bytes, whole: true };
    if (snap.binary && bytes <= maxBytes && all.length <= maxChars) {
      return withDescription(all, snap, name, ref, true);
    }
  }
  // The marker stands on a line of its own, without adding a blank line after the head.
  const marker = (omitted: number, offset: number, lead = "\n") =>
    `${lead}[… ${omitted} bytes of ${name} omitted${ref ? ` · spool read ${ref} --offset ${offset} --length ${omitted}` : ""} …]\n`;
  const markerBytes = Buffer.byteLength(marker(snap.total, snap.total)) + (snap.binary ? 120 : 0);
  const bodyBytes = Math.max(0, maxBytes - markerBytes);
  const headChars = Math.floor(maxChars / 4);
  const tailChars = maxChars - headChars;
  const headByteBudget = Math.floor(bodyBytes / 4);

  const headAll = Buffer.from(snap.head);
  const tailAll = heldAll ? Buffer.alloc(0) : Buffer.from(snap.tail);
  let head = takeHead(headAll, headChars, headByteBudget);
  const headUsed = head.byteLength;
  // When everything was held in `head`, the tail comes from its end.
  const tailSource = heldAll ? headAll.subarray(headUsed) : tailAll;
  let tail = takeTail(tailSource, tailChars, bodyBytes - headUsed);
  head = trimToLine(head, "head");
  tail = trimToLine(tail, "tail");
  const omitted = snap.total - head.byteLength - tail.byteLength;
  if (omitted <= 0) {
    const text = show(Buffer.concat([head, tail]).toString("utf8"));
    return snap.binary
      ? withDescription(text, snap, name, ref, true)
      : { text, bytes: Buffer.byteLength(text), whole: true };
  }
  const lead = head.byteLength === 0 || head[head.byteLength - 1] === 0x0a ? "" : "\n";
  let text =
    show(head.toString("utf8")) +
    marker(omitted, head.byteLength, lead) +
    show(tail.toString("utf8"));
  if (snap.binary) return withDescription(text, snap, name, ref, false);
  if (Buffer.byteLength(text) > maxBytes)
    text = Buffer.from(text)
      .subarray(0, cutUtf8(Buffer.from(text), maxBytes))
      .toString("utf8");
  return { text, bytes: Buffer.byteLength(text), whole: false };
}

function withDescription(
  body: string,
  snap: PreviewSnapshot,
  name: StreamName,
  ref: string | null,
  whole: boolean,
): StreamPart {
  const text = `[binary-looking ${name}: ${snap.total} bytes, shown escaped${ref ? `; bytes in ${ref}` : ""}]\n${body}\n`;
  return { text, bytes: Buffer.byteLength(text), whole };
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

/** Largest end ≤ `max` that does not split a UTF-8 character. */
export function cutUtf8(buf: Uint8Array, max: number): number {
  if (max >= buf.byteLength) return buf.byteLength;
  let end = max;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return end;
}

/** Control characters, U+FFFD and other non-printables as visible escapes. */
function escapeBinary(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: escaping control characters is the point
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffd]/g, (c) => {
    const code = c.charCodeAt(0);
    return code === 0xfffd ? "\\ufffd" : `\\x${code.toString(16).padStart(2, "0")}`;
  });
}
