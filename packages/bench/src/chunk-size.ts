/**
 * `spool bench chunk-size [--size 64MiB] [--rounds 3]`: the same bytes captured through
 * the real file spool (worker thread, private files) in 64-byte writes and in 64 KiB
 * writes, interleaved. Per-write cost must not depend on the source's chunk size: the
 * writer queue coalesces small offers before they cross to the worker, so the 64-byte
 * case should stay within 1.5× of the 64 KiB case. Reports wall time, the ratio and the
 * messages sent to the worker.
 */
import { mkdirSync } from "node:fs";
import * as path from "node:path";
import { Readable } from "node:stream";
import { captureSource, DEFAULT_PREVIEW_BUDGET } from "@spool/core";
import { createFileSpool } from "@spool/sinks";
import { createPreviewTap, createUtf8Decoder, previewTapBudget } from "@spool/transforms";
import { type BenchIo, type BenchOptions, benchContext } from "./context.js";
import { median } from "./measure.js";

export const CHUNK_SIZES = [64, 64 * 1024] as const;

/** Capture `total` bytes written `chunk` bytes at a time; wall milliseconds. */
export async function captureInChunks(root: string, total: number, chunk: number): Promise<number> {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const files = createFileSpool({}); // no withQuotas: no limits
  const line = Buffer.alloc(chunk, "y");
  line[chunk - 1] = 0x0a;
  // A Readable that pushes as fast as it is read, like a pipe whose writer outpaces the
  // reader (an async generator would cost a few microseconds a chunk by itself).
  let sent = 0;
  const stdout = new Readable({
    highWaterMark: 64 * 1024,
    read() {
      while (sent < total) {
        sent += chunk;
        if (!this.push(line)) return;
      }
      this.push(null);
    },
  });
  const started = performance.now();
  const capture = captureSource({
    root,
    stdout,
    declared: "complete",
    preview: DEFAULT_PREVIEW_BUDGET,
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
    for (let round = 1; round <= rounds; round++) {
      for (const chunk of CHUNK_SIZES) {
        const ms = await captureInChunks(path.join(c.work, `r${round}-${chunk}`), total, chunk);
        times[chunk]!.push(ms);
        io.stderr(`round ${round}: ${chunk} B writes ${ms.toFixed(0)} ms\n`);
      }
    }
    const small = median(times[64]!);
    const large = median(times[65536]!);
    const mib = total / 1024 / 1024;
    io.stdout(
      [
        `| writes | median ms | MiB/s |`,
        `| --- | --- | --- |`,
        `| 64 B (${total / 64} writes) | ${small.toFixed(0)} | ${(mib / (small / 1000)).toFixed(1)} |`,
        `| 64 KiB (${total / 65536} writes) | ${large.toFixed(0)} | ${(mib / (large / 1000)).toFixed(1)} |`,
        ``,
        `ratio 64 B / 64 KiB: ${(small / large).toFixed(2)}× (target ≤ 1.5×)`,
        ``,
      ].join("\n"),
    );
    return 0;
  } finally {
    c.dispose();
  }
}
