import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Receipt } from "@spool/core";
import { describe, expect, it } from "vitest";
import { spool } from "./helpers.js";

describe("persistence off (--no-spool, --max-bytes 0)", () => {
  for (const flag of [["--no-spool"], ["--max-bytes", "0"]]) {
    it(`${flag.join(" ")} prints the preview and a disabled receipt and creates nothing`, () => {
      const work = mkdtempSync(path.join(tmpdir(), "spool-nospool-"));
      const root = path.join(work, "root");
      try {
        const r = spool(["run", "--root", root, "--json", ...flag, "--", "seq", "1", "30000"]);
        expect(r.status, r.stderr.toString()).toBe(0);
        const receipt = JSON.parse(r.stdout.toString()) as Receipt;
        expect(receipt.capture).toEqual({ state: "disabled", reasons: [] });
        expect(receipt.preview.text).toContain("30000");
        expect(receipt.streams.stdout).toMatchObject({ committed: 0, ref: null });
        expect(existsSync(root)).toBe(false);
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    });
  }

  it("start refuses it: a job keeps its output in the spool", () => {
    const r = spool(["start", "--root", path.join(tmpdir(), "never"), "--no-spool", "--", "true"]);
    expect(r.status).toBe(64);
    expect(r.stderr.toString()).toMatch(/--no-spool/);
  });
});
