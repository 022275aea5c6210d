/**
 * The client side of `spool serve`'s Server-Sent Events, shared by `bench serve` and the
 * serve tests: text goes in as it arrives (any split, even inside a line), whole events
 * come out. An event ends at a blank line (`\n\n`); its `event:`, `id:` and `data:` lines
 * are read (several `data:` lines join with `\n`, as in the SSE standard). A block of
 * only comment lines (the server's `: heartbeat`) comes out as event `:` with the
 * comment as its data, so a reader can count heartbeats or skip them.
 *
 * @example
 * ```ts
 * import { sseParser } from "@spool/bench";
 * const events: string[] = [];
 * const push = sseParser((e) => events.push(e.event));
 * push("event: bytes\ndata: {}\n");
 * push("\n: heartbeat\n\n"); // events: ["bytes", ":"]
 * ```
 */

/** One Server-Sent Event. */
export interface SseEvent {
  /** `event:` (`message` when absent), or `:` for a block of comments. */
  readonly event: string;
  readonly id: string | null;
  readonly data: string;
}

/** A function taking the response's text piece by piece and calling `onEvent` for each whole event. */
export function sseParser(onEvent: (event: SseEvent) => void): (text: string) => void {
  let buffered = "";
  return (text) => {
    buffered += text;
    let from = 0;
    for (let end = buffered.indexOf("\n\n"); end !== -1; end = buffered.indexOf("\n\n", from)) {
      onEvent(parseBlock(buffered.slice(from, end)));
      from = end + 2;
    }
    buffered = buffered.slice(from);
  };
}

/** One block (an event without its closing blank line). */
function parseBlock(block: string): SseEvent {
  const lines = block.split("\n");
  if (lines.every((line) => line.startsWith(":"))) {
    return { event: ":", id: null, data: lines.map((line) => line.slice(1).trim()).join("\n") };
  }
  let event = "message";
  let id: string | null = null;
  const data: string[] = [];
  for (const line of lines) {
    if (line.startsWith("event: ")) event = line.slice(7);
    else if (line.startsWith("id: ")) id = line.slice(4);
    else if (line.startsWith("data: ")) data.push(line.slice(6));
  }
  return { event, id, data: data.join("\n") };
}
