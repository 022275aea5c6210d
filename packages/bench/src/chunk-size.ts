/**
 * `spool bench chunk-size [--size 64MiB] [--rounds 3]`: the same bytes captured through
 * the real file spool (worker thread, private files) in 64-byte writes and in 64 KiB
 * writes, interleaved. Per-write cost must not depend on the source's chunk size: the
 * writer queue coalesces small offers before they cross to the worker, so the 64-byte
 * case should stay within 1.5× of the 64 KiB case. Reports wall time and the ratio, and
 * beside them the same sources merely drained (no capture), so what a million small writes
 * cost Node's stream machinery itself is told apart from what they cost spool.
 */
import { mkdirSync } from "node:fs";
import * as path from "node:path";
import { Readable } from "node:stream";
import { DEFAULT_PREVIEW_BUDGET } from "@spool/core";
import { captureSource, createFileSpool } from "@spool/sinks";
import { createPreviewTap, createUtf8Decoder, previewTapBudget } from "@spool/transforms";
import { type BenchIo, type BenchOptions, benchContext } from "./context.js";
import { median } from "./measure.js";

export const CHUNK_SIZES = [64, 64 * 1024] as const;

/**
 * `total` bytes in `chunk`-byte pushes, as fast as they are read, like a pipe whose writer
 * outpaces the reader (an async generator would cost a few microseconds a chunk by itself).
 */
function chunkSource(total: number, chunk: number): Readable {
  const line = Buffer.alloc(chunk, "y");
  line[chunk - 1] = 0x0a;
  let sent = 0;
  return new Readable({
    highWaterMark: 64 * 1024,
    read() {
      while (sent < total) {
        sent += chunk;
        if (!this.push(line)) return;
      }
      this.push(null);
    },
  });
}

/** Drain the same source with nothing done to its bytes: the source's own cost, wall ms. */
export async function drainChunks(total: number, chunk: number): Promise<number> {
  const source = chunkSource(total, chunk);
  const started = performance.now();
  let bytes = 0;
  for await (const piece of source) bytes += (piece as Buffer).byteLength;
  if (bytes !== total) throw new Error(`chunk-size: drained ${bytes} B of ${total}`);
  return performance.now() - started;
}

/** Capture `total` bytes written `chunk` bytes at a time; wall milliseconds. */
export async function captureInChunks(root: string, total: number, chunk: number): Promise<number> {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const files = createFileSpool({}); // no withQuotas: no limits
  const stdout = chunkSource(total, chunk);
  const started = performance.now();
  const capture = captureSource({
    root,
    stdout,
    declared: "complete",
    preview: DEFAULT_PREVIEW_BUDGET,
    redact: false, // the decoder alone: this measures chunk sizes, not redaction
    plan: () => ({ stages: [createUtf8Decoder()], tap: createPreviewTap(previewTapBudget(4096)) }),
    spool: files.factory,
  });
  const { receipt } = await capture.done;
  const ms = performance.now() - started;
  await files.destroy();
  if (receipt.capture.state !== "complete" || receipt.streams.stdout.committed !== total) {
    throw new Error(
      `chunk-size: capture ${receipt.capture.state}, ${receipt.streams.stdout.committed} B`,
    );
  }
  return ms;
}

export async function benchChunkSize(options: BenchOptions, io: BenchIo): Promise<number> {
  const c = benchContext(options);
  try {
    const total = c.size(64 * 1024 * 1024);
    const rounds = c.rounds(3);
    const times: Record<number, number[]> = { 64: [], 65536: [] };
    const drains: Record<number, number[]> = { 64: [], 65536: [] };
    for (let round = 1; round <= rounds; round++) {
      for (const chunk of CHUNK_SIZES) {
        const ms = await captureInChunks(path.join(c.work, `r${round}-${chunk}`), total, chunk);
        const drained = await drainChunks(total, chunk);
        times[chunk]!.push(ms);
        drains[chunk]!.push(drained);
        io.stderr(
          `round ${round}: ${chunk} B writes ${ms.toFixed(0)} ms (source alone ${drained.toFixed(0)} ms)\n`,
        );
      }
    }
    const small = median(times[64]!);
    const large = median(times[65536]!);
    const smallSource = median(drains[64]!);
    const largeSource = median(drains[65536]!);
    const mib = total / 1024 / 1024;
    const row = (label: string, ms: number, source: number) =>
      `| ${label} | ${ms.toFixed(0)} | ${(mib / (ms / 1000)).toFixed(1)} | ${source.toFixed(0)} |`;
    io.stdout(
      [
        `| writes | median ms | MiB/s | the source alone, ms |`,
        `| --- | --- | --- | --- |`,
        row(`64 B (${total / 64} writes)`, small, smallSource),
        row(`64 KiB (${total / 65536} writes)`, large, largeSource),
        ``,
        `ratio 64 B / 64 KiB: ${(small / large).toFixed(2)}× (target ≤ 1.5×)`,
        `beyond the source's own cost: ${((small - smallSource) / (large - largeSource)).toFixed(2)}×`,
        ``,
      ].join("\n"),
    );
    return 0;
  } finally {
    c.dispose();
  }
}
