import { DEFAULT_PREVIEW_BUDGET, type PreviewSnapshot, renderPreview } from "@spool/core";
import { createPreviewTap, previewTapBudget } from "@spool/transforms";
import { describe, expect, it } from "vitest";

const none: PreviewSnapshot = {
  head: new Uint8Array(),
  tail: new Uint8Array(),
  total: 0,
  binary: false,
};

function tapOf(text: string | Buffer, chars: number): PreviewSnapshot {
  const tap = createPreviewTap(previewTapBudget(chars));
  tap.push([Buffer.from(text)]);
  return tap.snapshot();
}

describe("renderPreview", () => {
  it("shows a stream that fits whole and byte-identical (indentation, blank lines, no final newline)", () => {
    const text = "  indented\n\n\ttab\nno newline";
    const out = renderPreview({ stdout: tapOf(text, 8192), stderr: none }, DEFAULT_PREVIEW_BUDGET, {
      failed: false,
      refs: null,
    });
    expect(out).toEqual({ text, state: "complete", bytes: Buffer.byteLength(text) });
  });

  it("shows head, a larger tail and the omitted byte count with the read command", () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i}\n`).join("");
    const refs = { stdout: "tool-outputs/ID/stdout.txt", stderr: null };
    const out = renderPreview(
      { stdout: tapOf(lines, 1000), stderr: none },
      { ...DEFAULT_PREVIEW_BUDGET, stdoutChars: 1000 },
      { failed: false, refs },
    );
    expect(out.state).toBe("omitted");
    const m =
      /\[… (\d+) bytes of stdout omitted · spool read tool-outputs\/ID\/stdout.txt --offset (\d+) --length (\d+) …\]/.exec(
        out.text,
      );
    expect(m).not.toBeNull();
    const [head, rest] = out.text.split(m![0]);
    const tail = rest!.replace(/^\n/, "");
    // Whole lines on both sides, and no blank line between the head and the marker.
    expect(head!.endsWith("\n") && !head!.endsWith("\n\n")).toBe(true);
    expect(lines.startsWith(head!)).toBe(true);
    expect(lines.endsWith(tail)).toBe(true);
    expect(tail.length).toBeGreaterThan(head!.length);
    // The count and offset describe exactly the bytes left out.
    expect(Number(m![2])).toBe(Buffer.byteLength(head!));
    expect(Number(m![1]) + Buffer.byteLength(head!) + Buffer.byteLength(tail)).toBe(
      Buffer.byteLength(lines),
    );
    expect(tail).toContain("line 4999");
    expect([...out.text.replace(m![0], "")].length).toBeLessThanOrEqual(1002);
  });

  it("keeps the whole text under the byte ceiling, giving stderr priority on failure", () => {
    const big = "é".repeat(20_000);
    const streams = {
      stdout: tapOf(big, 8192),
      stderr: tapOf(`error: ${"x".repeat(3000)} END\n`, 2048),
    };
    for (const failed of [true, false]) {
      const out = renderPreview(streams, DEFAULT_PREVIEW_BUDGET, { failed, refs: null });
      expect(out.bytes).toBeLessThanOrEqual(DEFAULT_PREVIEW_BUDGET.maxBytes);
      expect(out.text).toContain("--- stderr ---");
      expect(out.text).toContain("END");
    }
    const tight = { ...DEFAULT_PREVIEW_BUDGET, maxBytes: 4096 };
    const failed = renderPreview(streams, tight, { failed: true, refs: null });
    const ok = renderPreview(streams, tight, { failed: false, refs: null });
    const stderrPart = (t: string) => t.split("--- stderr ---")[1]!.length;
    expect(stderrPart(failed.text)).toBeGreaterThan(stderrPart(ok.text));
    expect(failed.bytes).toBeLessThanOrEqual(4096);
  });

  it("describes a binary-looking stream escaped, never as raw control bytes", () => {
    const out = renderPreview(
      {
        stdout: tapOf(Buffer.from([0xef, 0xbf, 0xbd, 0x00, ...Buffer.from("hello")]), 8192),
        stderr: none,
      },
      DEFAULT_PREVIEW_BUDGET,
      { failed: false, refs: null },
    );
    expect(out.text).toContain("binary-looking stdout");
    expect(out.text).toContain("\\x00hello");
    expect(out.text).not.toContain("\u0000");
  });
});
