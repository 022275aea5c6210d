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

  it("orders a binary stream (--binary keep) redactor → user stages: no decoder, no ANSI strip, a describing tap", () => {
    const budget = { stdoutChars: 100, stderrChars: 100, maxBytes: 4096 };
    const plan = createStreamPlan({
      preview: { budget, stream: "stdout" },
      redactor: createRedactor(),
      binary: true,
    });
    expect(plan.stages.map((s) => s.name)).toEqual(["redactor"]);
    expect(plan.representation).toBe("binary");
    const bytes = Buffer.from([0xff, 0xfe, 0x1b, 0x5b, 0x33, 0x31, 0x6d, 0x0a]);
    // Raw bytes pass as they are (invalid UTF-8 and an escape sequence too); the tap calls them binary.
    const kept = plan.stages.reduce<Uint8Array[]>((batch, stage) => stage.push(batch), [bytes]);
    expect(Buffer.concat(kept)).toEqual(bytes);
    plan.tap.push([bytes]);
    expect(plan.tap.snapshot().binary).toBe(true);
    const text = createStreamPlan({ preview: { budget, stream: "stdout" }, redactor: null });
    expect(text.representation).toBeUndefined();
    text.tap.push([Buffer.from("plain text\n")]);
    expect(text.tap.snapshot().binary).toBe(false);
    const kept2 = createStreamPlan({ previewChars: 10, redactor: null, stripAnsi: false });
    expect(kept2.stages.map((s) => s.name)).toEqual(["utf8-decoder"]);
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
