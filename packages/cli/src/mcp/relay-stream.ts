/**
 * A message from the wrapped server too large to hold (over {@link streamThreshold}) that
 * answers a pending request the proxy bounds: instead of holding it whole to parse it, the
 * proxy streams its text (`text-extractor.ts`) into a capture as it arrives, pausing the
 * server's pipe while the capture catches up, and answers with the receipt once the
 * message ends. Memory stays that of the pipeline, whatever the message's size. The
 * capture holds the text items; the answer keeps the structured part from a bounded copy
 * of the message (`json-skeleton.ts`), no image.
 */
import { PassThrough } from "node:stream";
import { captureTextStream } from "../tool-result-capture.js";
import { createJsonSkeleton } from "./json-skeleton.js";
import { redactString } from "./relay-redaction.js";
import { partialError, spooledAnswer } from "./relay-results.js";
import { shapeOf } from "./relay-shapes.js";
import {
  fail,
  type Id,
  INTERNAL_ERROR,
  idOf,
  key,
  type MessageStream,
  type Relay,
} from "./relay-state.js";
import { createTextExtractor } from "./text-extractor.js";

/** Bytes of one unfinished message after which the proxy streams it instead of holding it. */
export function streamThreshold(budget: number): number {
  // Above the 11.7 MB message of a 5 MB file read (held whole: its capture keeps every
  // section), well below what holding a message costs (several times its size).
  return Math.max(2 * budget, 16 * 1024 * 1024);
}

/**
 * Start streaming the message whose first bytes are `head` (taken from the line splitter),
 * if it is an answer (a `"result"` near its start, no `"method"`) while a request the proxy
 * bounds is pending; else null (it is held as before). Its id may come last (the SDK writes
 * `result` first): it is read from the head if there, else from the tail at the end.
 */
