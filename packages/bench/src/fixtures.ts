/**
 * `spool bench fixtures`: the seed's evidence table reproduced end to end. Each fixture
 * runs as a real child through the real `spool run`; we measure what an agent sees
 * inline and whether what was saved is exact, next to the seed's two columns.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ReceiptSchema } from "@spool/core";
import { type BenchIo, type BenchOptions, benchContext } from "./context.js";
import { FIXTURES, type Fixture } from "./fixture-data.js";
import { measure } from "./measure.js";
import { FIXTURE_CHILD, spoolArgv } from "./programs.js";
import {
  type BenchReport,
  type Cell,
  emitReport,
  machine,
  type ReportTable,
  type TargetResult,
} from "./report.js";
import type { RetrievalInput } from "./retrieval.js";
import { RETRIEVAL_LIMITS, type RetrievalResult, runRetrieval } from "./retrieval.js";

export interface FixtureRow extends RetrievalInput {
  name: string;
  title: string;
  inputBytes: number;
  inlineBytes: number;
  inlineTokens: number;
  savedBytes: number;
  /** Every nonempty stream is exact in its saved file or whole inline. */
  exact: boolean;
  /** Small result: inline, byte-identical, and no file written. */
  inlineOnly: boolean;
  exitVisible: boolean;
  finalErrorVisible: boolean | null;
  wallMs: number;
  maxRssKiB: number | null;
  seed: Fixture["seed"];
  captureId: string;
}

const sha = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");

/** `spool ARGS`, its output kept, its own peak RSS and CPU as it reports them. */
const measureSpool = (args: readonly string[]) =>
  measure(spoolArgv(args), { output: "pipe", gnuTime: false });

export async function runFixture(fixture: Fixture, root: string): Promise<FixtureRow> {
  const inline = await measureSpool([
    "run",
    "--root",
    root,
    "--",
    process.execPath,
    FIXTURE_CHILD,
    fixture.name,
  ]);
  const json = await measureSpool([
    "run",
    "--root",
    root,
    "--json",
    "--",
    process.execPath,
    FIXTURE_CHILD,
    fixture.name,
  ]);
  const receipt = ReceiptSchema.parse(JSON.parse(json.stdout.toString()));
  const text = inline.stdout.toString();
  const expected = { stdout: fixture.stdout(), stderr: fixture.stderr() };
  let savedBytes = 0;
  let exact = true;
  for (const name of ["stdout", "stderr"] as const) {
    const s = receipt.streams[name];
    if (s.ref) {
      const saved = readFileSync(path.join(root, s.ref));
      savedBytes += saved.length;
      exact &&= sha(saved) === sha(expected[name]) && s.sha256 === sha(expected[name]);
    } else {
      exact &&=
        receipt.preview.state === "complete" && s.produced === Buffer.byteLength(expected[name]);
    }
  }
  const inputBytes = Buffer.byteLength(expected.stdout) + Buffer.byteLength(expected.stderr);
  const inlineId = / id ([\w-]{24})\n$/.exec(text)?.[1] ?? "";
  const noDir = (id: string) => id !== "" && !existsSync(path.join(root, "tool-outputs", id));
  const inlineOnly =
    receipt.streams.stdout.ref === null &&
    receipt.streams.stderr.ref === null &&
    text.startsWith(expected.stdout + expected.stderr) &&
    noDir(receipt.captureId) &&
    noDir(inlineId);
  return {
    name: fixture.name,
    title: fixture.title,
    inputBytes,
    inlineBytes: inline.stdout.length,
    inlineTokens: Math.round([...text].length / 4),
    savedBytes,
    exact,
    inlineOnly,
    exitVisible: inline.exitCode === fixture.exitCode && text.includes(`exit ${fixture.exitCode}`),
    finalErrorVisible: fixture.finalError === null ? null : text.includes(fixture.finalError),
    wallMs: Math.round(inline.wallMs),
    maxRssKiB: inline.self?.maxRssKiB ?? null,
    seed: fixture.seed,
    inline: text,
    refs: { stdout: receipt.streams.stdout.ref, stderr: receipt.streams.stderr.ref },
    captureId: receipt.captureId,
    root,
  };
}

export async function benchFixtures(): Promise<{ rows: FixtureRow[]; root: string }> {
  const root = mkdtempSync(path.join(tmpdir(), "spool-fixtures-"));
  const rows: FixtureRow[] = [];
  for (const fixture of FIXTURES) rows.push(await runFixture(fixture, root));
  return { rows, root };
}

