/**
 * A tiny run of each `spool bench` (not a measurement: 4 MiB, one round) to check the
 * commands work end to end and `--report` writes its three files.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const SPOOL = fileURLToPath(new URL("../packages/cli/bin/spool.js", import.meta.url));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "spool-bench-smoke-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function bench(...args: string[]) {
  const report = path.join(dir, "report");
  const r = spawnSync(
    process.execPath,
    [SPOOL, "bench", ...args, "--report", report, "--work", dir],
    {
      encoding: "utf8",
    },
  );
  const json = JSON.parse(readFileSync(path.join(report, "bench.json"), "utf8")) as {
    rows: Array<Record<string, unknown>>;
    tables?: Array<{ rows: Array<Record<string, unknown>> }>;
    targets: Array<{ name: string; met: boolean | null }>;
  };
  return {
    status: r.status,
    stdout: r.stdout,
    json,
    md: readFileSync(path.join(report, "bench.md"), "utf8"),
    svg: readFileSync(path.join(report, "bench.svg"), "utf8"),
  };
}

describe("spool bench (smoke)", () => {
  it("throughput measures every variant and writes bench.json, bench.md and bench.svg", () => {
    const r = bench("throughput", "--size", "4MiB", "--rounds", "1");
    expect(r.status).toBe(0);
    expect(r.json.rows.map((row) => row.id)).toEqual([
      "direct",
      "tee",
      "node-plain",
      "node-read",
      "node-sha256",
      "node-replacestream",
      "spool-redact",
      "spool-run",
      "spool-no-redact",
      "spool-run-quiet",
      "spool-no-redact-quiet",
      "cat-pty",
      "spool-live-pty",
    ]);
    for (const row of r.json.rows) expect(row.mibPerS as number).toBeGreaterThan(0);
    // The spool variants' receipts say every byte was captured.
    expect(r.json.rows.filter((row) => row.complete !== null).map((row) => row.complete)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(r.md).toContain("| spool run --no-redact |");
    // Redacting's own CPU against --no-redact, on both texts, as ratios with a bar.
    const ratios = r.json.targets.filter(
      (t) => String(t.name).includes("vs --no-redact") || String(t.name).includes("1% credential"),
    );
    expect(ratios.map((t) => t.target)).toEqual(["≤ 2.5×", "≤ 2.5×"]);
    for (const t of ratios) expect(String(t.value)).toMatch(/^\d+\.\d\d×$/);
    // Every Node baseline and spool report their own CPU, and the floor note quotes them.
    for (const row of r.json.rows.filter((row) => String(row.id).match(/^(node|spool)-/)))
      expect(row.ownCpuSPerGiB as number).toBeGreaterThan(0);
    expect(r.md).toMatch(/Floor in this run.*dropping the bytes \d+\.\d+ s.*writing \d+\.\d+ s\./);
    // The per-stage CPU table names every part of the byte path, each with a figure.
    const stages = r.json.tables?.[0]?.rows ?? [];
    expect(stages.map((row) => row.stage)).toEqual([
      "decoder",
      "ansi-strip",
      "redactor",
      "redactor, 1% credential lines",
      "redactor, dense credentials",
      "preview-tap",
      "ledger",
      "writer-queue",
      "writer write",
      "writer sha256",
      "writer line index",
    ]);
    for (const row of stages) expect(row.cpuSPerGiB as number).toBeGreaterThanOrEqual(0);
    // The redactor rows say where its scan stopped: the more credentials, the more stops.
    const [log, quiet, dense] = stages.filter((row) => String(row.stage).startsWith("redactor"));
    expect(quiet?.filterStops as number).toBeGreaterThan(0);
    expect(log?.anchorStarts as number).toBeGreaterThan(quiet?.anchorStarts as number);
    expect(dense?.anchorStarts as number).toBeGreaterThan(log?.anchorStarts as number);
    expect(r.stdout).toBe(r.md);
    expect(r.svg.startsWith("<svg")).toBe(true);
    expect(r.svg).toContain("child → file (no Node)");
  });

  it("memory and startup run and report their targets", () => {
    const m = bench("memory", "--size", "4MiB", "--rounds", "1");
    expect(m.status).toBe(0);
    expect(m.json.rows).toHaveLength(5);
    expect(m.json.targets.map((t) => t.met)).not.toContain(null);
    const s = bench("startup", "--rounds", "1");
    expect(s.status).toBe(0);
    expect(s.json.rows.map((row) => row.id)).toEqual(["node", "spool", "redact-file"]);
    expect(s.json.targets.map((t) => t.met)).not.toContain(null);
  });

  it("redact sets 1,000 known secrets against 10 in its targets", () => {
    const r = bench("redact", "--size", "1MiB");
    expect(r.status).toBe(0);
    expect(r.json.rows.map((row) => row.secrets)).toEqual([10, 1000]);
    const names = r.json.targets.map((t) => t.name);
    expect(names).toContain("1000 secrets: spool MB/s vs 10 secrets");
    expect(r.json.targets.map((t) => t.met)).not.toContain(null);
  });

  it("binary measures --binary text next to keep and reports the ratio", () => {
    const r = bench("binary", "--size", "1MiB", "--rounds", "1");
    expect(r.json.rows.map((row) => row.mode)).toEqual(["--binary keep", "--binary text"]);
    for (const row of r.json.rows) expect(row.bestCpuS as number).toBeGreaterThan(0);
    expect(r.md).toContain("--binary text over --binary keep (CPU)");
  });

  it("an unknown bench is a usage error (64)", () => {
    const r = spawnSync(process.execPath, [SPOOL, "bench", "frobnicate"], { encoding: "utf8" });
    expect(r.status).toBe(64);
    expect(r.stderr).toContain('unknown bench "frobnicate"');
  });
});
