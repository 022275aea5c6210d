/**
 * Live follow by Server-Sent Events: `GET /api/v1/captures/:id/events`. Built on
 * `store.watch` (one look per capture however many follow it) and `openStream`: each state
 * the watch yields is sent as `event: state`, then every byte committed since the last
 * event as `event: bytes` (`{stream, offset, text}`, or `base64` for a binary stream; at
 * most 64 KiB a piece, never a split UTF-8 character), and when the capture is no longer
 * live, `event: receipt` (its final or crash receipt, for remote readers) ends the stream.
 *
 * Each `bytes` event's `id` is `stdout:N,stderr:M` (the offsets reached), and the follow
 * starts from `?stdout=N&stderr=M` or a `Last-Event-ID` of that form, so a reconnecting
 * reader gets every committed byte exactly once (any other `Last-Event-ID` is refused, 400;
 * an offset inside a UTF-8 character starts at that character). `?stream=S` follows one stream. What one
 * response carries is capped at `maxTransfer` bytes: past it an `event: cut` names the
 * offsets to resume from and the response ends.
 * A follow that fails ends with `event: error` (`{code, message}`). While nothing happens
 * (a quiet job), a comment line (`: heartbeat`) goes out every `heartbeatMs`, so proxies
 * and clients see the connection alive and a client gone is noticed by the next write.
 *
 * The body is pulled: nothing is read from the store faster than the client takes it.
 */
import type { CaptureStore, Clock, StoredCapture, StreamName } from "@spool/core";
import { isSpoolError, producerOf, SpoolError } from "@spool/core";
import { characterEnd } from "./character-end.js";
import { receiptForRemote } from "./remote-receipt.js";

/** Largest piece of stream data in one event. */
export const EVENT_BYTES = 64 * 1024;

export interface LiveEventsRequest {
  readonly store: CaptureStore;
  readonly captureId: string;
  readonly query: URLSearchParams;
  readonly lastEventId: string | null;
  readonly maxTransfer: number;
  /** Quiet time before a heartbeat comment, and the clock that measures it. */
  readonly heartbeat: { readonly everyMs: number; readonly clock: Clock };
}

/** Sent after `heartbeat.everyMs` without an event: a comment, which EventSource ignores. */
export const HEARTBEAT = ": heartbeat\n\n";

