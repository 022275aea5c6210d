/**
 * The one definition of every `spool` command: name, summary, usage, and typed options
 * with their ranges and defaults. The parser, `spool help`, `spool help CMD`,
 * `spool CMD --help` and docs/cli.md (`scripts/cli-docs.mjs`) all read these. Plain data
 * with no schema library: `spool run` loads it at every start.
 */
import { DEFAULT_PREVIEW_BUDGET } from "@spool/core/runtime";
import { DEFAULT_MAX_BYTES, DEFAULT_ROOT_QUOTA, WRITER_QUEUE_DEFAULTS } from "@spool/sinks/runtime";
import { type CommandDefinition, defineCommand, MAX_TIMER_MS, type OptionsOf } from "./args.js";

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;
const TiB = 1024 * GiB;

/** Most characters a preview may keep of one stream (its tap holds 4 bytes per char). */
export const MAX_PREVIEW_CHARS = MiB;
/** Most bytes of the whole preview. */
export const MAX_PREVIEW_BYTES = 4 * MiB;
/** Least bytes of the whole preview (room for the markers and the refs). */
export const MIN_PREVIEW_BYTES = 256;
/** The writer queue's budget range. */
export const MIN_QUEUE_BYTES = 64 * KiB;
export const MAX_QUEUE_BYTES = 256 * MiB;
/** Largest retention budget (`--max-bytes`, `--root-quota`). */
export const MAX_STORED_BYTES = TiB;
/** How often a job's `live.json` may be replaced (only when it changed). */
export const DEFAULT_JOB_LIVE_MS = 50;

const root = {
  kind: "string",
  placeholder: "DIR",
  help: "the spool root (default $SPOOL_ROOT, else $XDG_STATE_HOME/spool/default, else ~/.local/state/spool/default)",
} as const;
const json = { kind: "flag", help: "print JSON" } as const;
const stream = {
  kind: "enum",
  choices: ["stdout", "stderr"],
  placeholder: "S",
  help: "the stream (default: the one REF names, else stdout)",
} as const;

/** Options of `run` and `start`: what is captured, how, and where. */
const CAPTURE_OPTIONS = {
  root,
  json: { kind: "flag", help: "print the receipt as JSON instead of the inline result" },
  "call-id": {
    kind: "string",
    placeholder: "ID",
    help: "your id for this call (1-128 of A-Z a-z 0-9 . _ : -); a REF for later commands",
  },
  label: {
    kind: "string",
    placeholder: "TEXT",
    help: "label stored in the receipt (default the command line, redacted, ≤ 200 chars)",
  },
  "no-label": { kind: "flag", help: "store no label" },
  timeout: {
    kind: "duration",
    unit: "s",
    min: 1,
    max: MAX_TIMER_MS,
    placeholder: "S",
    help: "cancel CMD after S seconds (default: no limit)",
  },
  "drain-ms": {
    kind: "duration",
    unit: "ms",
    min: 0,
    max: MAX_TIMER_MS,
    default: 1000,
    placeholder: "N",
    help: "after CMD exits, how long its pipes are still drained (kept open by its children)",
  },
  "max-bytes": {
    kind: "size",
    min: 0,
    max: MAX_STORED_BYTES,
    default: DEFAULT_MAX_BYTES,
    placeholder: "N",
    help: "most bytes this capture keeps on disk, both streams together (beyond: partial)",
  },
  "root-quota": {
    kind: "size",
    min: 0,
    max: MAX_STORED_BYTES,
    default: DEFAULT_ROOT_QUOTA,
    placeholder: "N",
    help: "most bytes kept under the root by all captures together",
  },
  "redact-env": {
    kind: "repeatable",
    placeholder: "NAME",
    help: "also redact the value of environment variable NAME (repeatable)",
  },
  "redact-file": {
    kind: "string",
    placeholder: "FILE",
    help: "also redact the values in FILE, one per line (blank lines skipped)",
  },
  "no-redact": { kind: "flag", help: "keep secrets as they are (no redaction at all)" },
  "keep-ansi": { kind: "flag", help: "keep ANSI escape sequences (default: stripped)" },
  binary: {
    kind: "enum",
    choices: ["text", "keep"],
    default: "text",
    placeholder: "MODE",
    help: "text: decode UTF-8 (invalid bytes become U+FFFD); keep: store raw bytes",
  },
  "preview-stdout": {
    kind: "int",
    min: 0,
    max: MAX_PREVIEW_CHARS,
    default: DEFAULT_PREVIEW_BUDGET.stdoutChars,
    placeholder: "N",
    help: "characters of stdout in the preview",
  },
  "preview-stderr": {
    kind: "int",
    min: 0,
    max: MAX_PREVIEW_CHARS,
    default: DEFAULT_PREVIEW_BUDGET.stderrChars,
    placeholder: "N",
    help: "characters of stderr in the preview",
  },
  "preview-bytes": {
    kind: "size",
    min: MIN_PREVIEW_BYTES,
    max: MAX_PREVIEW_BYTES,
    default: DEFAULT_PREVIEW_BUDGET.maxBytes,
    placeholder: "N",
    help: "most bytes of the whole preview",
  },
  "queue-bytes": {
    kind: "size",
    min: MIN_QUEUE_BYTES,
    max: MAX_QUEUE_BYTES,
    default: WRITER_QUEUE_DEFAULTS.budgetBytes,
    placeholder: "N",
    help: "most output held in memory on its way to disk",
  },
  "stall-ms": {
    kind: "duration",
    unit: "ms",
    min: 0,
    max: MAX_TIMER_MS,
    default: WRITER_QUEUE_DEFAULTS.stallMs,
    placeholder: "N",
    help: "how long a full queue waits on a disk writer making no progress before persistence stops (partial)",
  },
  log: {
    kind: "string",
    placeholder: "FILE|stderr",
    help: "log state changes (start, spill, finalize) as JSON lines (default $SPOOL_LOG)",
  },
  "live-ms": {
    kind: "duration",
    unit: "ms",
    min: 0,
    max: MAX_TIMER_MS,
    default: DEFAULT_JOB_LIVE_MS,
    placeholder: "N",
    help: "jobs: at most one live.json update every N ms",
  },
} as const;

