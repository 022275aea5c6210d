/**
 * `spool start [options] -- CMD [ARGS...]`: start CMD as a background job under a
 * detached supervisor, print its launch receipt (process `running`, capture `pending`,
 * live refs to the `.live` files) as JSON at once, and exit 0 (126/127 when CMD cannot
 * be run). Follow the job with `status`, `read`, `tail`, `grep`, `wait`, `kill`.
 */
import { newCaptureId, receiptExitStatus } from "@spool/core";
import { type CommandInput, usageError } from "./args.js";
import { captureConfig, prepareCapture, resolveCaptureRoot } from "./capture-setup.js";
import type { START } from "./commands.js";
import type { Io } from "./io.js";
import { jsonText } from "./json-text.js";
import { detachSupervisor, launchSupervisor, nextMessage } from "./supervisor-launch.js";

/** How long `start` waits for the supervisor's launch receipt. */
const LAUNCH_TIMEOUT_MS = 30_000;

export async function startCommand(parsed: CommandInput<typeof START>, io: Io): Promise<number> {
  // Refuse bad input here, in the foreground with exit 64; the supervisor opens the capture.
  const { config } = prepareCapture(captureConfig(parsed, io.env, io.cwd));
  if (!config.persist) {
    throw usageError(
      "a job keeps its output in the spool: --no-spool and --max-bytes 0 are for run",
    );
  }
  resolveCaptureRoot(config);
  const child = launchSupervisor("start", newCaptureId(), parsed.argv, io);
  try {
    const { receipt } = await nextMessage(child, ["launched"], LAUNCH_TIMEOUT_MS);
    io.stdout(`${jsonText(receipt, 2)}\n`);
    const status = receipt.process?.pid === null ? receiptExitStatus(receipt) : 0;
    if (status !== 0) {
      io.stderr(
        `spool start: cannot run ${jsonText(config.command)}: ${receipt.process?.reason}\n`,
      );
    }
    return status;
  } finally {
    detachSupervisor(child);
  }
}
