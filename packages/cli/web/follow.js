// Live follow: the capture's Server-Sent Events read with fetch (so the token stays in a
// header), from given offsets. A response ends at the server's transfer cap
// (`event: cut`); the follow then reconnects from the offsets the cut names, so it goes
// on past any cap, until the final receipt. A dropped connection is retried from the
// last event's offsets.

import { API, call } from "./api.js";

/**
 * Follow `id` from `offsets` ({stdout, stderr}); `stream` limits it to one stream (or
 * null for both). `on` gets `bytes(stream, offset, text | Uint8Array)`, `state(value)`,
 * `receipt(value)`, `note(text)`. Returns a stop function.
 */
export function follow(id, stream, offsets, on) {
  const controller = new AbortController();
  const at = { ...offsets };
  let ended = false;
  const run = async () => {
    let failures = 0;
    while (!ended && !controller.signal.aborted) {
      try {
        const outcome = await followOnce(id, stream, at, on, controller.signal);
        if (outcome === "receipt") ended = true;
        else if (outcome === "cut") on.note?.("reconnected past the transfer limit");
        failures = 0;
      } catch (error) {
        if (controller.signal.aborted) return;
        if (++failures > 5) {
          on.error?.(error);
          return;
        }
        on.note?.(`connection lost, retrying (${error.message})`);
        await new Promise((resolve) => setTimeout(resolve, 500 * failures));
      }
    }
  };
  run();
  return () => controller.abort();
}

async function followOnce(id, stream, at, on, signal) {
  const q = new URLSearchParams();
  if (stream) q.set("stream", stream);
  q.set("stdout", String(at.stdout));
  q.set("stderr", String(at.stderr));
  const response = await call(`${API}/captures/${id}/events?${q}`, { signal });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  let outcome = "ended";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    let end = buffered.indexOf("\n\n");
    while (end !== -1) {
      const got = handle(buffered.slice(0, end), at, on);
      if (got) outcome = got;
      buffered = buffered.slice(end + 2);
      end = buffered.indexOf("\n\n");
    }
  }
  return outcome;
}

/** One SSE block: its event applied; "cut" or "receipt" when it ends the response. */
function handle(block, at, on) {
  let event = "message";
  let data = "";
  for (const line of block.split("\n")) {
    if (line.startsWith("event: ")) event = line.slice(7);
    else if (line.startsWith("data: ")) data += line.slice(6);
  }
  if (data === "") return null; // a comment (the server's heartbeat)
  const value = JSON.parse(data);
  if (event === "bytes") {
    if (value.offset !== at[value.stream]) return null; // not where we are: skip
    if (value.text !== undefined) {
      at[value.stream] += new TextEncoder().encode(value.text).length;
      on.bytes(value.stream, value.offset, value.text);
    } else {
      const raw = Uint8Array.from(atob(value.base64), (c) => c.charCodeAt(0));
      at[value.stream] += raw.length;
      on.bytes(value.stream, value.offset, raw);
    }
  } else if (event === "state") on.state?.(value);
  else if (event === "receipt") {
    on.receipt?.(value);
    return "receipt";
  } else if (event === "cut") {
    at.stdout = value.stdout ?? at.stdout;
    at.stderr = value.stderr ?? at.stderr;
    return "cut";
  } else if (event === "error") throw new Error(`${value.code}: ${value.message}`);
  return null;
}
