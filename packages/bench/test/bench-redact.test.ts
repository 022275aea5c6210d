import { describe, expect, it } from "vitest";
import { benchRedact } from "../src/bench-redact.js";

describe("benchRedact", () => {
  it("measures the redactor next to replacestream and a per-line regex, with a linearity check", async () => {
    const result = await benchRedact({ sizeBytes: 2 << 20, secrets: [10], peerSizeBytes: 1 << 20 });
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
    expect(result.cases).toHaveLength(1);
    const [row] = result.cases;
    expect(row!.secrets).toBe(10);
    expect(row!.spool.mbPerSecond).toBeGreaterThan(0);
    expect(row!.spool.redactions).toBeGreaterThan(0);
    expect(row!.replacestream.available).toBe(true);
    expect(row!.perLineRegex.bytes).toBe(1 << 20);
    expect(row!.linearity.doubleBytes).toBe(4 << 20);
    expect(row!.ratioToFasterPeer).toBeGreaterThan(0);
  });
});
