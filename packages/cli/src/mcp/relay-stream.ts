/**
 * A message from the wrapped server too large to hold (over {@link streamThreshold}) that
 * answers a pending request the proxy bounds: instead of holding it whole to parse it, the
 * proxy streams its text (`text-extractor.ts`) into a capture as it arrives, pausing the
 * server's pipe while the capture catches up, and answers with the receipt once the
 * message ends. Memory stays that of the pipeline, whatever the message's size. What is
 * kept is the text items only (a structured part or an image of such a message is not).
 */
import { PassThrough } from "node:stream";
import { captureTextStream } from "../tool-result-capture.js";
import { redactString } from "./relay-redaction.js";
import { partialError, spooledAnswer } from "./relay-results.js";
import { shapeOf } from "./relay-shapes.js";
import {
  fail,
  type Id,
  INTERNAL_ERROR,
  key,
  type MessageStream,
  type Relay,
} from "./relay-state.js";
import { createTextExtractor } from "./text-extractor.js";

/** Bytes of one unfinished message after which the proxy streams it instead of holding it. */
export function streamThreshold(budget: number): number {
  return Math.max(2 * budget, 8 * 1024 * 1024);
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
  if (call !== undefined) {
    clearTimeout(call.timer);
    relay.pending.delete(key(id as Id));
  }
  const text = new PassThrough();
  const stream: MessageStream = {
    id,
    call: call ?? null,
    extractor: createTextExtractor(),
    text,
    // Labelled by its call, or by the one bounded call pending when its id comes last.
    captured: captureTextStream(
      (call ?? (bounded.length === 1 ? bounded[0] : undefined))?.tool ?? "streamed answer",
      text,
      relay.options.capture,
    ),
    bytes: 0,
    tail: Buffer.alloc(0),
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
  stream.tail = Buffer.concat([stream.tail, bytes.subarray(-TAIL_BYTES)]).subarray(-TAIL_BYTES);
  let ok = true;
  for (const piece of stream.extractor.push(bytes)) ok = stream.text.write(piece) && ok;
  const out = relay.options.upstream.stdout;
  if (!ok && out) {
    // The capture is behind: hold the server's pipe until it catches up.
    out.pause();
    stream.text.once("drain", () => out.resume());
  }
}

const TAIL_BYTES = 4096;

/** The message ended: its request (named at its start or end) gets the receipt. */
function finishStream(relay: Relay, stream: MessageStream): void {
  relay.stream = null;
  stream.text.end();
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
        spooledAnswer(relay, id, call, stream.bytes, c, shape, {});
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

/** The JSON id `pattern` captures in `text`, or null. */
function idIn(pattern: RegExp, text: string): Id | null {
  const written = pattern.exec(text)?.[1];
  if (written === undefined) return null;
  try {
    return JSON.parse(written) as Id;
  } catch {
    return null;
  }
}
