/**
 * The seed's retrieval tasks, done the way an agent would: starting from the inline
 * result of `spool run` (the preview and the status line with its refs), then only
 * through the real `spool` CLI. Each task records whether its answer matches the ground
 * truth computed from the fixture generators, how many extra CLI calls it took, how many
 * bytes of CLI output the agent had to read, and the time to the useful answer.
 *
 * @example
 * ```ts
 * import { benchFixtures } from "./fixtures.js";
 * import { runRetrieval } from "./retrieval.js";
 * const { rows, root } = await benchFixtures();
 * const results = await runRetrieval(rows);
 * ```
 */
import { SpoolError } from "@spool/core";
import {
  apiJson,
  COMPILER_FIRST_ERROR,
  compilerFailure,
  csv,
  FAILING_ASSERTION,
  FAILING_TEST,
  hugeLine,
} from "./fixture-data.js";
import { measure } from "./measure.js";
import { spoolArgv } from "./programs.js";

/** What a task starts from: one fixture's `spool run`, as an agent received it. */
export interface RetrievalInput {
  readonly name: string;
  /** The root the fixture was captured in. */
  readonly root: string;
  /** What an agent saw: the inline result of `spool run` (preview, then the status line). */
  readonly inline: string;
  /** The refs of the saved streams, from the `spool run --json` receipt (null: not saved). */
  readonly refs: { readonly stdout: string | null; readonly stderr: string | null };
  /** Wall time of that `spool run`. */
  readonly wallMs: number;
}

/** What a task may do beyond reading the inline result: call `spool ARGS`, and read its output. */
export interface AgentCli {
  spool(args: readonly string[]): Promise<string>;
}

export interface RetrievalTask {
  readonly name: string;
  /** The fixture whose inline result the task starts from. */
  readonly fixture: string;
  readonly question: string;
  /** The answer, from the inline text, the receipt's refs and CLI calls only. */
  solve(inline: string, cli: AgentCli, refs: RetrievalInput["refs"]): Promise<string>;
  /** The ground truth, from the fixture's generator. */
  expected(): string;
}

export interface RetrievalResult {
  readonly task: string;
  readonly fixture: string;
  readonly question: string;
  readonly correct: boolean;
  readonly answer: string;
  /** The extra `spool` invocations, as typed (without `--root`). */
  readonly calls: readonly string[];
  /** Bytes of CLI output (stdout + stderr) the agent read beyond the inline result. */
  readonly contextBytes: number;
  /** Wall time of the extra calls. */
  readonly extraMs: number;
  /** `spool run` wall time plus the extra calls: from starting the command to the answer. */
  readonly answerMs: number;
}

/** The issue's limits per task. */
export const RETRIEVAL_LIMITS = { calls: 2, contextBytes: 4096 } as const;

/** The object with this id is what the API JSON task fetches. */
export const API_ID = 7341;
/** CSV data rows 15,000–15,010; the header is line 1, so row N is line N + 1. */
export const CSV_ROWS = { first: 15_000, last: 15_010 } as const;
const TAIL_BYTES = 100;

