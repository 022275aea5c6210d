/**
 * 20 `spool run` processes at once against one 16 MiB root allowance: the reservations
 * (file lock + reservation files) keep the total retained at or under 16 MiB, and each
 * receipt accounts for what it kept and what it dropped.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ReceiptSchema } from "@spool/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSpool } from "./fixtures/cli.js";
import { GEN, pattern } from "./fixtures/pattern.js";

const MiB = 1024 * 1024;
const CAPTURES = 20;
const EACH = 2 * MiB; // 40 MiB asked for in all
let root: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "spool-rootquota-"));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("per-root allowance across processes", () => {
  it(`${CAPTURES} concurrent captures against 16 MiB`, async () => {
    const results = await Promise.all(
      Array.from({ length: CAPTURES }, () =>
        runSpool([
          "run",
          "--json",
          "--root",
          root,
          "--root-quota",
          "16MiB",
          "--",
          process.execPath,
          GEN,
          String(EACH),
        ]),
      ),
    );
    const truth = pattern(EACH);
    let retained = 0;
    let refused = 0;
    for (const r of results) {
      expect(r.code).toBe(0); // the allowance never changes the exit status
      const receipt = ReceiptSchema.parse(JSON.parse(r.stdout));
      const out = receipt.streams.stdout;
      expect(out.raw.observed).toBe(EACH); // drained whole
      expect(out.produced).toBe(EACH);
      const onDisk = fs.readFileSync(out.path!);
      expect(onDisk.byteLength).toBe(out.committed);
      expect(onDisk.equals(truth.subarray(0, out.committed))).toBe(true);
      expect(out.retained).toEqual({ start: 0, end: out.committed });
      if (out.committed < out.produced) {
        refused++;
        // Nothing kept at all is `failed` (capture.ts's rule); anything kept is `partial`.
        expect(receipt.capture).toEqual({
          state: out.committed === 0 ? "failed" : "partial",
          reasons: ["root-quota"],
        });
      } else {
        expect(receipt.capture).toEqual({ state: "complete", reasons: [] });
      }
      retained += out.committed + receipt.streams.stderr.committed;
    }
    expect(retained).toBeLessThanOrEqual(16 * MiB);
    expect(refused).toBeGreaterThan(0);
    // The books agree with the files: every reservation settled to what its capture kept.
    const books = fs
      .readdirSync(path.join(root, ".spool-quota"))
      .filter((n) => n.endsWith(".json"))
      .map((n) => JSON.parse(fs.readFileSync(path.join(root, ".spool-quota", n), "utf8")));
    expect(books.every((b) => b.settled)).toBe(true);
    expect(books.reduce((sum, b) => sum + b.bytes, 0)).toBe(retained);
    // Exhausting the allowance deleted nothing: every capture directory is still there.
    expect(fs.readdirSync(path.join(root, "tool-outputs"))).toHaveLength(CAPTURES);
    console.info(
      `retained ${retained} of ${16 * MiB} bytes; ${refused} captures cut by root-quota`,
    );
  }, 120_000);
});