export const RUN = defineCommand({
  name: "run",
  summary: "run CMD, capture its output, print the preview and status",
  usage: "[options] -- CMD [ARGS...]",
  description: [
    "Runs CMD with its stdout and stderr captured to private files under the root, then prints a bounded preview, the refs to the full output, and a status line; exits with CMD's exit status (126/127 when CMD cannot be run).",
  ],
  options: {
    ...CAPTURE_OPTIONS,
    "background-after": {
      kind: "duration",
      unit: "s",
      min: 1,
      max: MAX_TIMER_MS,
      placeholder: "S",
      help: "if CMD still runs after S seconds, print its live receipt and leave it running as a job",
    },
  },
});

const { timeout: _timeout, "live-ms": _liveMs, ...STDIN_CAPTURE_OPTIONS } = CAPTURE_OPTIONS;

export const CAPTURE = defineCommand({
  name: "capture",
  summary: "capture spool's own stdin, print the preview and status",
  usage: "[options] < INPUT",
  description: [
    "The capture of `spool run`, fed from standard input (`kubectl logs -f pod | spool capture --label pod`): the same receipt, preview, refs and read commands. Exits 0 once the input ends (1 if it failed, or is declared truncated).",
  ],
  options: {
    ...STDIN_CAPTURE_OPTIONS,
    declared: {
      kind: "enum",
      choices: ["complete", "truncated", "unknown"],
      default: "complete",
      placeholder: "D",
      help: "what the producer says of the input's completeness (truncated: never a complete capture)",
    },
  },
});

export const START = defineCommand({
  name: "start",
  summary: "start CMD as a background job, print its launch receipt",
  usage: "[options] -- CMD [ARGS...]",
  description: [
    "Starts CMD under a detached supervisor and prints its launch receipt as JSON at once (exit 0; 126/127 when CMD cannot be run). Follow the job with status, read, tail, grep, wait and kill.",
  ],
  options: CAPTURE_OPTIONS,
});

export const STATUS = defineCommand({
  name: "status",
  summary: "the current receipt (final, else live) as JSON",
  usage: "REF [options]",
  options: { root, json },
});

