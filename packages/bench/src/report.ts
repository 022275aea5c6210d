/**
 * A benchmark's results and how they are written: `bench.json` (everything measured),
 * `bench.md` (the table and the targets, for a person) and `bench.svg` (a bar chart).
 *
 * @example
 * ```ts
 * import { writeReport } from "./report.js";
 * await writeReport("/tmp/report", report);
 * ```
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import * as path from "node:path";
import { barChartSvg } from "./svg-chart.js";

export type Cell = string | number | boolean | null;

export interface TargetResult {
  readonly name: string;
  /** The target as stated, e.g. "≥ 0.8× node-plain". */
  readonly target: string;
  /** The measured figure, as text. */
  readonly value: string;
  /** Whether it is met; null when it could not be measured. */
  readonly met: boolean | null;
}

/** A further table of a report, shown under its own heading after the main one. */
export interface ReportTable {
  readonly title: string;
  readonly columns: readonly { key: string; label: string }[];
  readonly rows: readonly Record<string, Cell>[];
}

export interface BenchReport {
  readonly bench: string;
  readonly title: string;
  readonly machine: { cpus: number; cpuModel: string; node: string; platform: string };
  readonly params: Record<string, Cell>;
  readonly columns: readonly { key: string; label: string }[];
  readonly rows: readonly Record<string, Cell>[];
  /** Further tables (e.g. the fixtures bench's retrieval tasks), after the main one. */
  readonly tables?: readonly ReportTable[];
  readonly targets: readonly TargetResult[];
  readonly chart: {
    title: string;
    unit: string;
    bars: { label: string; value: number; note: string }[];
  };
  /** Every single run, for anyone who distrusts medians. */
  readonly runs: readonly Record<string, Cell>[];
  readonly notes: readonly string[];
}

export function machine(): BenchReport["machine"] {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model ?? "unknown",
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}

/** Write bench.json, bench.md and bench.svg into `dir` (created if missing). */
export function writeReport(dir: string, report: BenchReport): string[] {
  mkdirSync(dir, { recursive: true });
  const files = {
    "bench.json": `${JSON.stringify(report, null, 2)}\n`,
    "bench.md": renderMarkdown(report),
    "bench.svg": barChartSvg(report.chart),
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return Object.keys(files).map((name) => path.join(dir, name));
}

/** The report as Markdown (also what the command prints). */
export function renderMarkdown(r: BenchReport): string {
  const lines = [`# ${r.title}`, ""];
  lines.push(
    `Machine: ${r.machine.cpus} × ${r.machine.cpuModel}, Node ${r.machine.node}, ${r.machine.platform}. ` +
      `Parameters: ${Object.entries(r.params)
        .map(([k, v]) => `${k}=${v}`)
        .join(", ")}.`,
    "",
  );
  lines.push(...renderTable(r.columns, r.rows));
  for (const table of r.tables ?? [])
    lines.push("", `## ${table.title}`, "", ...renderTable(table.columns, table.rows));
  if (r.targets.length > 0) {
    lines.push("", "| target | wanted | measured | met |", "| --- | --- | --- | --- |");
    for (const t of r.targets)
      lines.push(
        `| ${t.name} | ${t.target} | ${t.value} | ${t.met === null ? (t.value === "–" ? "not measured" : "–") : t.met ? "yes" : "**no**"} |`,
      );
  }
  if (r.notes.length > 0) lines.push("", ...r.notes.map((n) => `- ${n}`));
  return `${lines.join("\n")}\n`;
}

function renderTable(columns: BenchReport["columns"], rows: BenchReport["rows"]): string[] {
  return [
    `| ${columns.map((c) => c.label).join(" | ")} |`,
    `| ${columns.map(() => "---").join(" | ")} |`,
    ...rows.map((row) => `| ${columns.map((c) => fmt(row[c.key] ?? null)).join(" | ")} |`),
  ];
}

function fmt(v: Cell): string {
  if (v === null) return "–";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : v.toFixed(2);
  return String(v).replace(/\|/g, "\\|");
}

/** Print the report (Markdown) and, when asked, write its files; the command's exit status. */
export function emitReport(
  io: { stdout(text: string): void; stderr(text: string): void },
  reportDir: string | null,
  report: BenchReport,
): number {
  io.stdout(renderMarkdown(report));
  if (reportDir) for (const f of writeReport(reportDir, report)) io.stderr(`wrote ${f}\n`);
  return 0;
}
