/**
 * The writer queue's policy seen from a whole capture: a sink that stalls forever costs
 * the child nothing and ends `partial`/`writer-saturated` at a known boundary; a sink
 * that is slow but finite loses nothing. Time is a manual clock, moved by the test only
 * while the reader is waiting on the queue.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import {
  type CaptureSpool,
  DEFAULT_PREVIEW_BUDGET,
  ledgerBalances,
  type Receipt,
  type SpoolFactory,
  type StreamFinal,
  startCapture,
} from "@spool/core";
import { createManualClock, type ManualClock } from "@spool/core/testing";
import { createWriterQueue, type WriterQueue } from "@spool/sinks";
import { createPreviewTap, createUtf8Decoder, previewTapBudget } from "@spool/transforms";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const KiB = 1024;
const MiB = 1024 * KiB;
const LINE = "spool stall test line 0123456789 abcdefghijklmnopqrstuvwxyz\n";
const STALL_MS = 2000;

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "spool-stall-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** What `yes LINE | head -c size` prints. */
function expected(size: number): Buffer {
  return Buffer.from(LINE.repeat(Math.ceil(size / LINE.length))).subarray(0, size);
}

/** A sink whose writer is driven by the test: `received` holds every message sent to it. */
interface DrivenSink {
  factory: SpoolFactory;
  queue(): WriterQueue;
  received: Uint8Array[];
  acked: number;
  ackNext(): boolean;
}

function drivenSink(clock: ManualClock, autoAck: number): DrivenSink {
  const received: Uint8Array[] = [];
  let queue: WriterQueue | null = null;
  const sink: DrivenSink = {
    received,
    acked: 0,
    queue: () => queue!,
    ackNext() {
      if (sink.acked >= received.length) return false;
      sink.acked++;
      const total = received.slice(0, sink.acked).reduce((n, c) => n + c.byteLength, 0);
      queue!.ack(total);
      return true;
    },
    factory: (): CaptureSpool => {
      const options = {
        budgetBytes: 256 * KiB,
        creditBytes: 128 * KiB,
        messageBytes: 64 * KiB,
        stallMs: STALL_MS,
      };
      const stdout = createWriterQueue(options, clock);
      const stderr = createWriterQueue(options, clock);
      queue = stdout;
      let spilled = false;
      const final = (q: WriterQueue, bytes: Uint8Array[]): StreamFinal => {
        const hash = createHash("sha256");
        let n = 0;
        for (const c of bytes) {
          if (n >= q.state.committed) break;
          hash.update(c);
          n += c.byteLength;
        }
        return {
          committed: q.state.committed,
          sha256: hash.digest("hex"),
          ref: "mem",
          path: null,
          stopped: q.state.stopped,
        };
      };
      return {
        streams: { stdout, stderr },
        get spilled() {
          return spilled;
        },
        async spill() {
          spilled = true;
          stdout.connect({
            send: (c) => {
              received.push(Buffer.from(c));
              // The first `autoAck` messages land; after that the writer answers only when driven.
              if (received.length <= autoAck) queueMicrotask(() => sink.ackNext());
            },
          });
          stderr.connect({ send: (c) => stderr.ack(stderr.state.committed + c.byteLength) });
          return { dir: root, refs: { stdout: "mem", stderr: "mem" } };
        },
        publishLive() {},
        async finish() {
          await Promise.all([stdout.flushed(), stderr.flushed()]);
          return { stdout: final(stdout, received), stderr: final(stderr, []) };
        },
        async publishReceipt() {},
        async close() {},
      };
    },
  };
  return sink;
}

async function runCapture(
  sink: DrivenSink,
  clock: ManualClock,
  size: number,
  onWait: () => void,
  preview = DEFAULT_PREVIEW_BUDGET,
): Promise<{ receipt: Receipt; exitStatus: number }> {
  const capture = startCapture({
    command: "sh",
    args: ["-c", `yes '${LINE.slice(0, -1)}' | head -c ${size}`],
    root,
    preview,
    plan: (stream) => ({
      stages: [createUtf8Decoder()],
      tap: createPreviewTap(previewTapBudget(stream === "stdout" ? 8192 : 2048)),
    }),
    spool: sink.factory,
    clock,
    drainMs: 1000,
  });
  let settled = false;
  void capture.done.finally(() => {
    settled = true;
  });
  while (!settled) {
    await new Promise((resolve) => setImmediate(resolve));
    if (sink.received.length > 0 && sink.queue().stats.waiting > 0) onWait();
  }
  return capture.done;
}

