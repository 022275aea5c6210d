import { Writable } from "node:stream";
import type { StoredStream } from "@spool/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pumpRange } from "../../src/serve/range-pump.js";

/** The pieces of a stored stream the pump uses, over `data`, each read settling after `delays` ticks. */
function source(data: Buffer, delays: readonly number[]) {
  let reads = 0;
  let closed = 0;
  let readsAfterClose = 0;
  const stream = {
    async readInto(position: number, target: Uint8Array) {
      if (closed > 0) readsAfterClose++;
      await ticks(delays[reads++ % delays.length] ?? 0);
      const bytes = data.subarray(position, position + target.length);
      target.set(bytes);
      return bytes.length;
    },
    async close() {
      closed++;
    },
  } as unknown as StoredStream;
  return { stream, closed: () => closed, readsAfterClose: () => readsAfterClose };
}

/**
 * A socket stand-in that takes a chunk's bytes only when it calls back (after `delays`
 * ticks), as a socket may still hold a buffer until its write completes: a buffer reused
 * before its callback shows up as wrong bytes.
 */
function slowSink(delays: readonly number[]) {
  const got: Buffer[] = [];
  let writes = 0;
  const sink = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _enc, callback) {
      void ticks(delays[writes++ % delays.length] ?? 0).then(() => {
        got.push(Buffer.from(chunk));
        callback();
      });
    },
  });
  const finished = new Promise<void>((resolve, reject) => {
    sink.on("finish", resolve);
    sink.on("error", reject);
  });
  return { sink, got, finished };
}

const ticks = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe("pumpRange", () => {
  it("writes exactly [start, end) through reused buffers, whatever the read and write timing", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 0, maxLength: 20_000 }),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 1, max: 3000 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.nat(3), { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(3), { minLength: 1, maxLength: 8 }),
        async (bytes, a, b, chunk, buffers, readDelays, writeDelays) => {
          const data = Buffer.from(bytes);
          const start = data.length === 0 ? 0 : a % (data.length + 1);
          const end = start + (data.length === 0 ? 0 : b % (data.length - start + 1));
          const src = source(data, readDelays);
          const out = slowSink(writeDelays);
          let lastAt = -1;
          await pumpRange(src.stream, start, end, out.sink, {
            chunk,
            buffers,
            beforeLast: async () => {
              lastAt = Buffer.concat(out.got).length;
            },
          });
          await out.finished;
          expect(Buffer.concat(out.got).equals(data.subarray(start, end))).toBe(true);
          expect(src.closed()).toBe(1);
          // The cursor hook runs once, before the last bytes are written.
          if (end > start) expect(lastAt).toBeLessThan(end - start);
          else expect(lastAt).toBe(-1);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("stops reading when the client goes away, and closes the reader after its last read", async () => {
    const data = Buffer.alloc(64 * 1024, 120);
    const src = source(data, [1]);
    const out = slowSink([2]);
    out.finished.catch(() => {});
    const pumped = pumpRange(src.stream, 0, data.length, out.sink, { chunk: 1024, buffers: 2 });
    await ticks(6);
    out.sink.destroy();
    await pumped;
    expect(src.closed()).toBe(1);
    expect(src.readsAfterClose()).toBe(0);
    expect(Buffer.concat(out.got).length).toBeLessThan(data.length);
  });

  it("destroys the response when the store has fewer bytes than promised", async () => {
    const src = source(Buffer.alloc(100, 1), [0]);
    const out = slowSink([0]);
    out.finished.catch(() => {}); // it never finishes: it is destroyed
    const failed = new Promise<Error>((resolve) => out.sink.on("error", resolve));
    await pumpRange(src.stream, 0, 200, out.sink, { chunk: 64 });
    expect((await failed).message).toMatch(/ended at 100 before 200/);
    expect(src.closed()).toBe(1);
  });
});
