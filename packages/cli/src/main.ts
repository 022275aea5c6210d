/** The `spool` binary: dispatch to a command; usage errors are one line and exit 64. */
import { writeFileSync } from "node:fs";
import { isSpoolError } from "@spool/core/runtime";
import { type Io, processIo } from "./io.js";

export const USAGE = `usage: spool <command> [options]

  run [opts] -- CMD [ARGS...]   run CMD, capture its output, print the preview and status
  start [opts] -- CMD [ARGS...] start CMD as a background job, print its launch receipt
  status REF [--for-remote [--base-url URL]]
                                the current receipt (final, else live) as JSON; --for-remote:
                                local paths replaced by spool serve routes
  wait REF [--timeout S]        wait for the job, print its final receipt, exit with its status
                                (exit 75 if still running after S)
  read REF [--stream S] [--offset N] [--length N] [--lines A:B] [--cursor NAME] [--json]
                                committed bytes of a stream, never a split character
  tail REF [-n N] [--follow] [--stream S]
                                the last lines; --follow until the job ends
  grep REF PATTERN [--stream S] [--max N] [-i] [-o] [--max-columns N] [--json]
                                matching lines as LINE:OFFSET:TEXT (offset for read --offset)
  kill REF [--signal SIG]       cancel a job (its process group; SIGKILL after a grace period)
  ls [--json] [--unseen]        list captures (reconciles crash leftovers first); --unseen:
                                only ended jobs whose completion is undelivered, delivering it
                                (each completion once; wait delivers it too)
  recover [--json]              reconcile leftovers of crashed supervisors: partial (crash)
  serve [--root DIR] [--listen HOST:PORT | --socket PATH] [--token-file F] [--max-transfer N]
                                authenticated read-only HTTP access and a web view (docs/serve.md)
  token [--capture REF] [--ttl 1h] [--json]
                                a read-only bearer token for serve, optionally for one capture
  bench fixtures|throughput|memory|startup|redact [--size N] [--rounds N] [--report DIR]
                                measure capture against its baselines (see docs/benchmarks.md)
  help                          this text

Options of run and start: --root DIR --json --call-id ID --label TEXT --no-label --timeout S
  --drain-ms N --max-bytes N --root-quota N --binary text|keep --preview-stdout N
  --preview-stderr N --preview-bytes N --queue-bytes N --stall-ms N --log FILE|stderr
  --live-ms N (job live.json rate, default 50)
  run --background-after S: after S seconds, print the live receipt and leave CMD running
REF is a captureId, a callId or a ref (tool-outputs/<id>/stdout.txt); every job command
takes --root DIR.
Sizes accept KiB, MiB, GiB. Docs: README.md and docs/ in the spool repository.
`;

type Command = (argv: readonly string[], io: Io) => Promise<number>;

// Each command is imported when it runs: loading them all (zod and the sinks' lock, quota
// and recovery modules among them) cost `spool run` tens of milliseconds at every start.
const COMMANDS: Record<string, () => Promise<Command>> = {
  run: async () => (await import("./run.js")).runCommand,
  start: async () => (await import("./start.js")).startCommand,
  status: async () => (await import("./status.js")).statusCommand,
  wait: async () => (await import("./wait.js")).waitCommand,
  read: async () => (await import("./read.js")).readCommand,
  tail: async () => (await import("./tail.js")).tailCommand,
  grep: async () => (await import("./grep.js")).grepCommand,
  kill: async () => (await import("./kill.js")).killCommand,
  __supervise: async () => (await import("./supervisor.js")).superviseCommand,
  bench: async () => (await import("./bench.js")).benchCommand,
  ls: async () => (await import("./ls.js")).lsCommand,
  recover: async () => (await import("./recover.js")).recoverCommand,
  serve: async () => (await import("./serve/serve-command.js")).serveCommand,
  token: async () => (await import("./serve/token-command.js")).tokenCommand,
};

export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } finally {
    reportUsage(io.env);
  }
}

/**
 * Benchmarks ask `spool` for its own peak RSS and CPU time: with `SPOOL_RUSAGE_FILE` set,
 * they are written there at exit (exclusively; an existing file is left alone).
 */
function reportUsage(env: NodeJS.ProcessEnv): void {
  const file = env.SPOOL_RUSAGE_FILE;
  if (!file) return;
  const u = process.resourceUsage();
  try {
    writeFileSync(
      file,
      JSON.stringify({ maxRssKiB: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 }),
      { flag: "wx", mode: 0o600 },
    );
  } catch {
    // measurement is best effort
  }
}

async function dispatch(argv: readonly string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    (name === undefined ? io.stderr : io.stdout)(USAGE);
    return name === undefined ? 64 : 0;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    io.stderr(`spool: unknown command "${name.slice(0, 40)}" (try: spool help)\n`);
    return 64;
  }
  try {
    const command = await load();
    return await command(rest, io);
  } catch (error) {
    if (
      isSpoolError(
        error,
        "SPOOL_E_USAGE",
        "SPOOL_E_OPTIONS",
        "SPOOL_E_REF_INVALID",
        "SPOOL_E_REF_OUTSIDE_ROOT",
        "SPOOL_E_REF_NOT_FOUND",
        "SPOOL_E_REDACT_VALUE",
        "SPOOL_E_AUTH",
      )
    ) {
      io.stderr(`spool ${name}: ${error.message.replace(/^cli: /, "")}\n`);
      return 64;
    }
    if (isSpoolError(error)) {
      io.stderr(`spool ${name}: ${error.message}\n`);
      return 70;
    }
    throw error;
  }
}
