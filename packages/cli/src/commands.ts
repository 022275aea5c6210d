/**
 * The one definition of every `spool` command: name, summary, usage, and typed options
 * with their ranges and defaults. The parser, `spool help`, `spool help CMD`,
 * `spool CMD --help` and docs/cli.md (`scripts/cli-docs.mjs`) all read these. Plain data
 * with no schema library: `spool run` loads it at every start.
 */
import { DEFAULT_PREVIEW_BUDGET } from "@spool/core/runtime";
import { DEFAULT_MAX_BYTES, DEFAULT_ROOT_QUOTA, WRITER_QUEUE_DEFAULTS } from "@spool/sinks/runtime";
import {
  type CommandDefinition,
  defineCommand,
  MAX_TIMER_MS,
  type OptionsOf,
  type OptionTable,
  type ParsedCommand,
} from "./args.js";
import type { Io } from "./io.js";

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;
const TiB = 1024 * GiB;

/** Most characters a preview may keep of one stream (its tap holds 4 bytes per char). */
export const MAX_PREVIEW_CHARS = MiB;
/** Most bytes of the whole preview. */
export const MAX_PREVIEW_BYTES = 4 * MiB;
/** Least bytes of the whole preview: room for both omission markers with their refs (a binary description each, the stderr header). */
export const MIN_PREVIEW_BYTES = 1024;
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
    help: "also redact the value of environment variable NAME (repeatable; variables named for a credential, GITHUB_TOKEN, DB_PASSWORD, are redacted unasked)",
  },
  "redact-file": {
    kind: "string",
    placeholder: "FILE",
    help: "also redact the values in FILE, one per line (blank lines skipped)",
  },
  "no-redact": { kind: "flag", help: "keep secrets as they are (no redaction at all)" },
  "no-spool": {
    kind: "flag",
    help: "keep nothing: the preview and the receipt only (capture disabled; --max-bytes 0 does the same)",
  },
  "keep-ansi": { kind: "flag", help: "keep ANSI escape sequences (default: stripped)" },
  binary: {
    kind: "enum",
    choices: ["text", "keep"],
    default: "text",
    placeholder: "MODE",
    help: "text: decode UTF-8 (invalid bytes become U+FFFD); keep: store raw bytes (only known values are replaced: those named by --redact-env/--redact-file and the environment's credentials; the preview still meets every rule)",
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
  command: { name: "CMD" },
  description: [
    "Runs CMD with its stdout and stderr captured to private files under the root, then prints a bounded preview, the refs to the full output, and a status line; exits with CMD's exit status (126/127 when CMD cannot be run).",
    "On a terminal (stdout a tty, no --json), CMD's output is shown as it is captured instead of the preview: the same redacted text that goes to disk, control characters escaped, then the status line. A terminal that falls behind never slows CMD: what it could not show is skipped and said (the capture keeps it all). While CMD is quiet for a few seconds a progress line on stderr shows the time and the bytes and lines so far; it is erased when output comes and never drawn when stdout or stderr is not a terminal.",
    "Stdin: a regular file or a character device such as /dev/null on spool's stdin is passed to CMD (`spool run -- jq . < data.json`); a pipe or a terminal is passed only with --stdin. Otherwise CMD gets an empty stdin and the receipt's process.stdin says `withheld`. Live output and --stdin do not combine with --background-after.",
  ],
  options: {
    ...CAPTURE_OPTIONS,
    "background-after": backgroundAfter(
      "if CMD still runs after S seconds, print its live receipt and leave it running as a job",
    ),
    live: {
      kind: "flag",
      help: "show CMD's output as it is captured (redacted, controls escaped), then the status line; the default when stdout is a terminal and not --json",
    },
    "no-live": {
      kind: "flag",
      help: "print the bounded preview and status line at the end, even on a terminal",
    },
    stdin: {
      kind: "flag",
      help: "pass spool's stdin to CMD when it is a pipe or a terminal (a regular file or /dev/null is always passed; otherwise CMD gets an empty stdin and the receipt says `withheld`)",
    },
  },
});

