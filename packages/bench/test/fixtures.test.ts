import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES } from "../src/fixture-data.js";
import { benchFixtures, type FixtureRow, removeRoot } from "../src/fixtures.js";
import { RETRIEVAL_LIMITS, RETRIEVAL_TASKS, runRetrieval } from "../src/retrieval.js";

describe("spool bench fixtures (the seed's evidence, end to end)", () => {
  let rows: FixtureRow[] = [];
  let root = "";
  beforeAll(async () => {
    ({ rows, root } = await benchFixtures());
  }, 120_000);
  afterAll(() => removeRoot(root));

  it("keeps every large fixture's inline result ≤ 10,240 bytes, the compact one inline with no file, and every saved file exact", () => {
    expect(rows.map((r) => r.name)).toEqual(FIXTURES.map((f) => f.name));
    for (const row of rows) {
      expect(row.exact, row.name).toBe(true);
      expect(row.exitVisible, row.name).toBe(true);
      if (row.finalErrorVisible !== null) expect(row.finalErrorVisible, row.name).toBe(true);
      if (row.name === "compact") {
        expect(row.inlineOnly).toBe(true);
        expect(row.savedBytes).toBe(0);
      } else {
        expect(row.inlineBytes, row.name).toBeLessThanOrEqual(10_240);
        expect(row.savedBytes, row.name).toBe(row.inputBytes);
      }
    }
  });

  it("answers every retrieval task correctly from the inline result plus ≤ 2 CLI calls and ≤ 4 KiB of their output", async () => {
    const results = await runRetrieval(rows);
    expect(results.map((r) => r.task)).toEqual(RETRIEVAL_TASKS.map((t) => t.name));
    for (const r of results) {
      expect(r.correct, `${r.task}: ${r.answer}`).toBe(true);
      expect(r.calls.length, r.task).toBeLessThanOrEqual(RETRIEVAL_LIMITS.calls);
      expect(r.contextBytes, r.task).toBeLessThanOrEqual(RETRIEVAL_LIMITS.contextBytes);
      // Every call is a real spool command that printed what the agent read.
      if (r.calls.length > 0) expect(r.contextBytes, r.task).toBeGreaterThan(0);
    }
    // What is not in the preview must come through the CLI: the JSON object, the CSV rows
    // and the first compiler error are all in the omitted middle.
    for (const fixture of ["api-json", "csv", "compiler"])
      expect(results.find((r) => r.fixture === fixture)?.calls.length, fixture).toBe(1);
  }, 60_000);

  it("marks a task wrong when its answer differs from the generator's ground truth", async () => {
    const [task] = RETRIEVAL_TASKS;
    const wrong = { ...task!, solve: async () => "tests/test_b000.py::test_0000\nassert True" };
    const [result] = await runRetrieval(rows, [wrong]);
    expect(result?.correct).toBe(false);
  });
});
