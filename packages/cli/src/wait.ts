/**
 * `spool wait REF [--timeout S]`: wait for the job to end, print its final receipt as
 * JSON, deliver its completion notification, and exit with its exit status (as `run`
 * would have). Still running after `--timeout`: the live receipt, exit 75. Its owner
 * (supervisor, or a foreground `spool run`) found dead first: the crash receipt
 * (`partial`, `crash`), exit 70, as soon as the next poll sees it.
 */
import { exitStatusOf } from "@spool/core";
import type { CommandInput } from "./args.js";
import { type CaptureView, viewCapture } from "./capture-view.js";
import type { WAIT } from "./commands.js";
import { takeCompletion } from "./completion.js";
import type { Io } from "./io.js";
import { locateCapture } from "./locate-capture.js";

/** Exit status of `wait` when its own `--timeout` ran out (EX_TEMPFAIL). */
export const WAIT_TIMED_OUT = 75;
/** How often the receipt files are looked at while waiting. */
export const POLL_MS = 25;

export async function waitCommand(parsed: CommandInput<typeof WAIT>, io: Io): Promise<number> {
  const { dir } = locateCapture(parsed, io);
  const timeoutMs = parsed.options.timeout;
  const view = await waitForEnd(dir, timeoutMs ?? null);
  io.stdout(`${JSON.stringify(view.receipt, null, 2)}\n`);
  if (view.running) {
    io.stderr(
      `spool wait: ${view.receipt.captureId} still running after ${(timeoutMs ?? 0) / 1000} s\n`,
    );
    return WAIT_TIMED_OUT;
  }
  // Ended, either way: this is the job's completion notice (`ls --unseen` will not repeat it).
  try {
    takeCompletion(dir);
  } catch (error) {
    // The receipt is printed all the same; a later `ls --unseen` may list it again.
    io.stderr(`spool wait: completion not marked delivered: ${(error as Error).message}\n`);
  }
  if (view.crashed) {
    io.stderr(
      `spool wait: the owner of ${view.receipt.captureId} (its supervisor or spool run) died; capture partial (crash)\n`,
    );
    return 70;
  }
  return exitStatusOf(view.receipt.process);
}

/** Poll the capture until it is no longer running, or `ms` passes (null: no limit). */
export async function waitForEnd(dir: string, ms: number | null): Promise<CaptureView> {
  const until = ms === null ? Number.POSITIVE_INFINITY : Date.now() + ms;
  for (;;) {
    const view = viewCapture(dir);
    if (!view.running || Date.now() >= until) return view;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
