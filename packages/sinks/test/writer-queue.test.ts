import { createManualClock } from "@spool/core";
import { createWriterQueue } from "@spool/sinks";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const KiB = 1024;

describe("writer queue", () => {
  it("holds until connected, then sends held bytes first, coalesced, in order", () => {
    const queue = createWriterQueue({
      budgetBytes: 256 * KiB,
      messageBytes: 8 * KiB,
      creditBytes: 64 * KiB,
    });
    for (let i = 0; i < 10; i++) expect(queue.offer([Buffer.alloc(1000, 65 + i)])).toBe("accepted");
    const sent: Uint8Array[] = [];
    queue.connect({ send: (c) => sent.push(c) });
    queue.offer([Buffer.from("tail")]);
    const all = Buffer.concat(sent);
    expect(all.length).toBe(10_004);
    expect(all.subarray(0, 1000).every((b) => b === 65)).toBe(true);
    expect(all.subarray(-4).toString()).toBe("tail");
    expect(sent.every((c) => c.byteLength <= 8 * KiB)).toBe(true);
  });

  it("keeps at most the credit window in flight until acknowledged", () => {
    const queue = createWriterQueue({
      budgetBytes: 1024 * KiB,
      messageBytes: 16 * KiB,
      creditBytes: 32 * KiB,
    });
    let inFlight = 0;
    queue.connect({ send: (c) => (inFlight += c.byteLength) });
    queue.offer([Buffer.alloc(200 * KiB)]);
    expect(inFlight).toBe(32 * KiB);
    queue.ack(16 * KiB);
    expect(inFlight).toBe(48 * KiB);
    expect(queue.state).toEqual({ committed: 16 * KiB, queued: 184 * KiB, stopped: null });
  });

  it("asks the reader to wait near the budget and lets it go once the writer catches up", async () => {
    const queue = createWriterQueue({
      budgetBytes: 256 * KiB,
      messageBytes: 64 * KiB,
      creditBytes: 64 * KiB,
    });
    let sent = 0;
    queue.connect({ send: (c) => (sent += c.byteLength) });
    let answer = "accepted";
    while (answer === "accepted") answer = queue.offer([Buffer.alloc(32 * KiB)]);
    expect(answer).toBe("wait");
    let resumed = false;
    const ready = queue.ready().then(() => (resumed = true));
    await Promise.resolve();
    expect(resumed).toBe(false);
    queue.ack(sent);
    while (sent > queue.state.committed) queue.ack(sent);
    await ready;
    expect(resumed).toBe(true);
    expect(queue.state.stopped).toBeNull();
  });

  it("stops with writer-saturated when the writer makes no progress for the stall budget", async () => {
    const clock = createManualClock();
    const queue = createWriterQueue(
      { budgetBytes: 256 * KiB, stallMs: 500, creditBytes: 64 * KiB },
      clock,
    );
    queue.connect({ send: () => {} });
    while (queue.offer([Buffer.alloc(32 * KiB)]) === "accepted");
    const ready = queue.ready();
    clock.advance(499);
    expect(queue.state.stopped).toBeNull();
    clock.advance(1);
    await ready;
    expect(queue.state.stopped).toBe("writer-saturated");
    expect(queue.offer([Buffer.from("more")])).toBe("stopped");
    expect(queue.state.committed).toBe(0);
  });

  it("restarts the stall clock on every acknowledgement (a slow disk loses nothing)", async () => {
    const clock = createManualClock();
    const queue = createWriterQueue(
      { budgetBytes: 256 * KiB, stallMs: 500, messageBytes: 16 * KiB, creditBytes: 16 * KiB },
      clock,
    );
    let sent = 0;
    queue.connect({ send: (c) => (sent += c.byteLength) });
    while (queue.offer([Buffer.alloc(16 * KiB)]) === "accepted");
    const flushed = queue.flushed();
    while (queue.state.queued > 0) {
      clock.advance(400);
      queue.ack(sent);
    }
    await flushed;
    expect(queue.state.stopped).toBeNull();
    expect(queue.state.committed).toBe(sent);
  });

  it("never holds more than its budget, whatever the offers and acks (property)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({ offer: fc.integer({ min: 1, max: 64 * KiB }) }),
            fc.record({ ack: fc.nat({ max: 100 }) }),
          ),
          { maxLength: 200 },
        ),
        (ops) => {
          const queue = createWriterQueue({
            budgetBytes: 256 * KiB,
            messageBytes: 64 * KiB,
            creditBytes: 128 * KiB,
          });
          let sent = 0;
          queue.connect({ send: (c) => (sent += c.byteLength) });
          let waiting = false;
          for (const op of ops) {
            if ("offer" in op) {
              if (waiting) continue; // a paused reader offers nothing
              const r = queue.offer([Buffer.alloc(op.offer)]);
              waiting = r === "wait";
            } else {
              queue.ack(
                queue.state.committed + Math.floor(((sent - queue.state.committed) * op.ack) / 100),
              );
              if (queue.state.queued <= 96 * KiB) waiting = false;
            }
            expect(queue.state.queued).toBeLessThanOrEqual(256 * KiB);
          }
          expect(queue.stats.peakBytes).toBeLessThanOrEqual(queue.stats.budgetBytes);
        },
      ),
      { numRuns: 300 },
    );
  });
});