export function startStream(relay: Relay, head: Buffer): MessageStream | null {
  const start = head.subarray(0, 4096).toString();
  if (!/^\s*\{/.test(start) || !start.includes('"result"') || start.includes('"method"'))
    return null;
  const id = idIn(
    /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/,
    start,
  );
  const bounded = [...relay.pending.values()].filter((c) => shapeOf(c.method) !== undefined);
  if (bounded.length === 0) return null;
  const call = id === null ? undefined : relay.pending.get(key(id));
  // An answer to a request the proxy passes through is held whole, as before.
  if (id !== null && (call === undefined || shapeOf(call.method) === undefined)) return null;
  if (call !== undefined) {
    clearTimeout(call.timer);
    relay.pending.delete(key(id as Id));
  }
  const text = new PassThrough();
  const only = bounded.length === 1 ? bounded[0] : undefined;
  const stream: MessageStream = {
    id,
    call: call ?? null,
    guess:
      call === undefined && only !== undefined
        ? ([...relay.pending.entries()].find(([, c]) => c === only)?.[0] ?? null)
        : null,
    extractor: createTextExtractor(),
    skeleton: createJsonSkeleton(relay.options.budget, SKELETON_BYTES),
    text,
    // Labelled by its call, or by the one bounded call pending when its id comes last.
    captured: captureTextStream(
      (call ?? only)?.tool ?? "streamed answer",
      text,
      relay.options.capture,
    ),
    bytes: 0,
    tail: Buffer.alloc(0),
    queue: [],
    waiting: false,
    ending: false,
  };
  // Settled later, in order, by finishStream or abandonStream.
  stream.captured.catch(() => {});
  feed(relay, stream, head);
  return stream;
}

/**
 * Bytes from the server while `stream` is open: up to the end of its line go to the
 * capture; returns what follows that line (empty while it goes on).
 */
export function continueStream(relay: Relay, stream: MessageStream, chunk: Buffer): Buffer {
  const nl = chunk.indexOf(10);
  feed(relay, stream, nl === -1 ? chunk : chunk.subarray(0, nl));
  if (nl === -1) return Buffer.alloc(0);
  finishStream(relay, stream);
  return chunk.subarray(nl + 1);
}

/** The server has gone with the message unfinished: the capture ends short, the call fails. */
export function abandonStream(relay: Relay, stream: MessageStream, why: string): void {
  relay.stream = null;
  stream.text.destroy(new Error(why));
  const call = stream.call;
  if (call === null || stream.id === null) return; // its request is answered as pending
  relay.captures = relay.captures
    .then(() => stream.captured)
    .then(
      (c) => partialError(relay, stream.id as Id, call, Buffer.alloc(0), why, c),
      (error: unknown) =>
        fail(
          stream.id as Id,
          INTERNAL_ERROR,
          `spool mcp-proxy: ${why} (${(error as Error).message})`,
        ),
    );
}

function feed(relay: Relay, stream: MessageStream, bytes: Buffer): void {
  stream.bytes += bytes.length;
  stream.skeleton.push(bytes);
  stream.tail = Buffer.concat([stream.tail, bytes.subarray(-TAIL_BYTES)]).subarray(-TAIL_BYTES);
  // In pipe-sized pieces, as a child's output would come to a capture.
  for (let at = 0; at < bytes.length; at += PIECE_BYTES) {
    const text = stream.extractor.push(bytes.subarray(at, at + PIECE_BYTES));
    if (text.length > 0)
      stream.queue.push(text.length === 1 ? (text[0] as Buffer) : Buffer.concat(text));
  }
  feedStream(relay, stream);
}

/**
 * Write queued text to the capture as fast as it takes it; while it is behind, the
 * server's pipe is paused (so what is held is a pipe's worth, not the message).
 */
function feedStream(relay: Relay, stream: MessageStream): void {
  const out = relay.options.upstream.stdout;
  if (stream.waiting) return;
  for (let piece = stream.queue.shift(); piece !== undefined; piece = stream.queue.shift()) {
    if (!stream.text.write(piece)) {
      out?.pause();
      stream.waiting = true;
      stream.text.once("drain", () => {
        stream.waiting = false;
        feedStream(relay, stream);
      });
      return;
    }
  }
  if (stream.ending) stream.text.end();
  out?.resume();
}

const TAIL_BYTES = 4096;
const PIECE_BYTES = 64 * 1024;
/** Most bytes of a streamed message's bounded copy (beyond: its structured part is not kept). */
const SKELETON_BYTES = 4 * 1024 * 1024;

/** The message ended: its request (named at its start or end) gets the receipt. */
function finishStream(relay: Relay, stream: MessageStream): void {
  relay.stream = null;
  stream.ending = true;
  feedStream(relay, stream);
  const id =
    stream.id ??
    idIn(/"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)\s*\}\s*$/, stream.tail.toString("latin1"));
  let call = stream.call;
  if (call === null && id !== null) {
    call = relay.pending.get(key(id)) ?? null;
    if (call !== null) clearTimeout(call.timer);
    relay.pending.delete(key(id));
  }
  const shape = call === null ? undefined : shapeOf(call.method);
  relay.captures = relay.captures
    .then(() => stream.captured)
    .then((c) => {
      if (call !== null && id !== null && shape !== undefined)
        spooledAnswer(relay, id, call, stream.bytes, c, shape, keptOf(stream));
      else if (call !== null && id !== null)
        // Its id came last and named a request passed through (not one the proxy bounds).
        fail(
          id,
          INTERNAL_ERROR,
          `spool mcp-proxy: the answer to ${call.method} was ${stream.bytes} B, too large to relay; its text is kept as capture ${c.receipt.captureId}`,
        );
      else
        process.stderr.write(
          `spool mcp-proxy: an answer to no pending request (${stream.bytes} B) was kept as capture ${c.receipt.captureId}\n`,
        );
    })
    .catch((error: unknown) => {
      const message = `spool mcp-proxy: the result of ${redactString(call?.tool ?? "a call")} (${stream.bytes} B) could not be spooled: ${(error as Error).message}`;
      if (id !== null) fail(id, INTERNAL_ERROR, message);
      else process.stderr.write(`${message}\n`);
    });
}

/**
 * What a streamed answer keeps of its result: its structured part (strings cut, from the
 * bounded copy) and `isError`; its content items are in the capture, an image is not kept.
 */
function keptOf(stream: MessageStream): Record<string, unknown> {
  const copy = stream.skeleton.text();
  if (copy === null) return {};
  try {
    const parsed: unknown = JSON.parse(copy);
    const result = recordOf(recordOf(parsed).result);
    return {
      ...(result.structuredContent === undefined
        ? {}
        : { structuredContent: result.structuredContent }),
      ...(result.isError === true ? { isError: true } : {}),
    };
  } catch {
    return {};
  }
}

/** The JSON id `pattern` captures in `text`, or null. */
function idIn(pattern: RegExp, text: string): Id | null {
  const written = pattern.exec(text)?.[1];
  if (written === undefined) return null;
  return idOf(written);
}

/** `value` if it is a JSON object, else an empty one. */
function recordOf(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
