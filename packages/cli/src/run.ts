/**
 * `spool run [options] -- CMD [ARGS...]`: capture in the foreground, print the inline
 * result. With `--background-after S` the capture runs under the job supervisor from the
 * start; if CMD is still running after S seconds the run is promoted to a job: the live
 * receipt is printed, `run` exits 0 and the same capture goes on in the background.
 */
import { newCaptureId, type Receipt, startCapture } from "@spool/core/runtime";
import type { CommandInput } from "./args.js";
import {
  type CaptureConfig,
  captureConfig,
  openCapture,
  prepareCapture,
  resolveCaptureRoot,
} from "./capture-setup.js";
import type { RUN } from "./commands.js";
import { formatInline } from "./inline.js";
import type { Io } from "./io.js";
import { jsonText } from "./json-text.js";
import { FOREGROUND_SIGNALS, superviseInForeground } from "./supervisor-launch.js";

export async function runCommand(parsed: CommandInput<typeof RUN>, io: Io): Promise<number> {
  const prepared = prepareCapture(captureConfig(parsed, io.env, io.cwd));
  const afterMs = parsed.options["background-after"];
  if (afterMs !== undefined) {
    // The supervisor opens the capture; the root is made here so its faults show here.
    resolveCaptureRoot(prepared.config);
    return runSupervised(parsed.argv, afterMs, prepared.config, io);
  }
  const setup = openCapture(prepared);
  const capture = startCapture({ ...setup.options, spool: setup.files.factory });
  const forward = (signal: NodeJS.Signals) => capture.cancel(signal);
  for (const s of FOREGROUND_SIGNALS) process.on(s, forward);
  try {
    const { receipt, exitStatus } = await capture.done;
    return report(receipt, exitStatus, setup.options.command, setup.json, io);
  } finally {
    for (const s of FOREGROUND_SIGNALS) process.off(s, forward);
    await setup.files.destroy();
    setup.logger.flush?.();
  }
}

async function runSupervised(
  argv: readonly string[],
  afterMs: number,
  config: CaptureConfig,
  io: Io,
): Promise<number> {
  const message = await superviseInForeground("run", newCaptureId(), argv, afterMs, io);
  if (message.type === "promoted") {
    io.stdout(`${jsonText(message.receipt, 2)}\n`);
    return 0;
  }
  return report(message.receipt, message.exitStatus, config.command, config.json, io);
}

function report(
  receipt: Receipt,
  exitStatus: number,
  command: string,
  json: boolean,
  io: Io,
): number {
  io.stdout(json ? `${jsonText(receipt, 2)}\n` : formatInline(receipt, exitStatus));
  if (exitStatus === 127 || exitStatus === 126) {
    io.stderr(`spool: cannot run ${jsonText(command)}: ${receipt.process?.reason}\n`);
  }
  return exitStatus;
}