export const WAIT = defineCommand({
  name: "wait",
  summary: "wait for the job, print its final receipt, exit with its status",
  usage: "REF [options]",
  description: [
    "Exit 75 if the job is still running after --timeout; exit 70 if its owner died (the receipt is then partial, crash).",
  ],
  options: {
    root,
    json,
    timeout: {
      kind: "duration",
      unit: "s",
      min: 1,
      max: MAX_TIMER_MS,
      placeholder: "S",
      help: "give up after S seconds (default: no limit)",
    },
  },
});

export const READ = defineCommand({
  name: "read",
  summary: "committed bytes of a stream, never a split character",
  usage: "REF [options]",
  description: [
    "Without --json the bytes go to stdout as they are; with --json they are framed with offset, nextOffset, committed, running and eof (at most 4MiB unless --length says otherwise, at most 64MiB).",
  ],
  options: {
    root,
    json,
    stream,
    offset: {
      kind: "int",
      min: 0,
      max: Number.MAX_SAFE_INTEGER,
      placeholder: "N",
      help: "start at byte N (default 0)",
    },
    length: {
      kind: "size",
      min: 0,
      max: Number.MAX_SAFE_INTEGER,
      placeholder: "N",
      help: "read at most N bytes",
    },
    lines: { kind: "string", placeholder: "A:B", help: "lines A to B (1-based, inclusive)" },
    cursor: {
      kind: "string",
      placeholder: "NAME",
      help: "start where consumer NAME stopped, and advance its cursor",
    },
  },
});

export const TAIL = defineCommand({
  name: "tail",
  summary: "the last lines; --follow until the job ends",
  usage: "REF [options]",
  options: {
    root,
    lines: {
      kind: "int",
      min: 0,
      max: Number.MAX_SAFE_INTEGER,
      default: 10,
      short: "n",
      placeholder: "N",
      help: "how many lines",
    },
    follow: { kind: "flag", short: "f", help: "keep printing new lines until the job ends" },
    stream,
  },
});

export const GREP = defineCommand({
  name: "grep",
  summary: "matching lines as LINE:OFFSET:TEXT (offset for read --offset)",
  usage: "REF PATTERN [options]",
  description: ["PATTERN is a JavaScript regular expression."],
  options: {
    root,
    json,
    stream,
    max: {
      kind: "int",
      min: 0,
      max: Number.MAX_SAFE_INTEGER,
      default: 100,
      placeholder: "N",
      help: "stop after N matching lines",
    },
    "ignore-case": { kind: "flag", short: "i", help: "match case-insensitively" },
    "only-matching": { kind: "flag", short: "o", help: "print only the matched part" },
    "max-columns": {
      kind: "int",
      min: 0,
      max: Number.MAX_SAFE_INTEGER,
      default: 2048,
      placeholder: "N",
      help: "clip each printed line to N characters",
    },
    from: {
      kind: "int",
      min: 0,
      max: Number.MAX_SAFE_INTEGER,
      default: 0,
      placeholder: "N",
      help: "print only results at byte offset N or later (the next page of an earlier grep)",
    },
  },
});

export const KILL = defineCommand({
  name: "kill",
  summary: "cancel a job (its process group; SIGKILL after a grace period)",
  usage: "REF [options]",
  options: {
    root,
    signal: {
      kind: "enum",
      choices: [
        "SIGTERM",
        "TERM",
        "SIGINT",
        "INT",
        "SIGHUP",
        "HUP",
        "SIGQUIT",
        "QUIT",
        "SIGUSR1",
        "USR1",
        "SIGKILL",
        "KILL",
      ],
      default: "SIGTERM",
      short: "s",
      placeholder: "SIG",
      help: "the signal",
    },
  },
});

export const LS = defineCommand({
  name: "ls",
  summary: "list captures (reconciles crash leftovers first)",
  usage: "[options]",
  options: {
    root,
    json,
    unseen: {
      kind: "flag",
      help: "only ended jobs whose completion is undelivered, delivering it (each once; wait delivers it too)",
    },
  },
});

export const RECOVER = defineCommand({
  name: "recover",
  summary: "reconcile leftovers of crashed supervisors: partial (crash)",
  usage: "[options]",
  options: { root, json },
});

