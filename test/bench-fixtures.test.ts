import { FIXTURES } from "@spool/cli/bench/fixture-data";
import { benchFixtures, removeRoot } from "@spool/cli/bench/fixtures";
import { describe, expect, it } from "vitest";

describe("spool bench fixtures (the seed's evidence, end to end)", () => {
  it("keeps every large fixture's inline result ≤ 10,240 bytes, the compact one inline with no file, and every saved file exact", async () => {
    const { rows, root } = await benchFixtures();
    try {
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
    } finally {
      removeRoot(root);
    }
  });
});