export function liveEvents(r: LiveEventsRequest): Response {
  const only = r.query.get("stream");
  if (only !== null && only !== "stdout" && only !== "stderr") {
    throw new SpoolError("SPOOL_E_USAGE", "serve", "stream is stdout or stderr");
  }
  const streams: StreamName[] = only === null ? ["stdout", "stderr"] : [only];
  const offsets = startOffsets(r.query, r.lastEventId);
  const abort = new AbortController();
  const frames = follow(r, streams, offsets, abort.signal)[Symbol.asyncIterator]();
  const beats = withHeartbeat(frames, r.heartbeat);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const got = await beats.next();
        if (got.done) controller.close();
        else controller.enqueue(encoder.encode(got.value));
      } catch (error) {
        // Say why the follow stops (a code and a bounded message, nothing else), then end.
        abort.abort();
        const code = isSpoolError(error) ? error.code : "SPOOL_E_STORAGE";
        const message = isSpoolError(error) ? error.message.slice(0, 200) : "internal error";
        controller.enqueue(encoder.encode(frame("error", JSON.stringify({ code, message }))));
        controller.close();
      }
    },
    async cancel() {
      beats.stop();
      abort.abort();
      await frames.return?.(undefined);
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

/**
 * `frames.next()`, or {@link HEARTBEAT} when no frame comes within `everyMs` (the frame
 * still awaited is the next call's: none is lost or asked for twice). The timer is
 * cancelled as soon as either comes, so a finished follow leaves none behind.
 */
function withHeartbeat(
  frames: AsyncIterator<string>,
  heartbeat: LiveEventsRequest["heartbeat"],
): { next(): Promise<IteratorResult<string>>; stop(): void } {
  let pending: Promise<IteratorResult<string>> | null = null;
  let cancel = () => {};
  return {
    async next() {
      pending ??= frames.next();
      const beat = new Promise<"beat">((resolve) => {
        cancel = heartbeat.clock.setTimeout(() => resolve("beat"), heartbeat.everyMs);
      });
      try {
        const won = await Promise.race([pending, beat]);
        if (won === "beat") return { done: false, value: HEARTBEAT };
        pending = null;
        return won;
      } finally {
        cancel();
      }
    },
    /** The reader left: no heartbeat is due any more. */
    stop: () => cancel(),
  };
}

async function* follow(
  r: LiveEventsRequest,
  streams: readonly StreamName[],
  offsets: Record<StreamName, number>,
  signal: AbortSignal,
): AsyncGenerator<string> {
  let sent = 0;
  let last: StoredCapture | null = null;
  const id = () => `stdout:${offsets.stdout},stderr:${offsets.stderr}`;
  for await (const state of r.store.watch(r.captureId, { signal })) {
    last = state;
    yield frame("state", JSON.stringify(summary(state)));
    for (const name of streams) {
      if (state.receipt.streams[name].ref === null) continue; // nothing stored: it is all in the preview
      const reader = await r.store.openStream(state, name);
      try {
        const { start, end } = await reader.span(offsets[name], reader.committed);
        // An offset inside a character (a reader's own, not an id we sent) resumes at the
        // character's start: decoding from its middle would invent a U+FFFD.
        if (offsets[name] < reader.committed) offsets[name] = start;
        let carry: Buffer = Buffer.alloc(0);
        for await (const chunk of reader.chunks(offsets[name], end)) {
          let bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
          while (bytes.length > 0) {
            let cut = Math.min(bytes.length, EVENT_BYTES);
            if (!reader.binary) cut = characterEnd(bytes, cut);
            if (cut === 0) break; // an incomplete character: wait for the rest of it
            if (sent + cut > r.maxTransfer) {
              yield frame("cut", JSON.stringify({ reason: "max-transfer", ...offsets }), id());
              return;
            }
            const piece = bytes.subarray(0, cut);
            const payload = reader.binary
              ? { stream: name, offset: offsets[name], base64: piece.toString("base64") }
              : { stream: name, offset: offsets[name], text: piece.toString("utf8") };
            offsets[name] += cut;
            sent += cut;
            yield frame("bytes", JSON.stringify(payload), id());
            bytes = bytes.subarray(cut);
          }
          carry = Buffer.from(bytes);
        }
      } finally {
        await reader.close();
      }
    }
  }
  if (last && last.condition !== "live") {
    yield frame(
      "receipt",
      JSON.stringify({ condition: last.condition, receipt: receiptForRemote(last.receipt, null) }),
    );
  }
}

/**
 * Where the follow starts: `Last-Event-ID` (a reconnect) wins over the query. An id is
 * one this server sent (`stdout:N,stderr:M`) or it is refused: read as "from 0", a
 * mangled one would send everything again as if it were new.
 */
function startOffsets(
  query: URLSearchParams,
  lastEventId: string | null,
): Record<StreamName, number> {
  const offsets = { stdout: 0, stderr: 0 };
  if (lastEventId !== null) {
    const fromId = /^stdout:(\d{1,15}),stderr:(\d{1,15})$/.exec(lastEventId);
    if (!fromId) {
      throw new SpoolError(
        "SPOOL_E_USAGE",
        "serve",
        "Last-Event-ID is not an id of this server (stdout:N,stderr:M)",
      );
    }
    return { stdout: Number(fromId[1]), stderr: Number(fromId[2]) };
  }
  for (const name of ["stdout", "stderr"] as const) {
    const raw = query.get(name);
    if (raw === null) continue;
    if (!/^\d{1,15}$/.test(raw)) {
      throw new SpoolError("SPOOL_E_USAGE", "serve", `${name} takes a byte offset`);
    }
    offsets[name] = Number(raw);
  }
  return offsets;
}

/** What a follower needs of a state besides the bytes. */
export function summary(state: StoredCapture) {
  const s = state.receipt.streams;
  return {
    captureId: state.captureId,
    condition: state.condition,
    process: producerOf(state.receipt).state,
    capture: state.receipt.capture.state,
    committed: { stdout: s.stdout.committed, stderr: s.stderr.committed },
  };
}

function frame(event: string, data: string, id?: string): string {
  // JSON has no raw newlines, so one `data:` line carries it whole.
  return `event: ${event}\n${id ? `id: ${id}\n` : ""}data: ${data}\n\n`;
}
