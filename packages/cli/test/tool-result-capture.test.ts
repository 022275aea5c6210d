/**
 * `keepsNothing`: a result the proxy passes on whole and does not capture must be one whose
 * capture would have kept nothing on disk (the small-result path), whatever its text and
 * however redaction changes its length.
 */
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { invokeCommand } from "../src/main.js";
import { captureToolResult, keepsNothing } from "../src/tool-result-capture.js";

const OPTIONS = { previewBytes: 5461 };
const alnum = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
/** Text that redaction rewrites: tokens replaced by markers longer than themselves. */
const secretish = fc.oneof(
  fc.string({ unit: alnum, minLength: 36, maxLength: 36 }).map((s) => `ghp_${s}`),
  fc
    .string({
      unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"),
      minLength: 16,
      maxLength: 16,
    })
    .map((s) => `AKIA${s}`),
);
/** Runs of one character, so that results span both sides of the threshold. */
const filler = fc.tuple(alnum, fc.integer({ min: 0, max: 2000 })).map(([c, n]) => c.repeat(n));
const text = fc
  .array(
    fc.oneof(fc.string({ unit: "grapheme", maxLength: 40 }), secretish, fc.constant("\n"), filler),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(" "));
const item = fc.oneof(
  text.map((t) => ({ type: "text", text: t })),
  fc.constant({ type: "resource_link", uri: "file:///x", name: "x" }),
);
const anyResult = fc.record(
  {
    content: fc.array(item, { minLength: 0, maxLength: 6 }),
    structuredContent: fc.dictionary(fc.string({ maxLength: 8 }), text, { maxKeys: 3 }),
  },
  { requiredKeys: ["content"] },
);
/** One section of text, the only shape `keepsNothing` can accept; sizes straddle its bound. */
const oneText = fc
  .array(fc.oneof(fc.string({ unit: "grapheme", maxLength: 40 }), secretish, fc.constant("\n")), {
    maxLength: 30,
  })
  .map((parts) => ({ content: [{ type: "text", text: parts.join(" ") }] }));
const result = fc.oneof(anyResult, oneText);

describe("keepsNothing", () => {
  it("is true only of results whose capture stays on the small-result path", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "spool-keeps-nothing-"));
    const io = { cwd: root, env: {}, invoke: invokeCommand };
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(result, async (r) => {
        const message = Buffer.byteLength(JSON.stringify({ jsonrpc: "2.0", id: 1, result: r }));
        if (!keepsNothing(r, message, OPTIONS)) return;
        checked++;
        const c = await captureToolResult("t", r, { root, io, ...OPTIONS });
        expect(c.receipt.streams.stdout.ref).toBeNull();
        expect(c.receipt.capture.state).toBe("complete");
      }),
      { numRuns: 150 },
    );
    expect(checked).toBeGreaterThan(10);
    const outputs = path.join(root, "tool-outputs");
    expect(existsSync(outputs) ? readdirSync(outputs) : []).toEqual([]);
  }, 120_000);

  it("is false of a result with a binary item, or over a quarter of the preview", () => {
    const image = { content: [{ type: "image", data: "AAAA", mimeType: "image/png" }] };
    expect(keepsNothing(image, 80, OPTIONS)).toBe(false);
    const small = { content: [{ type: "text", text: "x" }] };
    expect(keepsNothing(small, 1365, OPTIONS)).toBe(true);
    expect(keepsNothing(small, 1366, OPTIONS)).toBe(false);
  });
});
