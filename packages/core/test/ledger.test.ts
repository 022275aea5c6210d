import {
  createLedger,
  createStreamPipeline,
  ledgerBalances,
  type OfferResult,
  type Stage,
  type StreamWriter,
  type WriterListener,
} from "@spool/core";
import { createPreviewTap, createUtf8Decoder } from "@spool/transforms";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/** A writer that commits everything at once (or stops at `stopAt` bytes). */
function memoryWriter(stopAt = Number.POSITIVE_INFINITY): StreamWriter & { bytes: Buffer[] } {
  const bytes: Buffer[] = [];
  const state = { committed: 0, queued: 0, stopped: null as null | "quota" };
  let listener: WriterListener | null = null;
  const writer = {
    bytes,
    offer(batch: Uint8Array[]): OfferResult {
      if (state.stopped) return "stopped";
      for (const chunk of batch) {
        if (state.committed + chunk.byteLength > stopAt) {
          writer.stop("quota");
          return "stopped";
        }
        bytes.push(Buffer.from(chunk));
        state.committed += chunk.byteLength;
        if (chunk.byteLength > 0) listener?.committed(state.committed);
      }
      return "accepted";
    },
    ready: () => Promise.resolve(),
    flushed: () => Promise.resolve(),
    stop(reason: string) {
      if (state.stopped) return;
      state.stopped = reason as "quota";
      listener?.stopped(state.stopped);
    },
    watch(l: WriterListener) {
      listener = l;
    },
    get state() {
      return state;
    },
  };
  return writer;
}

describe("ledger", () => {
  it("refuses to accept or discard more than is pending", () => {
    const ledger = createLedger();
    ledger.observe(3);
    expect(() => ledger.accept(4)).toThrow(/pending/);
    ledger.accept(2);
    ledger.discard(1);
    expect(ledger.snapshot().raw).toEqual({ observed: 3, accepted: 2, pending: 0, discarded: 1 });
  });

  it("counts lines and the trailing newline of produced bytes", () => {
    const ledger = createLedger();
    expect(ledger.snapshot()).toMatchObject({ lines: 0, endsWithNewline: null });
    ledger.produce([Buffer.from("a\nb")]);
    expect(ledger.snapshot()).toMatchObject({ lines: 2, endsWithNewline: false });
    ledger.produce([Buffer.from("\n")]);
    expect(ledger.snapshot()).toMatchObject({ lines: 2, endsWithNewline: true, produced: 4 });
  });

  it("balances after every batch through decoder and tap, for any input and chunking (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 20 }),
        fc.integer({ min: 0, max: 400 }),
        (chunks, stopAt) => {
          const writer = memoryWriter(stopAt);
          const stages: Stage[] = [
            createUtf8Decoder(),
            createPreviewTap({ headBytes: 16, tailBytes: 16 }),
          ];
          const stops: string[] = [];
          const pipeline = createStreamPipeline({
            name: "stdout",
            stages,
            writer,
            onStop: (_, reason) => stops.push(reason),
          });
          for (const chunk of chunks) {
            pipeline.write(chunk);
            const snap = pipeline.ledger.snapshot();
            expect(ledgerBalances(snap)).toBe(true);
            expect(snap.raw.accepted).toBe(snap.raw.observed);
          }
          pipeline.end();
          const whole = Buffer.concat(chunks);
          const final = pipeline.ledger.snapshot();
          expect(final.raw.observed).toBe(whole.length);
          expect(final.raw.pending).toBe(0);
          expect(final.produced).toBe(Buffer.from(new TextDecoder().decode(whole)).length);
          expect(Buffer.concat(writer.bytes).length).toBe(writer.state.committed);
          expect(writer.state.committed).toBeLessThanOrEqual(final.produced);
          // The writer's commits are the ledger's, and a stop is reported exactly once.
          expect(final.committed).toBe(writer.state.committed);
          expect(stops).toEqual(writer.state.stopped ? [writer.state.stopped] : []);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("counts the batch a stage threw on, and every later one, as discarded, never lost", () => {
    const boom: Stage = {
      name: "boom",
      held: 0,
      push: (batch) => {
        if (Buffer.concat(batch).includes("x")) throw new Error("bad byte");
        return [...batch];
      },
      end: () => [],
    };
    const errors: unknown[] = [];
    const pipeline = createStreamPipeline({
      name: "stderr",
      stages: [boom],
      writer: memoryWriter(),
      onStageError: (_, e) => errors.push(e),
    });
    pipeline.write(Buffer.from("ok"));
    pipeline.write(Buffer.from("x"));
    pipeline.write(Buffer.from("later"));
    pipeline.end();
    expect(errors).toHaveLength(1);
    expect(pipeline.ledger.snapshot().raw).toEqual({
      observed: 8,
      accepted: 2,
      pending: 0,
      discarded: 6,
    });
  });
});