/** `--background-after S` of `run` and `capture`: promote to a job after S seconds. */
function backgroundAfter(help: string) {
  return {
    kind: "duration",
    unit: "s",
    min: 1,
    max: MAX_TIMER_MS,
    placeholder: "S",
    help,
  } as const;
}

const { timeout: _timeout, "live-ms": _liveMs, ...STDIN_CAPTURE_OPTIONS } = CAPTURE_OPTIONS;

export const CAPTURE = defineCommand({
  name: "capture",
  summary: "capture spool's own stdin, print the preview and status",
  stdin: "INPUT",
  description: [
    "The capture of `spool run`, fed from standard input (`kubectl logs -f pod | spool capture --label pod`): the same receipt, preview, refs and read commands. Exits 0 once the input ends (1 if the input failed or is declared truncated, or if its capture failed or its storage was unavailable).",
    "With --background-after S, a capture whose input is still open after S seconds becomes a job: its live receipt is printed, capture exits 0, and a detached supervisor goes on reading the same stdin into the same capture (status, wait, read, tail, grep and kill work on it). A shell still waits for the producer of a pipeline; feed it with `< <(CMD)` or a FIFO to get the prompt back.",
  ],
  options: {
    ...STDIN_CAPTURE_OPTIONS,
    "background-after": backgroundAfter(
      "if the input is still open after S seconds, print the live receipt and go on capturing it as a job",
    ),
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
  command: { name: "CMD" },
  description: [
    "Starts CMD under a detached supervisor and prints its launch receipt as JSON at once (exit 0; 126/127 when CMD cannot be run). Its storage is made ready first (the capture directory, owner.json, the receipt's reserve, the live files): if that fails (a full or read-only disk) CMD is not run and start exits 70 naming the cause, so starting it again is safe. Follow the job with status, read, tail, grep, wait and kill.",
  ],
  options: CAPTURE_OPTIONS,
});

export const STATUS = defineCommand({
  name: "status",
  summary: "the current receipt (final, else live) as JSON",
  positionals: [{ name: "REF" }],
  options: {
    root,
    json,
    "for-remote": {
      kind: "flag",
      help: "for a reader elsewhere: local paths replaced by spool serve routes, each stream marked remote: available|unavailable",
    },
    "base-url": {
      kind: "string",
      placeholder: "URL",
      help: "with --for-remote: the server, http(s)://HOST[:PORT] (default: server-relative routes)",
    },
  },
});

export const WAIT = defineCommand({
  name: "wait",
  summary: "wait for the job, print its final receipt, exit with its status",
  positionals: [{ name: "REF" }],
  description: [
    "Exit 75 if the job is still running after --timeout. If its owner died, or its receipt could not be stored, the receipt is partial, a line on stderr says which, and the exit status is the job's when its owner saw it end (exit.json), else 70; the same whether or not ls or recover has stored its crash receipt since (never 1, which would read as the job's own failure).",
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
  positionals: [{ name: "REF" }],
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
  positionals: [{ name: "REF" }],
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
  positionals: [{ name: "REF" }, { name: "PATTERN" }],
  description: [
    "PATTERN is a regular expression in RE2 syntax, matched in linear time (no lookaround, no backreferences; a plain word or words joined by | run on JavaScript's RegExp).",
  ],
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
  positionals: [{ name: "REF" }],
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
  options: { root, json },
});

export const EXPORT = defineCommand({
  name: "export",
  summary: "a bundle of captures (streams, receipts, line indexes, manifest)",
  positionals: [{ name: "REF", repeatable: true }],
  instead: ["all"],
  description: [
    "Writes the chosen captures into a bundle: a tar file when --out ends in .tar, else a new directory. A running job goes in as a partial snapshot at its committed boundary; the manifest lists what was left out and why. Nothing in the root is changed, and nothing is left under --out if the export fails. See docs/export.md.",
  ],
  options: {
    root,
    json: { kind: "flag", help: "print the bundle's manifest as JSON" },
    out: { kind: "string", placeholder: "FILE.tar|DIR", help: "where the bundle goes (required)" },
    all: { kind: "flag", help: "every capture of the root (instead of REF...)" },
    since: {
      kind: "string",
      placeholder: "T",
      help: "with --all: only captures started at or after T (an ISO time, or a duration like 2h meaning that long ago)",
    },
  },
});

export const IMPORT = defineCommand({
  name: "import",
  summary: "verify a bundle in full, then add its captures to the root",
  positionals: [{ name: "BUNDLE" }],
  description: [
    "BUNDLE is a tar file or a directory made by spool export. It is staged inside the root, verified against its manifest (sizes, sha256, receipts) and reserved in the root's allowance before any capture is published; ids are kept, and a bundle holding an id the root already has is refused whole. Exit 65 if the bundle is refused (nothing is written then).",
  ],
  options: { root, json, "root-quota": CAPTURE_OPTIONS["root-quota"] },
});

export const SHARE = defineCommand({
  name: "share",
  summary: "hand a copy of a capture to a child root",
  positionals: [{ name: "REF" }],
  needs: ["to"],
  description: [
    "The capture's files are copied, never hard-linked (spool reads only files with one link), a running job as a partial snapshot; the child's receipt records the parent root, and the child keeps its copy when the parent is deleted.",
  ],
  options: {
    root,
    json,
    to: { kind: "string", placeholder: "ROOT", help: "the child root (required)" },
    "root-quota": { ...CAPTURE_OPTIONS["root-quota"], help: "the child root's allowance" },
  },
});

export const RM = defineCommand({
  name: "rm",
  summary: "delete captures under an explicit policy; prints what was removed",
  positionals: [{ name: "REF", repeatable: true }],
  instead: ["older-than", "all"],
  description: [
    "Exactly one policy: the REFs named, every capture that ended (or, if still running, started) more than D ago, or all of them. A running job is refused (exit 75) unless --kill. Removal frees the root's allowance at once.",
  ],
  options: {
    root,
    json,
    all: { kind: "flag", help: "every capture of the root" },
    "older-than": {
      kind: "string",
      placeholder: "D",
      help: "captures that ended more than D ago (90s, 15m, 2h, 7d, 1w; a running one: started D ago)",
    },
    kill: {
      kind: "flag",
      help: "cancel running jobs (like spool kill) and remove them once they end",
    },
  },
});

export const DU = defineCommand({
  name: "du",
  summary: "bytes per capture and against the root's allowance",
  description: ["Looking writes nothing."],
  options: { root, json, "root-quota": CAPTURE_OPTIONS["root-quota"] },
});

/**
 * The benches `spool bench NAME` runs: the keys of `BENCHES` in `@spool/bench` (the CLI does
 * not load that package to show its help; packages/cli/test/commands.test.ts holds the two
 * lists equal).
 */
export const BENCH_NAMES = [
  "fixtures",
  "throughput",
  "memory",
  "startup",
  "redact",
  "export",
  "chunk-size",
  "serve",
  "mcp",
  "binary",
] as const;

export const BENCH = defineCommand({
  name: "bench",
  summary: "measure capture against its baselines (see docs/benchmarks.md)",
  positionals: [{ name: "NAME", choices: BENCH_NAMES }],
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
    corpus: {
      kind: "flag",
      help: "bench redact: recall and false positives on the labelled corpus, next to a gitleaks port",
    },
    adversarial: {
      kind: "flag",
      help: "bench redact: time adversarial inputs at n and 2n bytes (linear time)",
    },
    "load-size": {
      kind: "size",
      min: 1,
      max: 64 * GiB,
      placeholder: "N",
      help: "serve: bytes the job writes while readers and followers load the server (default 64MiB)",
    },
  },
});

/** Default and largest `--max-transfer` of `spool serve` (one response's bytes). */
export const DEFAULT_MAX_TRANSFER = 8 * MiB;
export const MAX_MAX_TRANSFER = 1 * GiB;

const tokenFile = {
  kind: "string",
  placeholder: "FILE",
  help: "the root token's file (default ROOT/serve.token)",
} as const;

export const SERVE = defineCommand({
  name: "serve",
  summary: "authenticated read-only HTTP access and a web view (docs/serve.md)",
  description: [
    "Prints one JSON line when it listens (url or socket, tokenFile: where the root token is; the token itself is never printed), then serves until SIGINT or SIGTERM. Without --public it binds only to loopback or a unix socket; --public needs --tls-cert and --tls-key.",
  ],
  options: {
    root,
    listen: {
      kind: "string",
      placeholder: "HOST:PORT",
      help: "address to listen on (default 127.0.0.1:0, a free port; loopback unless --public)",
    },
    socket: {
      kind: "string",
      placeholder: "PATH",
      help: "listen on a unix socket (made 0600) instead of TCP",
    },
    public: {
      kind: "flag",
      help: "allow a non-loopback --listen (needs --tls-cert and --tls-key)",
    },
    "tls-cert": { kind: "string", placeholder: "FILE", help: "TLS certificate (PEM)" },
    "tls-key": {
      kind: "string",
      placeholder: "FILE",
      help: "TLS private key (PEM, not readable by group or others)",
    },
    "allow-host": {
      kind: "repeatable",
      placeholder: "NAME",
      help: "also accept requests whose Host is NAME (repeatable)",
    },
    "token-file": tokenFile,
    "max-transfer": {
      kind: "size",
      min: 1,
      max: MAX_MAX_TRANSFER,
      default: DEFAULT_MAX_TRANSFER,
      placeholder: "N",
      help: "most bytes of one response (a range, a grep result, the capture list)",
    },
    "grep-ms": {
      kind: "duration",
      unit: "ms",
      min: 1,
      max: 60_000,
      default: 2000,
      placeholder: "N",
      help: "most time one grep request may scan",
    },
    heartbeat: {
      kind: "duration",
      unit: "s",
      min: 1000,
      max: 3_600_000,
      default: 15_000,
      placeholder: "S",
      help: "seconds of quiet before a live follow (SSE) sends a `: heartbeat` comment, and again every S seconds of quiet",
    },
    "access-log": {
      kind: "string",
      placeholder: "FILE|-",
      help: "one JSON line per request (time, method, path, query names, status, bytes, ms; never a token, cookie or query value) to FILE (created 0600, or appended to a private file of ours) or - for stdout",
    },
  },
});

export const TOKEN = defineCommand({
  name: "token",
  summary: "a read-only bearer token for serve, optionally for one capture",
  description: [
    "Tokens are signed with a key derived from the root token, so spool serve needs no list of them; replacing the root token revokes them all. --new-root prints a fresh root token for a --token-file (store it 0600).",
  ],
  options: {
    root,
    json,
    "token-file": tokenFile,
    capture: { kind: "string", placeholder: "REF", help: "valid for this one capture only" },
    ttl: {
      kind: "string",
      default: "1h",
      placeholder: "TTL",
      help: "lifetime: 90s, 15m, 1h or 7d (plain numbers are seconds), from 1s to 30d",
    },
    "new-root": { kind: "flag", help: "print a fresh root token (takes no other option)" },
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
  command: { name: "SERVER_CMD" },
  description: [
    "Lists the wrapped server's tools unchanged, plus spool_read, spool_grep and spool_tail. A result of tools/call, tasks/result, resources/read or prompts/get over the budget is returned as its preview, receipt and ref, redacted. The first word that is not an option starts the server command (the -- is optional). The proxy exits when the wrapped server cannot start or exits. See docs/mcp.md.",
  ],
  restAtFirstPositional: true,
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
    "max-message-bytes": {
      kind: "size",
      min: 64 * KiB,
      max: GiB,
      default: 512 * MiB,
      placeholder: "N",
      help: "a message from the server still unfinished after N bytes is a flood: the server is stopped, what arrived is kept",
    },
    "tool-prefix": {
      kind: "string",
      default: "spool_",
      placeholder: "P",
      help: "name spool's own tools P+read, P+grep, P+tail; one the wrapped server also has is left out (its own is kept)",
    },
    cwd: {
      kind: "string",
      placeholder: "DIR",
      help: "run the server in DIR (default: the proxy's working directory); a missing DIR is an error of its own",
    },
  },
});

export const HELP = defineCommand({
  name: "help",
  summary: "this text; spool help CMD: one command",
  positionals: [{ name: "CMD", optional: true }],
  options: {},
});

export const SUPERVISE = defineCommand({
  name: "__supervise",
  summary: "internal: the job supervisor",
  positionals: [{ name: "MODE", choices: ["start", "run", "capture"] }, { name: "ID" }],
  command: { name: "CMD", optional: true },
  options: { ...RUN.options, declared: CAPTURE.options.declared },
  hidden: true,
});

export type CaptureFlags = OptionsOf<typeof CAPTURE_OPTIONS>;

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
  EXPORT,
  IMPORT,
  SHARE,
  RM,
  DU,
  SERVE,
  TOKEN,
  MCP,
  MCP_PROXY,
  BENCH,
  HELP,
  SUPERVISE,
];

