import { createManualClock } from "@spool/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createWriterQueue } from "../../src/writer/writer-queue.js";

const KiB = 1024;
const chunk = (n: number, fill = 0x61) => new Uint8Array(n).fill(fill);

describe("createWriterQueue", () => {
  it("asks the reader to wait near its budget, and resumes it once the writer catches up", async () => {
    const clock = createManualClock();
    const sent: Uint8Array[] = [];
    const q = createWriterQueue({ budgetBytes: 256 * KiB, stallMs: 100 }, clock);
    q.connect({ send: (c) => sent.push(c) });
    let answer = q.offer([chunk(64 * KiB)]);
    while (answer === "accepted") answer = q.offer([chunk(64 * KiB)]);
    expect(answer).toBe("wait");
    let resumed = false;
    void q.ready().then(() => {
      resumed = true;
    });
    expect(q.stats.waiting).toBe(1);
    // The writer catches up: it commits whatever it was sent (each ack sends what waited).
    let sentBytes = 0;
    while (q.state.queued > 0) {
      const total = sent.reduce((n, c) => n + c.byteLength, 0);
      expect(total).toBeGreaterThan(sentBytes);
      sentBytes = total;
      q.ack(sentBytes);
    }
    await Promise.resolve();
    expect(resumed).toBe(true);
    expect(q.state.stopped).toBeNull();
  });

  it("stops with writer-saturated after the stall budget when the writer never answers", async () => {
    const clock = createManualClock();
    const q = createWriterQueue({ budgetBytes: 256 * KiB, stallMs: 2000 }, clock);
    q.connect({ send: () => {} }); // a writer stuck forever: no ack, ever
    let offered = 0;
    let answer = q.offer([chunk(64 * KiB)]);
    offered += 64 * KiB;
    while (answer === "accepted") {
      answer = q.offer([chunk(64 * KiB)]);
      offered += 64 * KiB;
    }
    const ready = q.ready();
    clock.advance(1999);
    expect(q.state.stopped).toBeNull();
    clock.advance(1);
    await ready;
    expect(q.state.stopped).toBe("writer-saturated");
    expect(q.state.committed).toBe(0);
    // The reader drains on; what it offers now is counted, not kept.
    expect(q.offer([chunk(10)])).toBe("stopped");
    expect(q.stats.droppedBytes + q.state.queued + q.state.committed).toBe(offered + 10);
  });

  it("never saturates a slow writer that keeps making progress within the stall budget", async () => {
    const clock = createManualClock();
    const inFlight: Uint8Array[] = [];
    const q = createWriterQueue(
      { budgetBytes: 256 * KiB, stallMs: 1000, messageBytes: 16 * KiB },
      clock,
    );
    q.connect({ send: (c) => inFlight.push(c) });
    let committed = 0;
    let offered = 0;
    for (let i = 0; i < 200; i++) {
      const answer = q.offer([chunk(8 * KiB, i & 0xff)]);
      offered += 8 * KiB;
      if (answer === "wait") {
        const ready = q.ready();
        let done = false;
        void ready.then(() => {
          done = true;
        });
        while (!done) {
          clock.advance(900); // slow: most of the stall budget passes before each write lands
          const next = inFlight.shift();
          if (next) committed += next.byteLength;
          q.ack(committed);
          await Promise.resolve();
        }
      }
    }
    const flushed = q.flushed();
    for (let next = inFlight.shift(); next; next = inFlight.shift()) {
      clock.advance(900);
      committed += next.byteLength;
      q.ack(committed);
    }
    await flushed;
    expect(q.state.stopped).toBeNull();
    expect(q.state.committed).toBe(offered);
  });

  it("refuses a batch that would take it past its budget instead of growing", () => {
    const q = createWriterQueue({ budgetBytes: 64 * KiB }, createManualClock());
    expect(q.offer([chunk(65 * KiB)])).toBe("stopped");
    expect(q.stats.peakBytes).toBe(0);
    expect(q.state.stopped).toBe("writer-saturated");
  });

  it("never holds more than its budget, and accounts for every byte (property)", () => {
    type Op =
      | { kind: "offer"; sizes: number[] }
      | { kind: "ack"; fraction: number }
      | { kind: "advance"; ms: number }
      | { kind: "connect" };
    const op: fc.Arbitrary<Op> = fc.oneof(
      {
        arbitrary: fc
          .array(fc.integer({ min: 0, max: 64 * KiB }), { minLength: 1, maxLength: 4 })
          .map((sizes) => ({ kind: "offer" as const, sizes })),
        weight: 5,
      },
      {
        arbitrary: fc
          .double({ min: 0, max: 1, noNaN: true })
          .map((fraction) => ({ kind: "ack" as const, fraction })),
        weight: 3,
      },
      {
        arbitrary: fc
          .integer({ min: 0, max: 3000 })
          .map((ms) => ({ kind: "advance" as const, ms })),
        weight: 1,
      },
      { arbitrary: fc.constant({ kind: "connect" as const }), weight: 1 },
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 64, max: 1024 }),
        fc.integer({ min: 1, max: 512 }),
        fc.integer({ min: 1, max: 512 }),
        fc.constantFrom(0, 2, 500),
        fc.array(op, { maxLength: 120 }),
        (budgetKiB, creditKiB, messageKiB, gatherMs, ops) => {
          const clock = createManualClock();
          const q = createWriterQueue(
            {
              budgetBytes: budgetKiB * KiB,
              creditBytes: creditKiB * KiB,
              messageBytes: messageKiB * KiB,
              stallMs: 1000,
              gatherMs,
            },
            clock,
          );
          let sent = 0;
          let acked = 0;
          let offered = 0;
          for (const o of ops) {
            if (o.kind === "offer") {
              // The reader honours "wait": it offers nothing more until ready() settles.
              if (q.stats.waiting > 0) continue;
              const answer = q.offer(o.sizes.map((n) => chunk(n)));
              offered += o.sizes.reduce((a, b) => a + b, 0);
              if (answer === "wait") void q.ready();
            } else if (o.kind === "ack") {
              acked += Math.floor((sent - acked) * o.fraction);
              q.ack(acked);
            } else if (o.kind === "advance") clock.advance(o.ms);
            else if (o.kind === "connect")
              q.connect({
                send: (c) => {
                  sent += c.byteLength;
                },
              });
            expect(q.state.queued).toBeLessThanOrEqual(q.stats.budgetBytes);
            expect(q.stats.droppedBytes + q.state.queued + q.state.committed).toBe(offered);
          }
          expect(q.stats.peakBytes).toBeLessThanOrEqual(budgetKiB * KiB);
          expect(q.state.committed).toBeLessThanOrEqual(sent);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("createWriterQueue before and after connect", () => {
  const KiB = 1024;
  it("holds until connected, then sends held bytes first, coalesced, in order", () => {
    const queue = createWriterQueue({
      budgetBytes: 256 * KiB,
      messageBytes: 8 * KiB,
      creditBytes: 64 * KiB,
    });
    for (let i = 0; i < 10; i++) expect(queue.offer([Buffer.alloc(1000, 65 + i)])).toBe("accepted");
    const sent: Uint8Array[] = [];
    let committed = 0;
    queue.connect({
      send: (c) => {
        sent.push(c);
        // Bytes short of a whole message wait for the ack of the one in flight.
        if (sent.length === 1) expect(c.byteLength).toBe(8 * KiB);
      },
    });
    queue.offer([Buffer.from("tail")]);
    while (queue.state.queued > 0) {
      committed = sent.reduce((n, c) => n + c.byteLength, 0);
      queue.ack(committed);
    }
    const all = Buffer.concat(sent);
    expect(all.length).toBe(10_004);
    expect(sent.length).toBe(2);
    expect(all.subarray(0, 1000).every((b) => b === 65)).toBe(true);
    expect(all.subarray(-4).toString()).toBe("tail");
    expect(sent.every((c) => c.byteLength <= 8 * KiB)).toBe(true);
  });

  it("gathers a short message for an idle writer for gatherMs, and sends a whole one at once", async () => {
    const clock = createManualClock();
    const queue = createWriterQueue(
      { budgetBytes: 256 * KiB, messageBytes: 16 * KiB, gatherMs: 2 },
      clock,
    );
    const sent: number[] = [];
    queue.connect({ send: (c) => sent.push(c.byteLength) });
    // Reads that come within the gathering time go as one message.
    queue.offer([chunk(4 * KiB)]);
    clock.advance(1);
    queue.offer([chunk(4 * KiB)]);
    expect(sent).toEqual([]);
    clock.advance(1);
    expect(sent).toEqual([8 * KiB]);
    queue.ack(8 * KiB);
    // Enough for a whole message goes at once, the rest after the gathering time.
    queue.offer([chunk(20 * KiB)]);
    expect(sent).toEqual([8 * KiB, 16 * KiB]);
    queue.ack(24 * KiB);
    expect(sent).toEqual([8 * KiB, 16 * KiB]);
    clock.advance(2);
    expect(sent).toEqual([8 * KiB, 16 * KiB, 4 * KiB]);
    queue.ack(28 * KiB);
    // A flush sends what is held at once.
    queue.offer([chunk(100)]);
    const flushed = queue.flushed();
    expect(sent.at(-1)).toBe(100);
    queue.ack(28 * KiB + 100);
    await flushed;
    // A stop cancels the gathering: nothing is sent after it.
    queue.offer([chunk(100)]);
    queue.stop("writer-saturated");
    clock.advance(10);
    expect(sent.length).toBe(4);
    expect(queue.stats.droppedBytes).toBe(100);
  });

  it("sends a short message at once when the reader would be told to wait", () => {
    const clock = createManualClock();
    const queue = createWriterQueue(
      { budgetBytes: 64 * KiB, messageBytes: 256 * KiB, gatherMs: 2 },
      clock,
    );
    const sent: number[] = [];
    queue.connect({ send: (c) => sent.push(c.byteLength) });
    expect(queue.offer([chunk(16 * KiB)])).toBe("accepted");
    expect(sent).toEqual([]);
    // The wait mark (48 KiB here) is never reached by gathering alone.
    expect(queue.offer([chunk(32 * KiB)])).toBe("wait");
    expect(sent).toEqual([48 * KiB]);
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
});
