/**
 * The shared SSE parser: the events it gives do not depend on how the response's text was
 * split (any split, inside a line or between the two newlines that end an event), and a
 * block of comments is its own `:` event.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type SseEvent, sseParser } from "../src/sse-blocks.js";

/** What `spool serve` writes for an event (live-events.ts `frame`), or a comment block. */
function frame(e: SseEvent): string {
  if (e.event === ":") return `: ${e.data}\n\n`;
  return `event: ${e.event}\n${e.id ? `id: ${e.id}\n` : ""}data: ${e.data}\n\n`;
}

const line = fc.string({ unit: fc.constantFrom("a", "é", "€", " ", "{", "}", ":", '"', "1") });
const anEvent: fc.Arbitrary<SseEvent> = fc.oneof(
  fc.record({
    event: fc.constantFrom("state", "bytes", "cut", "receipt", "error"),
    id: fc.option(fc.constantFrom("stdout:0,stderr:0", "stdout:65536,stderr:12"), {
      nil: null,
    }),
    data: line,
  }),
  fc.record({
    event: fc.constant(":"),
    id: fc.constant(null),
    data: fc.constantFrom("heartbeat", "x"),
  }),
);

describe("sseParser", () => {
  it("gives the same events however the text is split", () => {
    fc.assert(
      fc.property(
        fc.array(anEvent, { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (events, cuts) => {
          const text = events.map(frame).join("");
          const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          const got: SseEvent[] = [];
          const push = sseParser((e) => got.push(e));
          let from = 0;
          for (const cut of [...at, text.length]) {
            push(text.slice(from, cut));
            from = cut;
          }
          expect(got).toEqual(events);
        },
      ),
    );
  });

  it("holds an unfinished event until its blank line; several data lines join with newlines", () => {
    const got: SseEvent[] = [];
    const push = sseParser((e) => got.push(e));
    push("event: bytes\ndata: one\ndata: two\n");
    expect(got).toEqual([]);
    push("\n");
    expect(got).toEqual([{ event: "bytes", id: null, data: "one\ntwo" }]);
    push("data: plain\n\n");
    expect(got[1]).toEqual({ event: "message", id: null, data: "plain" });
  });
});
