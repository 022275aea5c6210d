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
