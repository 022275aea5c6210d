import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { captureInChunks } from "../src/chunk-size.js";

describe("bench chunk-size", () => {
  it("captures the same bytes in 64-byte and 64 KiB writes into the file spool", async () => {
    const work = mkdtempSync(path.join(tmpdir(), "spool-chunk-"));
    try {
      for (const chunk of [64, 65536]) {
        const root = path.join(work, String(chunk));
        const ms = await captureInChunks(root, 1024 * 1024, chunk);
        expect(ms).toBeGreaterThan(0);
        const [dir] = readdirSync(path.join(root, "tool-outputs"));
        const bytes = readFileSync(path.join(root, "tool-outputs", dir, "stdout.txt"));
        expect(bytes.byteLength).toBe(1024 * 1024);
        expect(bytes.subarray(0, chunk).toString()).toBe(`${"y".repeat(chunk - 1)}\n`);
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
