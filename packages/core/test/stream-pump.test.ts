import { Readable } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Batch, OfferResult, StreamWriter } from "../src/index.js";
import { createStreamPipeline, pumpStream } from "../src/index.js";
import { createMemoryWriter } from "../src/testing.js";

const GATHER_BYTES = 64 * 1024;

/** A memory writer that answers "wait" on the offers `waits` names, ready a few turns later. */
function waitingWriter(waits: readonly boolean[]) {
  const inner = createMemoryWriter();
  const batches: number[] = [];
  let offers = 0;
  let waiting: Promise<void> = Promise.resolve();
  const writer: StreamWriter = {
    offer(batch: Batch): OfferResult {
      batches.push(batch.reduce((n, c) => n + c.byteLength, 0));
      const result = inner.offer(batch);
      if (result !== "accepted" || !waits[offers++ % waits.length]) return result;
      waiting = new Promise((resolve) => setTimeout(resolve, 1));
      return "wait";
    },
    ready: () => waiting,
    flushed: () => inner.flushed(),
    stop: (reason, error) => inner.stop(reason, error),
    watch: (listener) => inner.watch(listener),
    get state() {
      return inner.state;
    },
  };
  return { writer, batches, bytes: () => inner.bytes() };
}

/**
 * A source that pushes `chunks` as fast as it is read, like a pipe ahead of its reader, in
 * byte mode or object mode (an async generator's `Readable.from`), failing at the end
 * with `error` when given.
 */
function source(chunks: readonly Buffer[], objectMode = false, error?: Error): Readable {
  let next = 0;
  return new Readable({
    objectMode,
    highWaterMark: objectMode ? 16 : 64 * 1024,
    read() {
      while (next < chunks.length) if (!this.push(chunks[next++])) return;
      if (error) this.destroy(error);
      else this.push(null);
    },
  });
}

describe("pumpStream", () => {
  it("hands on every byte once, in order, in batches of at most 64 KiB, however the writer waits", async () => {
    const arbChunk = fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 1, max: 300 }) },
      { weight: 1, arbitrary: fc.integer({ min: 300, max: 80_000 }) },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(arbChunk, { minLength: 1, maxLength: 400 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }),
        fc.boolean(),
        async (sizes, waits, objectMode) => {
          let byte = 0;
          const chunks = sizes.map((n) =>
            Buffer.from(Array.from({ length: n }, () => byte++ % 251)),
          );
          const { writer, batches, bytes } = waitingWriter(waits);
          const pipeline = createStreamPipeline({ name: "stdout", stages: [], writer });
          const end = await pumpStream(source(chunks, objectMode), pipeline).done;
          pipeline.end();
          expect(end).toBe("eof");
          expect(bytes().equals(Buffer.concat(chunks))).toBe(true);
          const largest = Math.max(...sizes);
          for (const n of batches) expect(n).toBeLessThanOrEqual(Math.max(GATHER_BYTES, largest));
          const { raw, produced, committed } = pipeline.ledger.snapshot();
          expect(raw).toEqual({ observed: byte, accepted: byte, pending: 0, discarded: 0 });
          expect(produced).toBe(byte);
          expect(committed).toBe(byte);
          // Small reads go on gathered: far fewer offers than reads.
          if (sizes.every((n) => n <= 300) && sizes.length >= 200)
            expect(batches.length).toBeLessThan(sizes.length / 4);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("a source that fails: every byte it gave before the error is handed on or counted", async () => {
    for (const objectMode of [false, true]) {
      const chunks = Array.from({ length: 300 }, (_, i) => Buffer.alloc(100, 0x41 + (i % 26)));
      const { writer, bytes } = waitingWriter([false, true]);
      const pipeline = createStreamPipeline({ name: "stdout", stages: [], writer });
      const pump = pumpStream(source(chunks, objectMode, new Error("reset")), pipeline);
      expect(await pump.done).toBe("error");
      const { raw, produced } = pipeline.ledger.snapshot();
      expect(raw.observed).toBe(30_000);
      expect(raw.observed).toBe(raw.accepted + raw.pending + raw.discarded);
      expect(produced).toBe(raw.accepted);
      expect(bytes().equals(Buffer.concat(chunks).subarray(0, raw.accepted))).toBe(true);
    }
  });

  it("stops a source that refills as fast as it is read, counting what it had buffered", async () => {
    const source = new Readable({
      highWaterMark: 4096,
      read() {
        while (this.push(Buffer.alloc(100, 0x61)));
      },
    });
    // A writer that always asks to wait: the pump reads a batch per release, never runs dry.
    const { writer } = waitingWriter([true]);
    const pipeline = createStreamPipeline({ name: "stdout", stages: [], writer });
    const pump = pumpStream(source, pipeline);
    await new Promise((resolve) => setTimeout(resolve, 20));
    pump.stop();
    expect(await pump.done).toBe("stopped");
    const { raw, produced } = pipeline.ledger.snapshot();
    expect(raw.observed).toBeGreaterThan(0);
    expect(raw.observed).toBe(raw.accepted + raw.pending + raw.discarded);
    expect(produced).toBe(raw.accepted);
  });

  it("counts what it held and never handed on as discarded when stopped", async () => {
    const chunks = Array.from({ length: 2000 }, () => Buffer.alloc(64, 0x61));
    const { writer } = waitingWriter([true]);
    const pipeline = createStreamPipeline({ name: "stdout", stages: [], writer });
    const pump = pumpStream(source(chunks), pipeline);
    await new Promise((resolve) => setImmediate(resolve));
    pump.stop();
    expect(await pump.done).toBe("stopped");
    const { raw, produced } = pipeline.ledger.snapshot();
    expect(raw.observed).toBe(raw.accepted + raw.pending + raw.discarded);
    expect(raw.pending).toBe(0);
    expect(produced).toBe(raw.accepted);
  });
});
