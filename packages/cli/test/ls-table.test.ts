/**
 * `spool ls` at a terminal: the relative times of its STARTED column, at every boundary
 * (the end-to-end test in `test/terminal.test.ts` accepts any of them, as a loaded machine
 * may take seconds between a capture and its listing).
 */
import { describe, expect, it } from "vitest";
import { ago } from "../src/ls-table.js";

describe("ls table: relative times", () => {
  it.each([
    [-1000, "just now"],
    [0, "just now"],
    [4999, "just now"],
    [5000, "5s ago"],
    [59_999, "59s ago"],
    [60_000, "1m ago"],
    [3_599_999, "59m ago"],
    [3_600_000, "1h ago"],
    [86_399_999, "23h ago"],
    [86_400_000, "1d ago"],
    [10 * 86_400_000, "10d ago"],
  ] as const)("%d ms is %s", (ms, text) => {
    expect(ago(ms)).toBe(text);
  });
});
