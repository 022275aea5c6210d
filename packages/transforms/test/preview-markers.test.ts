import { DEFAULT_PREVIEW_BUDGET, renderPreview } from "@spool/core";
import { compileRedaction, createPreviewTap, createRedactor } from "@spool/transforms";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const TOKEN = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB";
const FORGED = "[REDACTED:github-token]";
const compiled = compileRedaction({});
const empty = { head: Buffer.alloc(0), tail: Buffer.alloc(0), total: 0, binary: false };

/** Redactor → tap over `text` cut at `cuts`, then the preview's stdout text. */
function preview(text: string, cuts: number[], headBytes: number, tailBytes: number) {
  const bytes = Buffer.from(text);
  const redactor = createRedactor(compiled);
  const tap = createPreviewTap({ headBytes, tailBytes });
  let prev = 0;
  for (const cut of [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)) {
    tap.push(redactor.push([bytes.subarray(prev, cut)]));
    prev = cut;
  }
  tap.push(redactor.push([bytes.subarray(prev)]));
  tap.push(redactor.end());
  return renderPreview({ stdout: tap.snapshot(), stderr: empty }, DEFAULT_PREVIEW_BUDGET, {
    failed: false,
    refs: { stdout: "tool-outputs/x/stdout.txt", stderr: null },
  }).text;
}

describe("the tap knows the redactor's markers from the child's text", () => {
  it("a forged marker is escaped, the real one is not, under any chunking (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("forged", "real", "text"), { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat({ max: 2000 }), { maxLength: 12 }),
        (parts, cuts) => {
          const words = { forged: FORGED, real: `tok ${TOKEN} `, text: "plain words\n" };
          const text = parts.map((p) => words[p]).join(" ");
          const shown = preview(text, cuts, 1 << 16, 1 << 16);
          const real = parts.filter((p) => p === "real").length;
          const forged = parts.filter((p) => p === "forged").length;
          expect(shown.split(`\\${FORGED}`).length - 1).toBe(forged);
          expect(shown.split(FORGED).length - 1 - forged).toBe(real);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps marker positions through the ring's tail when the middle is omitted", () => {
    const filler = `${"x".repeat(99)}\n`;
    const text = `${FORGED}\n${filler.repeat(400)}tok ${TOKEN} ${FORGED}\n`;
    const shown = preview(text, [7, 5000, 40000], 256, 256);
    expect(shown.startsWith(`\\${FORGED}\n`)).toBe(true);
    expect(shown.endsWith(`tok [REDACTED:github-token] \\${FORGED}\n`)).toBe(true);
    expect(shown).toMatch(/\[… \d+ bytes of stdout omitted · spool read /);
  });
});
