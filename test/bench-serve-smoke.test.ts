/**
 * A tiny run of `spool bench serve` (not a measurement: 2 MiB download, 1 MiB load job, one
 * round) to check it works end to end: every download byte-identical, no load errors, every
 * follower exact, the server's RSS reported, the hashed pair (one sha256 consumer fed by
 * cat and by the GET) the first rows with both ratios per round, and `--report` written.
 * Loopback only.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SPOOL_BIN } from "./helpers.js";

const dir = mkdtempSync(path.join(tmpdir(), "spool-bench-serve-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("spool bench serve (smoke)", () => {
  it("downloads byte-identically and serves 200 readers + 20 followers without an error", () => {
    const report = path.join(dir, "report");
    const r = spawnSync(
      process.execPath,
      [
        SPOOL_BIN,
        "bench",
        "serve",
        "--size",
        "2MiB",
        "--load-size",
        "1MiB",
        "--rounds",
        "1",
        "--report",
        report,
        "--work",
        dir,
      ],
      { encoding: "utf8", timeout: 240_000 },
    );
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(readFileSync(path.join(report, "bench.json"), "utf8"));
    const met = Object.fromEntries(
      json.targets.map((t: { name: string; met: boolean }) => [t.name, t.met]),
    );
    expect(met["download identical"]).toBe(true);
    expect(met["load errors"]).toBe(true);
    expect(met["followers exact"]).toBe(true);
    const load = Object.fromEntries(
      json.tables[0].rows.map((row: { what: string; value: unknown }) => [row.what, row.value]),
    );
    expect(load["range requests"]).toBe(4000);
    expect(load["server peak RSS during the load (MiB, VmHWM reset before it)"]).toBeGreaterThan(0);
    expect(load["server RSS, highest 100 ms sample during the load (MiB)"]).toBeGreaterThan(0);
    expect(load["server RSS, median 100 ms sample during the load (MiB)"]).toBeGreaterThan(0);
    expect(load["range requests answered while the job was live"]).toBeGreaterThanOrEqual(0);
    const variants = json.rows.map((row: { variant: string }) => row.variant);
    expect(variants[0]).toBe("cat FILE | sha256 consumer (the baseline)");
    expect(variants[1]).toMatch(/^GET from spool serve \| the same sha256 consumer/);
    expect(variants).toContain("cat FILE > /dev/null (no consumer; for transparency)");
    expect(json.targets[0].target).toBe("≥ 0.5× cat FILE | the same sha256 consumer");
    expect(json.runs[0].ratio).toBeGreaterThan(0);
    expect(json.runs[0].rawRatio).toBeGreaterThan(0);
    expect(json.notes.some((n: string) => n.startsWith("Load average (1 min)"))).toBe(true);
    expect(json.runs[0].serveMs).toBeGreaterThan(0);
    expect(json.runs[0].catCpuMs).toBeGreaterThanOrEqual(0);
  }, 300_000);
});
