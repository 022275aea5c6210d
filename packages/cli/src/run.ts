/** `spool run [options] -- CMD [ARGS...]`: capture in the foreground, print the inline result. */
import { startCapture } from "@spool/core";
import { parseArgs } from "./args.js";
import { CAPTURE_OPTIONS, captureSetup } from "./capture-options.js";
import { formatInline } from "./inline.js";
import type { Io } from "./io.js";

export async function runCommand(argv: readonly string[], io: Io): Promise<number> {
  const setup = captureSetup(parseArgs(argv, CAPTURE_OPTIONS), io.env, io.cwd);
  const capture = startCapture({ ...setup.options, spool: setup.files.factory });
  const forward = (signal: NodeJS.Signals) => capture.cancel(signal);
  const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const s of signals) process.on(s, forward);
  try {
    const { receipt, exitStatus } = await capture.done;
    io.stdout(
      setup.json ? `${JSON.stringify(receipt, null, 2)}\n` : formatInline(receipt, exitStatus),
    );
    if (exitStatus === 127 || exitStatus === 126) {
      io.stderr(
        `spool: cannot run ${JSON.stringify(setup.options.command)}: ${receipt.process.reason}\n`,
      );
    }
    return exitStatus;
  } finally {
    for (const s of signals) process.off(s, forward);
    await setup.files.destroy();
    setup.logger.flush?.();
  }
}
