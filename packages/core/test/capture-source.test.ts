import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import {
  type CaptureSourceOptions,
  DEFAULT_PREVIEW_BUDGET,
  ReceiptSchema,
  receiptExitStatus,
} from "@spool/core";
import { runSourceCapture } from "@spool/core/internal";
import { createMemorySpool } from "@spool/sinks";
import { createPreviewTap, createUtf8Decoder, previewTapBudget } from "@spool/transforms";
import { describe, expect, it } from "vitest";

function common(): { memory: ReturnType<typeof createMemorySpool> } & Omit<
  CaptureSourceOptions,
  "stdout" | "declared"
> {
  const memory = createMemorySpool();
  return {
    memory,
    root: "/r",
    preview: { ...DEFAULT_PREVIEW_BUDGET, stdoutChars: 64, stderrChars: 64, maxBytes: 1024 },
    plan: () => ({ stages: [createUtf8Decoder()], tap: createPreviewTap(previewTapBudget(64)) }),
    spool: memory.factory,
  };
}

async function* chunks(parts: string[], fail?: string): AsyncIterable<Uint8Array> {
  for (const part of parts) yield Buffer.from(part);
  if (fail !== undefined) throw new Error(fail);
}

describe("captureSource", () => {
  it("captures a Node Readable inline, with a source block and no process", async () => {
    const { memory, ...options } = common();
    const c = runSourceCapture({
      ...options,
      stdout: Readable.from([Buffer.from("hello "), Buffer.from("world\n")]),
      declared: "complete",
      label: "greeting",
    });
    const { receipt } = await c.done;
    ReceiptSchema.parse(receipt);
    expect(receipt.process).toBeUndefined();
    expect(receipt.source).toMatchObject({
      kind: "node-readable",
      label: "greeting",
      state: "ended",
      declared: "complete",
      error: null,
    });
    expect(receipt.capture).toEqual({ state: "complete", reasons: [] });
    expect(receipt.preview.text).toContain("hello world");
    expect(receiptExitStatus(receipt)).toBe(0);
    expect(memory.receipt(c.captureId)).toBeUndefined();
  });

  it("spills a web ReadableStream larger than the preview to storage, byte for byte", async () => {
    const { memory, ...options } = common();
    const body = Array.from({ length: 3000 }, (_, i) => `${i}\n`).join("");
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < body.length; i += 100)
          controller.enqueue(Buffer.from(body.slice(i, i + 100)));
        controller.close();
      },
    });
    const c = runSourceCapture({ ...options, stdout: stream, declared: "unknown" });
    const { receipt } = await c.done;
    ReceiptSchema.parse(receipt);
    expect(receipt.source?.kind).toBe("web-stream");
    expect(receipt.capture.state).toBe("complete");
    expect(memory.bytes(c.captureId, "stdout").toString()).toBe(body);
    expect(memory.receipt(c.captureId)).toEqual(receipt);
  });

  it("settles partial with source-error and the message when the source fails", async () => {
    const { memory, ...options } = common();
    const c = runSourceCapture({
      ...options,
      stdout: chunks(["part one\n", "part two\n"], "connection reset"),
      declared: "unknown",
    });
    const { receipt } = await c.done;
    ReceiptSchema.parse(receipt);
    expect(receipt.source).toMatchObject({ kind: "async-iterable", error: "connection reset" });
    expect(receipt.capture).toEqual({ state: "partial", reasons: ["source-error"] });
    expect(memory.bytes(c.captureId, "stdout").toString()).toBe("part one\npart two\n");
    expect(receiptExitStatus(receipt)).toBe(1);
  });

  it("is never complete when the source declares itself truncated", async () => {
    const { memory: _m, ...options } = common();
    const c = runSourceCapture({
      ...options,
      stdout: chunks(["abc"]),
      declared: () => "truncated",
    });
    const { receipt } = await c.done;
    ReceiptSchema.parse(receipt);
    expect(receipt.source?.declared).toBe("truncated");
    expect(receipt.capture).toEqual({ state: "partial", reasons: ["source-truncated"] });
  });

  it("captures an HTTP body from a local server, declaring completeness from Content-Length", async () => {
    const body = "x".repeat(5000);
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-length": String(body.length) });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/`);
      const length = Number(response.headers.get("content-length"));
      const { memory, ...options } = common();
      const c = runSourceCapture({
        ...options,
        stdout: response.body!,
        label: "GET /",
        declared: () =>
          c.receipt().streams.stdout.raw.observed === length ? "complete" : "truncated",
      });
      const { receipt } = await c.done;
      expect(receipt.source).toMatchObject({ declared: "complete", label: "GET /" });
      expect(receipt.capture.state).toBe("complete");
      expect(memory.bytes(c.captureId, "stdout").toString()).toBe(body);
    } finally {
      server.close();
    }
  });

  it("cancel destroys the source and settles partial with source-error", async () => {
    const { memory: _m, ...options } = common();
    const stdout = new Readable({ read() {} });
    stdout.push("started\n");
    const c = runSourceCapture({ ...options, stdout, declared: "unknown" });
    c.cancel();
    const { receipt } = await c.done;
    expect(receipt.capture).toEqual({ state: "partial", reasons: ["source-error"] });
    expect(receipt.source?.error).toMatch(/cancelled/);
  });
});
