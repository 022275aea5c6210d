import { isSpoolError } from "@spool/core";
import {
  checkStreamPlan,
  createAnsiStrip,
  createPreviewTap,
  createRedactor,
  createStreamPlan,
  createUtf8Decoder,
  previewTapBudget,
} from "@spool/transforms";
import { describe, expect, it } from "vitest";

const SECRET = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB";

function run(plan: ReturnType<typeof createStreamPlan>, input: string): string {
  const out: Uint8Array[] = [];
  let batch: Uint8Array[] = [Buffer.from(input)];
  for (const stage of plan.stages) batch = stage.push(batch);
  out.push(...batch);
  let tail: Uint8Array[] = [];
  for (const stage of plan.stages) tail = [...stage.push(tail), ...stage.end()];
  out.push(...tail);
  return Buffer.concat(out).toString();
}

describe("stream plan", () => {
  it("orders decoder → ANSI strip → redactor → user stages, so a token split by a colour code is redacted", () => {
    const plan = createStreamPlan({ previewChars: 100, redactor: createRedactor() });
    expect(plan.stages.map((s) => s.name)).toEqual(["utf8-decoder", "ansi-strip", "redactor"]);
    const split = `token ${SECRET.slice(0, 10)}\u001b[31m${SECRET.slice(10)}\n`;
    expect(run(plan, split)).not.toContain(SECRET);
  });

  it("derives each stream's tap from the one preview budget (nothing to keep in step)", () => {
    const budget = { stdoutChars: 40, stderrChars: 12, maxBytes: 4096 };
    const input = [Buffer.from("x".repeat(5000))];
    for (const stream of ["stdout", "stderr"] as const) {
      const derived = createStreamPlan({ preview: { budget, stream }, redactor: null }).tap;
      const chars = stream === "stdout" ? budget.stdoutChars : budget.stderrChars;
      const byHand = createPreviewTap(previewTapBudget(chars));
      derived.push(input);
      byHand.push(input);
      const [a, b] = [derived.snapshot(), byHand.snapshot()];
      expect([a.head.byteLength, a.tail.byteLength]).toEqual([
        b.head.byteLength,
        b.tail.byteLength,
      ]);
      expect(a.head.byteLength + a.tail.byteLength).toBeLessThan(5000);
    }
    const out = createStreamPlan({ preview: { budget, stream: "stdout" }, redactor: null }).tap;
    const err = createStreamPlan({ preview: { budget, stream: "stderr" }, redactor: null }).tap;
    out.push(input);
    err.push(input);
    expect(out.snapshot().head.byteLength).toBeGreaterThan(err.snapshot().head.byteLength);
  });

  it("refuses a plan that strips ANSI after redacting, or has no redactor with redaction on", () => {
    const tap = createPreviewTap(previewTapBudget(100));
    const late = { stages: [createUtf8Decoder(), createRedactor(), createAnsiStrip()], tap };
    expect(() => checkStreamPlan(late, { redaction: true })).toThrow(/ansi-strip runs after/);
    const none = { stages: [createUtf8Decoder(), createAnsiStrip()], tap };
    try {
      checkStreamPlan(none, { redaction: true });
      expect.unreachable();
    } catch (error) {
      expect(isSpoolError(error, "SPOOL_E_PLAN")).toBe(true);
    }
    expect(() => checkStreamPlan(none, { redaction: false })).not.toThrow();
  });
});