export const BENCH = defineCommand({
  name: "bench",
  summary: "measure capture against its baselines (see docs/benchmarks.md)",
  usage: "fixtures|throughput|memory|startup|redact|mcp [options]",
  description: [
    "Needs the repository's private @spool/bench package (present in a clone after `pnpm install`).",
  ],
  options: {
    size: {
      kind: "size",
      min: 1,
      max: 64 * GiB,
      placeholder: "N",
      help: "bytes of generated output (each bench has its own default)",
    },
    rounds: {
      kind: "int",
      min: 1,
      max: 1000,
      placeholder: "N",
      help: "interleaved rounds (each bench has its own default)",
    },
    report: { kind: "string", placeholder: "DIR", help: "also write the report files to DIR" },
    work: {
      kind: "string",
      placeholder: "DIR",
      help: "scratch directory parent (default the system temp dir)",
    },
  },
});

/** Options shared by the two MCP servers. */
const MCP_OPTIONS = {
  root,
  "max-result-bytes": {
    kind: "size",
    min: 4 * KiB,
    max: 16 * MiB,
    default: MiB,
    placeholder: "N",
    help: "most bytes any tool result may have (a call asks for less with max_bytes; default per call 16KiB)",
  },
} as const;

export const MCP = defineCommand({
  name: "mcp",
  summary:
    "an MCP server over stdio: run, start, status, wait, read, tail, grep, kill, ls as tools",
  usage: "[options]",
  description: [
    "Speaks MCP (JSON-RPC) on stdin/stdout. Every tool result is bounded; captures are also resources spool://ID/stdout and spool://ID/stderr, read in bounded pages. See docs/mcp.md.",
  ],
  options: {
    ...MCP_OPTIONS,
    "allow-cmd": {
      kind: "repeatable",
      placeholder: "CMD",
      help: "run/start only commands whose argv[0] is CMD (repeatable; default: any)",
    },
    "deny-cmd": {
      kind: "repeatable",
      placeholder: "CMD",
      help: "never run a command whose argv[0], or its base name, is CMD (repeatable)",
    },
    "confine-cwd": {
      kind: "string",
      placeholder: "DIR",
      help: "commands run only in DIR or below it (the default cwd then; links resolved)",
    },
  },
});

export const MCP_PROXY = defineCommand({
  name: "mcp-proxy",
  summary: "wrap a stdio MCP server: every tool result spooled, large ones returned as a receipt",
  usage: "[options] -- SERVER_CMD [ARGS...]",
  description: [
    "Lists the wrapped server's tools unchanged, plus spool_read, spool_grep and spool_tail. A result over the budget is returned as its preview, receipt and ref. See docs/mcp.md.",
  ],
  options: {
    ...MCP_OPTIONS,
    budget: {
      kind: "size",
      min: 4 * KiB,
      max: 16 * MiB,
      default: 16 * KiB,
      placeholder: "N",
      help: "results up to N bytes pass through unchanged; larger ones are replaced by their receipt",
    },
    "call-timeout": {
      kind: "duration",
      unit: "s",
      min: 1,
      max: MAX_TIMER_MS,
      default: 600_000,
      placeholder: "S",
      help: "fail a wrapped call after S seconds (the partial result is kept)",
    },
  },
});

export const HELP = defineCommand({
  name: "help",
  summary: "this text; spool help CMD: one command",
  usage: "[CMD]",
  options: {},
});

export const SUPERVISE = defineCommand({
  name: "__supervise",
  summary: "internal: the job supervisor",
  usage: "start|run ID [options] -- CMD [ARGS...]",
  options: RUN.options,
  hidden: true,
});

export type RunOptions = OptionsOf<typeof RUN.options>;
export type CaptureFlags = OptionsOf<typeof CAPTURE_OPTIONS>;
export type BenchOptions = OptionsOf<typeof BENCH.options>;

/** Every command, in the order `spool help` lists them. */
export const COMMANDS: readonly CommandDefinition[] = [
  RUN,
  CAPTURE,
  START,
  STATUS,
  WAIT,
  READ,
  TAIL,
  GREP,
  KILL,
  LS,
  RECOVER,
  MCP,
  MCP_PROXY,
  BENCH,
  HELP,
  SUPERVISE,
];

export function commandNamed(name: string): CommandDefinition | undefined {
  return COMMANDS.find((c) => c.name === name);
}
