import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { DEFAULT_PREVIEW_BUDGET, ReceiptSchema } from "@spool/core";
import { runCommandCapture } from "@spool/core/internal";
import { createFileSpool } from "@spool/sinks";
import { createPreviewTap, createUtf8Decoder, previewTapBudget } from "@spool/transforms";
import { describe, expect, it } from "vitest";

describe("persist: false", () => {
  it("gives the preview and a disabled receipt, and writes nothing, even past the preview", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "spool-persist-off-"));
    const files = createFileSpool({});
    try {
      const c = runCommandCapture({
        command: "seq",
        args: ["1", "20000"],
        root,
        persist: false,
        spillAtStart: true,
        preview: { ...DEFAULT_PREVIEW_BUDGET, stdoutChars: 64, stderrChars: 64, maxBytes: 1024 },
        plan: () => ({
          stages: [createUtf8Decoder()],
          tap: createPreviewTap(previewTapBudget(64)),
        }),
        spool: files.factory,
      });
      expect(await c.spill()).toBe(false);
      const { receipt, exitStatus } = await c.done;
      ReceiptSchema.parse(receipt);
      expect(exitStatus).toBe(0);
      expect(receipt.capture).toEqual({ state: "disabled", reasons: [] });
      expect(receipt.preview.text).toContain("20000");
      expect(receipt.streams.stdout).toMatchObject({ committed: 0, ref: null, path: null });
      expect(receipt.streams.stdout.produced).toBeGreaterThan(100_000);
      expect(readdirSync(root)).toEqual([]);
      expect(existsSync(path.join(root, "tool-outputs"))).toBe(false);
    } finally {
      await files.destroy();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