describe("a capture whose writer stalls", () => {
  it("a sink stuck forever: the child completes, the capture is partial/writer-saturated at the acknowledged boundary", async () => {
    const clock = createManualClock();
    const sink = drivenSink(clock, 3); // three writes land, then the writer hangs forever
    const size = 16 * MiB;
    const { receipt, exitStatus } = await runCapture(sink, clock, size, () =>
      clock.advance(STALL_MS),
    );

    expect(exitStatus).toBe(0);
    expect(receipt.process).toMatchObject({ state: "exited", exitCode: 0 });
    expect(receipt.capture).toEqual({ state: "partial", reasons: ["writer-saturated"] });
    const out = receipt.streams.stdout;
    // Every byte the child wrote was read and counted, none left pending.
    expect(out.raw).toEqual({ observed: size, accepted: size, pending: 0, discarded: 0 });
    expect(out.produced).toBe(size);
    // The boundary is exactly what the writer acknowledged: the first three messages.
    const boundary = sink.received.slice(0, 3).reduce((n, c) => n + c.byteLength, 0);
    expect(boundary).toBeGreaterThan(0);
    expect(out.committed).toBe(boundary);
    expect(out.retained).toEqual({ start: 0, end: boundary });
    expect(
      Buffer.concat(sink.received.slice(0, 3)).equals(expected(size).subarray(0, boundary)),
    ).toBe(true);
    expect(out.sha256).toBe(
      createHash("sha256").update(expected(size).subarray(0, boundary)).digest("hex"),
    );
    // The queue never grew past its budget while the reader kept draining.
    expect(sink.queue().stats.peakBytes).toBeLessThanOrEqual(256 * KiB);
    expect(sink.queue().stats.droppedBytes + sink.queue().state.queued + out.committed).toBe(size);
    expect(ledgerBalances({ ...out, lines: 0, endsWithNewline: null })).toBe(true);
    expect(receipt.preview.text).toContain("spool stall test line");
  });

  it("a slow but finite sink: the reader waits (backpressure), nothing is lost, the capture is complete", async () => {
    const clock = createManualClock();
    const sink = drivenSink(clock, 0);
    const size = 8 * MiB;
    let waits = 0;
    const { receipt } = await runCapture(sink, clock, size, () => {
      // Most of the stall budget passes before each write lands: slow, but progressing.
      // Time moves only when there is a write in flight to land.
      if (sink.acked >= sink.received.length) return;
      waits++;
      clock.advance(STALL_MS - 100);
      sink.ackNext();
    });

    expect(waits).toBeGreaterThan(10);
    expect(receipt.capture).toEqual({ state: "complete", reasons: [] });
    const out = receipt.streams.stdout;
    expect(out.raw).toEqual({ observed: size, accepted: size, pending: 0, discarded: 0 });
    expect(out.committed).toBe(size);
    expect(Buffer.concat(sink.received).equals(expected(size))).toBe(true);
    expect(out.sha256).toBe(createHash("sha256").update(expected(size)).digest("hex"));
    expect(sink.queue().stats.peakBytes).toBeLessThanOrEqual(256 * KiB);
  });

  it("a preview larger than the writer's budget: storage opens once the writer holds its budget, and nothing waits for the stall", async () => {
    // The writer queue holds 256 KiB before storage is open; the preview could keep 4 MiB
    // inline. Held bytes drain only into storage, so the capture must open it rather than
    // wait on the queue until it gives up (the clock never moves: a wait would never end).
    const clock = createManualClock();
    const sink = drivenSink(clock, Number.POSITIVE_INFINITY);
    const size = 1 * MiB;
    const preview = { stdoutChars: 4 * MiB, stderrChars: 2048, maxBytes: 4 * MiB };
    const { receipt } = await runCapture(sink, clock, size, () => {}, preview);
    expect(receipt.capture).toEqual({ state: "complete", reasons: [] });
    expect(receipt.streams.stdout.committed).toBe(size);
    expect(Buffer.concat(sink.received).equals(expected(size))).toBe(true);
    expect(sink.queue().stats.peakBytes).toBeLessThanOrEqual(256 * KiB);
  });
});