/** The rows as a report beside the seed's two columns, the retrieval tasks, and the targets. */
export function fixturesReport(
  rows: readonly FixtureRow[],
  retrieval: readonly RetrievalResult[],
): BenchReport {
  return {
    bench: "fixtures",
    title: "spool bench fixtures: the seed's evidence table, end to end through spool run",
    machine: machine(),
    params: { fixtures: rows.length },
    columns: [
      { key: "title", label: "fixture" },
      { key: "inputBytes", label: "input bytes" },
      { key: "seedCurrent", label: "gptme current inline" },
      { key: "seedCandidate", label: "seed candidate inline" },
      { key: "inlineBytes", label: "spool inline bytes" },
      { key: "inlineTokens", label: "~tokens" },
      { key: "savedBytes", label: "saved bytes" },
      { key: "exact", label: "exact" },
      { key: "visible", label: "exit + final error inline" },
      { key: "wallMs", label: "wall ms" },
      { key: "peakRssMiB", label: "peak RSS MiB" },
    ],
    rows: rows.map(fixtureCells),
    tables: [retrievalTable(retrieval)],
    targets: fixtureTargets(rows, retrieval),
    chart: {
      title: "Inline bytes an agent reads (lower is better)",
      unit: "bytes",
      bars: rows.flatMap((r) => [
        { label: `${r.name}: gptme current`, value: r.seed.current, note: "seed" },
        { label: `${r.name}: spool`, value: r.inlineBytes, note: "" },
      ]),
    },
    runs: retrieval.map((t) => ({
      task: t.task,
      question: t.question,
      answer: t.answer,
      correct: t.correct,
      calls: t.calls.join("\n"),
      contextBytes: t.contextBytes,
      extraMs: t.extraMs,
      answerMs: t.answerMs,
    })),
    notes: [
      "gptme figures are the seed's single local sample; spool's are measured in this run.",
      "Retrieval: each task starts from the inline result of `spool run` (preview + status line with refs) and uses only `spool` commands; extra context is every byte those commands printed; correctness is checked against the fixture generators.",
    ],
  };
}

/** One fixture as a row of the evidence table. */
function fixtureCells(r: FixtureRow): Record<string, Cell> {
  return {
    title: r.title,
    inputBytes: r.inputBytes,
    seedCurrent: r.seed.current,
    seedCandidate: r.seed.candidate,
    inlineBytes: r.inlineBytes,
    inlineTokens: r.inlineTokens,
    savedBytes: r.savedBytes,
    exact: r.exact ? (r.inlineOnly ? "yes (inline, no file)" : "yes") : "no",
    visible: `${r.exitVisible ? "yes" : "no"}${r.finalErrorVisible === null ? "" : r.finalErrorVisible ? " + yes" : " + no"}`,
    wallMs: r.wallMs,
    peakRssMiB: r.maxRssKiB === null ? null : r.maxRssKiB / 1024,
  };
}

/** The retrieval tasks: what each needed beyond the inline result. */
function retrievalTable(retrieval: readonly RetrievalResult[]): ReportTable {
  return {
    title: "Retrieval tasks: from the inline result, then only through the spool CLI",
    columns: [
      { key: "task", label: "task" },
      { key: "fixture", label: "fixture" },
      { key: "correct", label: "correct" },
      { key: "calls", label: "extra calls" },
      { key: "contextBytes", label: "extra context bytes" },
      { key: "answerMs", label: "ms to answer (run + calls)" },
      { key: "how", label: "how" },
    ],
    rows: retrieval.map((t) => ({
      task: t.task,
      fixture: t.fixture,
      correct: t.correct ? "yes" : "no",
      calls: t.calls.length,
      contextBytes: t.contextBytes,
      answerMs: t.answerMs,
      how: t.calls.length === 0 ? "inline preview" : t.calls.map((c) => `\`${c}\``).join("; "),
    })),
  };
}

/** The targets, each measured over every fixture or task. */
function fixtureTargets(
  rows: readonly FixtureRow[],
  retrieval: readonly RetrievalResult[],
): TargetResult[] {
  const large = rows.filter((r) => r.name !== "compact");
  const compact = rows.find((r) => r.name === "compact");
  return [
    {
      name: "inline bytes of every large fixture",
      target: "≤ 10,240",
      value: `max ${Math.max(...large.map((r) => r.inlineBytes))}`,
      met: large.every((r) => r.inlineBytes <= 10_240),
    },
    {
      name: "compact success inline, byte-identical, no file",
      target: "yes",
      value: compact?.inlineOnly ? "yes" : "no",
      met: compact?.inlineOnly === true,
    },
    {
      name: "every saved file exact",
      target: "yes",
      value: rows.every((r) => r.exact) ? "yes" : "no",
      met: rows.every((r) => r.exact),
    },
    {
      name: "exit code and final error visible inline",
      target: "yes",
      value: rows.every((r) => r.exitVisible && r.finalErrorVisible !== false) ? "yes" : "no",
      met: rows.every((r) => r.exitVisible && r.finalErrorVisible !== false),
    },
    {
      name: "every retrieval task correct",
      target: "yes",
      value: `${retrieval.filter((t) => t.correct).length}/${retrieval.length}`,
      met: retrieval.length > 0 && retrieval.every((t) => t.correct),
    },
    {
      name: "extra CLI calls per retrieval task",
      target: `≤ ${RETRIEVAL_LIMITS.calls}`,
      value: `max ${Math.max(0, ...retrieval.map((t) => t.calls.length))}`,
      met: retrieval.every((t) => t.calls.length <= RETRIEVAL_LIMITS.calls),
    },
    {
      name: "extra context per retrieval task",
      target: `≤ ${RETRIEVAL_LIMITS.contextBytes} bytes`,
      value: `max ${Math.max(0, ...retrieval.map((t) => t.contextBytes))}`,
      met: retrieval.every((t) => t.contextBytes <= RETRIEVAL_LIMITS.contextBytes),
    },
  ];
}

/** `spool bench fixtures [--report DIR]`. */
export async function benchFixturesCommand(options: BenchOptions, io: BenchIo): Promise<number> {
  const c = benchContext(options);
  const { rows, root } = await benchFixtures();
  try {
    const report = fixturesReport(rows, await runRetrieval(rows));
    return emitReport(io, c.reportDir, report);
  } finally {
    removeRoot(root);
    c.dispose();
  }
}

// Keep the root for retrieval tasks; callers remove it.
export const removeRoot = (root: string) => rmSync(root, { recursive: true, force: true });