export const RETRIEVAL_TASKS: readonly RetrievalTask[] = [
  {
    name: "failing test + assertion",
    fixture: "pytest",
    question: "Which test failed, and on which assertion?",
    // The failure summary is at the end of pytest's output: the preview's tail holds it.
    async solve(inline) {
      const name = /^FAILED (\S+) - /m.exec(inline)?.[1];
      const assertion = /^>\s+(.*)$/m.exec(inline)?.[1];
      return `${name ?? "?"}\n${assertion ?? "?"}`;
    },
    expected: () => `${FAILING_TEST}\n${FAILING_ASSERTION}`,
  },
  {
    name: `object with id ${API_ID}`,
    fixture: "api-json",
    question: `What is the object with id ${API_ID}?`,
    // One line of ~400 KB: match the object itself; `-o` prints just it and its byte offset.
    async solve(_inline, cli, refs) {
      const out = await cli.spool([
        "grep",
        streamRef(refs, "stdout"),
        `\\{"id":${API_ID},[^}]*\\}`,
        "-o",
        "--max",
        "1",
      ]);
      return /^\d+:\d+:(.*)$/m.exec(out)?.[1] ?? "?";
    },
    expected: () => {
      const text = apiJson();
      const at = text.indexOf(`{"id":${API_ID},`);
      return text.slice(at, text.indexOf("}", at) + 1);
    },
  },
  {
    name: `rows ${CSV_ROWS.first}–${CSV_ROWS.last}`,
    fixture: "csv",
    question: `What are data rows ${CSV_ROWS.first} to ${CSV_ROWS.last}?`,
    // The preview's head shows the header on line 1, so data row N is line N + 1.
    async solve(_inline, cli, refs) {
      return cli.spool([
        "read",
        streamRef(refs, "stdout"),
        "--lines",
        `${CSV_ROWS.first + 1}:${CSV_ROWS.last + 1}`,
      ]);
    },
    expected: () => {
      const lines = csv().split("\n");
      return `${lines.slice(CSV_ROWS.first, CSV_ROWS.last + 1).join("\n")}\n`;
    },
  },
  {
    name: "first compiler error",
    fixture: "compiler",
    question: "Where is the first compiler error (file:line:col) and what does it say?",
    // The preview shows the last error; the first one is deep in stderr.
    async solve(_inline, cli, refs) {
      const out = await cli.spool(["grep", streamRef(refs, "stderr"), ": error: ", "--max", "1"]);
      const m = /^(\d+):\d+:(.*)$/m.exec(out);
      return m ? `stderr line ${m[1]}: ${m[2]}` : "?";
    },
    expected: () => {
      const lines = compilerFailure().split("\n");
      const at = lines.findIndex((l) => l.includes(": error: "));
      if (lines[at] !== COMPILER_FIRST_ERROR)
        throw new SpoolError("SPOOL_E_STATE", "bench", "compiler fixture lost its first error");
      return `stderr line ${at + 1}: ${COMPILER_FIRST_ERROR}`;
    },
  },
  {
    name: `huge line's last ${TAIL_BYTES} bytes`,
    fixture: "huge-line",
    question: `What are the last ${TAIL_BYTES} bytes of the 2 MiB line?`,
    // The preview's tail is the stream's end (no stderr here), so the bytes are inline.
    async solve(inline) {
      const body = Buffer.from(inline.slice(0, inline.lastIndexOf("[spool] ")));
      return body.subarray(body.length - TAIL_BYTES).toString("utf8");
    },
    expected: () => {
      const bytes = Buffer.from(hugeLine());
      return bytes.subarray(bytes.length - TAIL_BYTES).toString("utf8");
    },
  },
];

/** Run every task against the fixture rows' inline results (their root must still exist). */
export async function runRetrieval(
  rows: readonly RetrievalInput[],
  tasks: readonly RetrievalTask[] = RETRIEVAL_TASKS,
  invoke: Invoke = invokeCli,
): Promise<RetrievalResult[]> {
  const results: RetrievalResult[] = [];
  for (const task of tasks) {
    const row = rows.find((r) => r.name === task.fixture);
    if (!row) throw new SpoolError("SPOOL_E_STATE", "bench", `no fixture run for ${task.fixture}`);
    const calls: string[] = [];
    let contextBytes = 0;
    let extraMs = 0;
    const cli: AgentCli = {
      async spool(args) {
        calls.push(`spool ${args.map(quote).join(" ")}`);
        const r = await invoke(row, args);
        contextBytes += r.bytes;
        extraMs += r.ms;
        return r.text;
      },
    };
    // A task that cannot proceed (no ref in the status line) is a wrong answer, not a crash.
    const answer = await task
      .solve(row.inline, cli, row.refs)
      .catch((error: unknown) =>
        error instanceof SpoolError ? `error: ${error.message}` : Promise.reject(error),
      );
    results.push({
      task: task.name,
      fixture: task.fixture,
      question: task.question,
      correct: answer === task.expected(),
      answer,
      calls,
      contextBytes,
      extraMs: Math.round(extraMs),
      answerMs: Math.round(row.wallMs + extraMs),
    });
  }
  return results;
}

/** How a task's call reaches spool: what it read, how many bytes, how long it took. */
export type Invoke = (
  row: RetrievalInput,
  args: readonly string[],
) => Promise<{ text: string; bytes: number; ms: number }>;

/** A call through the CLI: `spool ARGS --root ROOT`, its stdout and stderr read. */
async function invokeCli(row: RetrievalInput, args: readonly string[]) {
  const argv = [args[0] ?? "", "--root", row.root, ...args.slice(1)];
  const r = await measure(spoolArgv(argv), { output: "pipe", gnuTime: false });
  return {
    text: r.stdout.toString("utf8") + r.stderr.toString("utf8"),
    bytes: r.stdout.length + r.stderr.length,
    ms: r.wallMs,
  };
}

/** The receipt's ref of a stream; a task that needs a file the receipt does not name fails. */
export function streamRef(refs: RetrievalInput["refs"], stream: "stdout" | "stderr"): string {
  const ref = refs[stream];
  if (ref === null)
    throw new SpoolError("SPOOL_E_STATE", "bench", `the receipt names no ${stream} ref`);
  return ref;
}

const quote = (s: string) => (/^[\w./:=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
