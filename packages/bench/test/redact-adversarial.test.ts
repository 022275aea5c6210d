import { describe, expect, it } from "vitest";
import { allProbes, distinctAnchors, NAMED, SHAPES } from "../src/adversarial-probes.js";
import { linearRatio, repeated } from "../src/linear-ratio.js";
import { adversarialReport } from "../src/redact-adversarial.js";

describe("bench redact --adversarial (plumbing, not a measurement)", () => {
  it("probes every distinct built-in anchor in every shape", () => {
    const probes = allProbes();
    const builtin = new Set(probes.filter((p) => p.rule !== "user").map((p) => p.anchor));
    expect(builtin.size).toBe(distinctAnchors());
    expect(probes.filter((p) => p.rule === "user").length).toBeGreaterThan(0);
    for (const p of probes.slice(0, 8))
      expect(SHAPES.map(([, unit]) => unit(p.anchor))).toContain(p.unit);
  });

  it("builds n and 2n of the same shape and times the rounds it was asked for", () => {
    expect(repeated("ab=", 7).toString("latin1")).toBe("ab=ab=a");
    const seen = new Set<number>();
    const r = linearRatio(
      (input) => {
        seen.add(input.length);
        // Real work proportional to the input, so both sizes take measurable time.
        let h = 0;
        for (let k = 0; k < 20; k++) for (const b of input) h = (h * 31 + b) | 0;
        if (h === 0.5) throw new Error("unreachable");
      },
      "xyz",
      { minSeconds: 0.002, rounds: 3, minBytes: 4096, maxBytes: 1 << 20 },
    );
    expect(r.rounds).toHaveLength(3);
    expect(seen.has(r.bytes) && seen.has(2 * r.bytes)).toBe(true);
    expect(r.bytes).toBeGreaterThanOrEqual(4096);
    expect(r.ratio).toBeGreaterThan(0);
  });

  it("runs the measuring child and reports named inputs, rules and targets", async () => {
    const report = await adversarialReport({ limit: 4, quick: true });
    const inputs = report.rows.map((r) => String(r.input));
    expect(inputs.slice(0, 4)).toEqual(NAMED.slice(0, 4).map(([name]) => name));
    expect(inputs.some((i) => i.includes("4 probes, worst at"))).toBe(true);
    for (const row of report.rows) expect(row.ratio as number).toBeGreaterThan(0);
    expect(report.targets.map((t) => t.name)).toEqual(["worst ratio", "built-in anchors probed"]);
    // Only 4 probes ran: the catalogue is not covered, and the report says so.
    expect(report.targets[1]!.met).toBe(false);
    expect(report.tables?.[0]?.rows.length).toBe(4);
  }, 60_000);
});
