/** The `spool` binary: dispatch to a command; usage errors are one line and exit 64. */
import { writeFileSync } from "node:fs";
import { isSpoolError } from "@spool/core";
import { benchCommand } from "./bench.js";
import { type Io, processIo } from "./io.js";
import { lsCommand } from "./ls.js";
import { recoverCommand } from "./recover.js";
import { runCommand } from "./run.js";

export const USAGE = `usage: spool <command> [options]

  run [opts] -- CMD [ARGS...]   run CMD, capture its output, print the preview and status
  ls [--json]                   list captures (reconciles crash leftovers first)
  recover [--json]              reconcile leftovers of crashed supervisors: partial (crash)
  bench fixtures|throughput|memory|startup [--size N] [--rounds N] [--report DIR]
                                measure capture against its baselines (see docs/benchmarks.md)
  help                          this text

Options of run: --root DIR --json --call-id ID --label TEXT --no-label --timeout S
  --drain-ms N --max-bytes N --root-quota N --binary text|keep --preview-stdout N --preview-stderr N --preview-bytes N
  --queue-bytes N --stall-ms N --log FILE|stderr
Sizes accept KiB, MiB, GiB. Docs: README.md and docs/ in the spool repository.
`;

type Command = (argv: readonly string[], io: Io) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  run: runCommand,
  bench: benchCommand,
  ls: lsCommand,
  recover: recoverCommand,
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
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`spool: unknown command "${name.slice(0, 40)}" (try: spool help)\n`);
    return 64;
  }
  try {
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