export function commandNamed(name: string): CommandDefinition | undefined {
  return COMMANDS.find((c) => c.name === name);
}

/** A command's body: its parsed, typed options in, its exit status out. */
export type CommandBody<T extends OptionTable> = (
  parsed: ParsedCommand<OptionsOf<T>>,
  io: Io,
) => Promise<number>;

/** A command's definition and the module that runs it. */
export interface CommandEntry {
  readonly definition: CommandDefinition;
  readonly load: () => Promise<CommandBody<OptionTable>>;
}

function entry<T extends OptionTable>(
  definition: CommandDefinition<T>,
  load: () => Promise<CommandBody<T>>,
): [string, CommandEntry] {
  return [definition.name, { definition, load } as unknown as CommandEntry];
}

/**
 * What runs each command, by name: adding a command is its definition, its place in
 * {@link COMMANDS} and a line here (this file), and its module. Each module is imported
 * when its command runs: loading them all (zod and the sinks' lock, quota and recovery
 * modules among them) cost `spool run` tens of milliseconds at every start.
 */
export const COMMAND_ENTRIES: ReadonlyMap<string, CommandEntry> = new Map([
  entry(RUN, async () => (await import("./run.js")).runCommand),
  entry(START, async () => (await import("./start.js")).startCommand),
  entry(STATUS, async () => (await import("./status.js")).statusCommand),
  entry(WAIT, async () => (await import("./wait.js")).waitCommand),
  entry(READ, async () => (await import("./read.js")).readCommand),
  entry(TAIL, async () => (await import("./tail.js")).tailCommand),
  entry(GREP, async () => (await import("./grep.js")).grepCommand),
  entry(KILL, async () => (await import("./kill.js")).killCommand),
  entry(SUPERVISE, async () => (await import("./supervisor.js")).superviseCommand),
  entry(BENCH, async () => (await import("./bench.js")).benchCommand),
  entry(LS, async () => (await import("./ls.js")).lsCommand),
  entry(RECOVER, async () => (await import("./recover.js")).recoverCommand),
  entry(EXPORT, async () => (await import("./export.js")).exportCommand),
  entry(IMPORT, async () => (await import("./import.js")).importCommand),
  entry(SHARE, async () => (await import("./share.js")).shareCommand),
  entry(RM, async () => (await import("./rm.js")).rmCommand),
  entry(DU, async () => (await import("./du.js")).duCommand),
  entry(SERVE, async () => (await import("./serve/serve-command.js")).serveCommand),
  entry(TOKEN, async () => (await import("./serve/token-command.js")).tokenCommand),
  entry(CAPTURE, async () => (await import("./stdin-capture.js")).captureCommand),
  entry(MCP, async () => (await import("./mcp-server.js")).mcpCommand),
  entry(MCP_PROXY, async () => (await import("./mcp-proxy.js")).mcpProxyCommand),
]);
