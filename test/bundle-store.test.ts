/**
 * Export is built on the read-side store contract alone: captures held by the memory
 * store export into a bundle that a file root imports, byte for byte, with a line index
 * equal to the one the writer would have kept, whatever the output's shape.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEFAULT_PREVIEW_BUDGET } from "@spool/core";
import {
  createFileStore,
  createLineIndexer,
  createMemorySpool,
  exportBundle,
  importBundle,
  startCapture,
} from "@spool/sinks";
import { createPreviewTap, createUtf8Decoder, previewTapBudget } from "@spool/transforms";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "spool-bundle-store-"));

describe("export from the memory store, import into a file root", () => {
  it("round-trips any output (lines of any length, invalid UTF-8) with its index", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.constant("\n"), fc.string({ maxLength: 40 }), fc.constant("\xff")), {
          minLength: 1,
          maxLength: 60,
        }),
        fc.integer({ min: 1, max: 3000 }),
        async (pieces, repeat) => {
          const memory = createMemorySpool();
          const script = `const p=${JSON.stringify(pieces)};let s="";for(let i=0;i<${repeat};i++)s+=p[i%p.length];process.stdout.write(Buffer.from(s,"latin1"))`;
          const c = startCapture({
            command: process.execPath,
            args: ["-e", script],
            root: "/memory",
            preview: { ...DEFAULT_PREVIEW_BUDGET, stdoutChars: 16, stderrChars: 16, maxBytes: 64 },
            redact: false, // a hand-built plan without a redactor (storage is under test)
            plan: () => ({
              stages: [createUtf8Decoder()],
              tap: createPreviewTap(previewTapBudget(16)),
            }),
            spool: memory.factory,
          });
          const { receipt } = await c.done;
          const expected = memory.bytes(c.captureId, "stdout");
          if (expected.length <= 64) return; // the small-result path stores nothing to export
          const base = tmp();
          const out = path.join(base, "b.tar");
          await exportBundle({ store: memory.store, captureIds: [c.captureId], out });
          const root = path.join(base, "root");
          const report = await importBundle({ root, bundle: out, quotaBytes: 1 << 30 });
          expect(report.imported).toEqual([c.captureId]);
          const files = createFileStore({ root });
          const state = await files.state(c.captureId);
          expect(state.receipt.capture.state).toBe(receipt.capture.state);
          expect(state.receipt.streams.stdout.sha256).toBe(receipt.streams.stdout.sha256);
          const stream = await files.openStream(state, "stdout");
          const got = (await stream.read(0, expected.length + 1)).bytes;
          await stream.close();
          expect(got.equals(expected)).toBe(true);
          const index = fs.readFileSync(path.join(root, "tool-outputs", c.captureId, "stdout.idx"));
          expect(index.equals(createLineIndexer().scan(expected) ?? Buffer.alloc(0))).toBe(true);
          fs.rmSync(base, { recursive: true, force: true });
        },
      ),
      { numRuns: 8 },
    );
  }, 240_000);
});
