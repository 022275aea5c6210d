/** The `spool` binary: dispatch to a command; usage errors are one line and exit 64. */
import { isSpoolError } from "@spool/core";
import { benchCommand } from "./bench.js";
import { type Io, processIo } from "./io.js";
import { runCommand } from "./run.js";

export const USAGE = `usage: spool <command> [options]

  run [opts] -- CMD [ARGS...]   run CMD, capture its output, print the preview and status
  bench throughput|memory|startup [--size N] [--rounds N] [--report DIR]
                                measure capture against its baselines (see docs/benchmarks.md)
  help                          this text

Options of run: --root DIR --json --call-id ID --label TEXT --no-label --timeout S
  --drain-ms N --binary text|keep --preview-stdout N --preview-stderr N --preview-bytes N
  --queue-bytes N --stall-ms N --log FILE|stderr
Sizes accept KiB, MiB, GiB. Docs: README.md and docs/ in the spool repository.
`;

type Command = (argv: readonly string[], io: Io) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  run: runCommand,
  bench: benchCommand,
};

export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
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
