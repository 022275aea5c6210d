/**
 * A tiny run of `spool bench serve` (not a measurement: 2 MiB download, 1 MiB load job, one
 * round) to check it works end to end: every download byte-identical, no load errors, every
 * follower exact, the server's RSS reported, cat > /dev/null the first row, and `--report`
 * written. Loopback only.
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
    expect(load["range requests answered while the job was live"]).toBeGreaterThanOrEqual(0);
    const variants = json.rows.map((row: { variant: string }) => row.variant);
    expect(variants[0]).toBe("cat FILE > /dev/null (the baseline)");
    expect(json.runs[0].serveMs).toBeGreaterThan(0);
    expect(json.runs[0].catCpuMs).toBeGreaterThanOrEqual(0);
  }, 300_000);
});
