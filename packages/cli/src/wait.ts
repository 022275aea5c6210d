/**
 * `spool wait REF [--timeout S]`: wait for the job to end, print its final receipt as
 * JSON, deliver its completion notification, and exit with its exit status (as `run`
 * would have). Still running after `--timeout`: the live receipt, exit 75. Its owner
 * (supervisor, or a foreground `spool run`) found dead first: the crash receipt
 * (`partial`, `crash`), exit 70, as soon as the next poll sees it.
 */
import { type CaptureStore, receiptExitStatus, type StoredCapture } from "@spool/core";
import type { CommandInput } from "./args.js";
import type { WAIT } from "./commands.js";
import type { Io } from "./io.js";
import { jsonText } from "./json-text.js";
import { locateCapture } from "./locate-capture.js";

/** Exit status of `wait` when its own `--timeout` ran out (EX_TEMPFAIL). */
export const WAIT_TIMED_OUT = 75;

export async function waitCommand(parsed: CommandInput<typeof WAIT>, io: Io): Promise<number> {
  const { store, captureId } = await locateCapture(parsed, io);
  const timeoutMs = parsed.options.timeout;
  const view = await waitForEnd(store, captureId, timeoutMs ?? null);
  io.stdout(`${jsonText(view.receipt, 2)}\n`);
  if (view.condition === "live") {
    io.stderr(
      `spool wait: ${view.receipt.captureId} still running after ${(timeoutMs ?? 0) / 1000} s\n`,
    );
    return WAIT_TIMED_OUT;
  }
  // Ended, either way: this is the job's completion notice (`ls --unseen` will not repeat it).
  try {
    await store.completion.take(captureId);
  } catch (error) {
    // The receipt is printed all the same; a later `ls --unseen` may list it again.
    io.stderr(`spool wait: completion not marked delivered: ${(error as Error).message}\n`);
  }
  if (view.condition === "crashed") {
    io.stderr(
      `spool wait: the owner of ${view.receipt.captureId} (its supervisor or spool run) died; capture partial (crash)\n`,
    );
    return 70;
  }
  return receiptExitStatus(view.receipt);
}

/**
 * Follow the capture (`CaptureStore.watch`, no polling of its own) until it is no longer
 * live, or `ms` passes (null: no limit); then its state as of that moment.
 */
export async function waitForEnd(
  store: CaptureStore,
  captureId: string,
  ms: number | null,
): Promise<StoredCapture> {
  const stop = new AbortController();
  const timer = ms === null ? null : setTimeout(() => stop.abort(), ms);
  let last: StoredCapture | null = null;
  try {
    for await (const state of store.watch(captureId, { signal: stop.signal })) last = state;
  } finally {
    if (timer !== null) clearTimeout(timer);
  }
  // Timed out while live: the freshest receipt, not the last one that moved.
  return last !== null && last.condition !== "live" ? last : store.state(captureId);
}
