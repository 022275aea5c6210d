import { DEFAULT_PREVIEW_BUDGET, ReceiptSchema } from "@spool/core";
import { runCommandCapture } from "@spool/core/internal";
import { createMemorySpool } from "@spool/sinks";
import { createPreviewTap, createUtf8Decoder, previewTapBudget } from "@spool/transforms";
import { describe, expect, it } from "vitest";

function capture(
  command: string,
  args: string[],
  extra: { drainMs?: number; timeoutMs?: number } = {},
) {
  const memory = createMemorySpool();
  const c = runCommandCapture({
    command,
    args,
    root: "/r",
    preview: { ...DEFAULT_PREVIEW_BUDGET, stdoutChars: 64, stderrChars: 64, maxBytes: 1024 },
    plan: () => ({ stages: [createUtf8Decoder()], tap: createPreviewTap(previewTapBudget(64)) }),
    spool: memory.factory,
    ...extra,
  });
  return { c, memory };
}

describe("startCapture", () => {
  it("spills once output outgrows the preview, with the bytes held so far first", async () => {
    const { c, memory } = capture("sh", ["-c", "printf first-bytes; seq 1 2000"]);
    const events: string[] = [];
    c.events.subscribe((e) => events.push(e.type));
    const { receipt } = await c.done;
    ReceiptSchema.parse(receipt);
    const expected = `first-bytes${Array.from({ length: 2000 }, (_, i) => `${i + 1}\n`).join("")}`;
    expect(memory.bytes(c.captureId, "stdout").toString()).toBe(expected);
    expect(events).toContain("spill");
    expect(receipt.capture.state).toBe("complete");
    expect(receipt.streams.stdout.committed).toBe(Buffer.byteLength(expected));
    expect(memory.receipt(c.captureId)).toEqual(receipt);
  });

  it("stays on the small-result path when everything fits", async () => {
    const { c, memory } = capture("echo", ["tiny"]);
    const { receipt } = await c.done;
    expect(receipt.preview).toMatchObject({ state: "complete", text: "tiny\n" });
    expect(receipt.streams.stdout).toMatchObject({
      committed: 5,
      ref: null,
      retained: { start: 0, end: 5 },
    });
    expect(memory.receipt(c.captureId)).toBeUndefined();
  });

  it("finishes within the drain window when a descendant keeps the pipe, marking drain-timeout", async () => {
    const started = Date.now();
    const { c } = capture("sh", ["-c", "(sleep 5; echo late) & echo early"], { drainMs: 200 });
    const { receipt, exitStatus } = await c.done;
    expect(Date.now() - started).toBeLessThan(3000);
    expect(exitStatus).toBe(0);
    expect(receipt.capture).toEqual({ state: "partial", reasons: ["drain-timeout"] });
    expect(receipt.preview.text).toContain("early");
    expect(receipt.streams.stdout.raw.pending).toBe(0);
  });

  it("reports a command that does not exist as spawnError ENOENT, exit 127, nothing stored", async () => {
    const { c, memory } = capture("/nonexistent/spool-test-cmd", []);
    const { receipt, exitStatus } = await c.done;
    expect(exitStatus).toBe(127);
    expect(receipt.process).toMatchObject({
      state: "exited",
      pid: null,
      reason: "spawn failed: ENOENT",
      spawnError: { code: "ENOENT", syscall: "spawn" },
    });
    expect(receipt.capture).toEqual({ state: "complete", reasons: [] });
    expect(memory.receipt(c.captureId)).toBeUndefined();
    ReceiptSchema.parse(receipt);
  });

  it("leaves spawnError out of the receipt of a child that ran", async () => {
    const { c } = capture("sh", ["-c", "exit 3"]);
    const { receipt, exitStatus } = await c.done;
    expect(exitStatus).toBe(3);
    expect("spawnError" in receipt.process).toBe(false);
  });

  it("cancels the whole process group and reports it", async () => {
    const { c } = capture("sh", ["-c", "sleep 30 & sleep 30; echo never"]);
    c.events.subscribe((e) => {
      if (e.type === "start") c.cancel("SIGTERM");
    });
    const { receipt, exitStatus } = await c.done;
    expect(receipt.process).toMatchObject({ state: "cancelled", signal: "SIGTERM" });
    expect(exitStatus).toBe(143);
  });
});
