import { describe, expect, it } from "vitest";
import { benchRedactCorpus } from "../src/redact-corpus.js";

/** Run the corpus bench and return its targets table as name → measured, met. */
async function targets(): Promise<Map<string, { value: string; met: string }>> {
  let out = "";
  const io = {
    stdout: (t: string) => {
      out += t;
    },
    stderr: () => {},
  };
  const options = { size: undefined, rounds: undefined, report: undefined, work: undefined };
  // Without the gitleaks port beside it: no target reads it, and it costs more than spool.
  const run = { ...options, corpus: true, adversarial: false };
  expect(await benchRedactCorpus(run, io, { baseline: false })).toBe(0);
  const table = out.slice(out.indexOf("| target |"));
  const rows = new Map<string, { value: string; met: string }>();
  for (const line of table.split("\n").slice(2)) {
    const cells = line.split("|").map((c) => c.trim());
    if (cells.length < 5 || cells[1] === "") break;
    rows.set(cells[1]!, { value: cells[3]!, met: cells[4]! });
  }
  return rows;
}

describe("redaction corpus", () => {
  it("keeps recall, partial leaks and false positives at their thresholds", async () => {
    const rows = await targets();
    const must = [
      "recall, keyword contexts",
      "recall, as written",
      "recall, no keyword",
      "recall, alone on a line",
      "recall, alone on a line, prefixed formats",
      "recall, base64-wrapped",
      "partial leaks",
      "ordinary text lines flagged",
      "source code lines flagged (comments: see the table)",
      "settings flagged",
    ];
    for (const name of must)
      expect(rows.get(name), name).toEqual(expect.objectContaining({ met: "yes" }));
  }, 180_000);
});
