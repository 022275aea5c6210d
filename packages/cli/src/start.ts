/**
 * `spool start [options] -- CMD [ARGS...]`: start CMD as a background job under a
 * detached supervisor, print its launch receipt (process `running`, capture `pending`,
 * live refs to the `.live` files) as JSON at once, and exit 0 (126/127 when CMD cannot
 * be run). Follow the job with `status`, `read`, `tail`, `grep`, `wait`, `kill`.
 */
import { exitStatusOf, newCaptureId } from "@spool/core";
import { parseArgs, usageError } from "./args.js";
import { captureSetup } from "./capture-options.js";
import type { Io } from "./io.js";
import {
  detachSupervisor,
  JOB_OPTIONS,
  launchSupervisor,
  nextMessage,
} from "./supervisor-launch.js";

/** How long `start` waits for the supervisor's launch receipt. */
const LAUNCH_TIMEOUT_MS = 30_000;

export async function startCommand(argv: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(argv, JOB_OPTIONS);
  if (parsed.options["background-after"] !== undefined) {
    throw usageError("--background-after is an option of run (start is always in the background)");
  }
  // Validate everything here, so bad input fails in the foreground with exit 64.
  const setup = captureSetup(parsed, io.env, io.cwd);
  await setup.files.destroy();
  const child = launchSupervisor("start", newCaptureId(), argv, io);
  try {
    const { receipt } = await nextMessage(child, ["launched"], LAUNCH_TIMEOUT_MS);
    io.stdout(`${JSON.stringify(receipt, null, 2)}\n`);
    const status = receipt.process.pid === null ? exitStatusOf(receipt.process) : 0;
    if (status !== 0) {
      io.stderr(
        `spool start: cannot run ${JSON.stringify(setup.options.command)}: ${receipt.process.reason}\n`,
      );
    }
    return status;
  } finally {
    detachSupervisor(child);
  }
}
