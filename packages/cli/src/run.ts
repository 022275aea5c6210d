/**
 * `spool run [options] -- CMD [ARGS...]`: capture in the foreground, print the inline
 * result. With `--background-after S` the capture runs under the job supervisor from the
 * start; if CMD is still running after S seconds the run is promoted to a job: the live
 * receipt is printed, `run` exits 0 and the same capture goes on in the background.
 */
import { newCaptureId, type Receipt, startCapture } from "@spool/core/runtime";
import { parseArgs } from "./args.js";
import { type CaptureSetup, captureSetup } from "./capture-options.js";
import { formatInline } from "./inline.js";
import type { Io } from "./io.js";
import {
  detachSupervisor,
  JOB_OPTIONS,
  type LauncherMessage,
  launchSupervisor,
  nextMessage,
} from "./supervisor-launch.js";

const SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

export async function runCommand(argv: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(argv, JOB_OPTIONS);
  const setup = captureSetup(parsed, io.env, io.cwd);
  const after = parsed.options["background-after"] as number | undefined;
  if (after !== undefined) {
    await setup.files.destroy();
    return runSupervised(argv, after, setup, io);
  }
  const capture = startCapture({ ...setup.options, spool: setup.files.factory });
  const forward = (signal: NodeJS.Signals) => capture.cancel(signal);
  for (const s of SIGNALS) process.on(s, forward);
  try {
    const { receipt, exitStatus } = await capture.done;
    return report(receipt, exitStatus, setup, io);
  } finally {
    for (const s of SIGNALS) process.off(s, forward);
    await setup.files.destroy();
    setup.logger.flush?.();
  }
}

async function runSupervised(
  argv: readonly string[],
  afterSeconds: number,
  setup: CaptureSetup,
  io: Io,
): Promise<number> {
  const child = launchSupervisor("run", newCaptureId(), argv, io);
  const tell = (message: LauncherMessage) => {
    if (child.connected) child.send(message);
  };
  const forward = (signal: NodeJS.Signals) => tell({ type: "cancel", signal });
  for (const s of SIGNALS) process.on(s, forward);
  const timer = setTimeout(() => tell({ type: "promote" }), afterSeconds * 1000);
  try {
    // No overall limit: a foreground run lasts as long as CMD (or until promoted).
    const message = await nextMessage(child, ["final", "promoted"], 2 ** 31 - 1);
    if (message.type === "promoted") {
      io.stdout(`${JSON.stringify(message.receipt, null, 2)}\n`);
      return 0;
    }
    return report(message.receipt, message.exitStatus, setup, io);
  } finally {
    clearTimeout(timer);
    for (const s of SIGNALS) process.off(s, forward);
    detachSupervisor(child);
    setup.logger.flush?.();
  }
}

function report(receipt: Receipt, exitStatus: number, setup: CaptureSetup, io: Io): number {
  io.stdout(
    setup.json ? `${JSON.stringify(receipt, null, 2)}\n` : formatInline(receipt, exitStatus),
  );
  if (exitStatus === 127 || exitStatus === 126) {
    io.stderr(
      `spool: cannot run ${JSON.stringify(setup.options.command)}: ${receipt.process.reason}\n`,
    );
  }
  return exitStatus;
}
