/**
 * `spool wait REF [--timeout S]`: wait for the job to end, print its final receipt as
 * JSON, deliver its completion notification, and exit with its exit status (as `run`
 * would have). Still running after `--timeout`: the live receipt, exit 75. Its owner
 * (supervisor, or a foreground `spool run`) found dead first, or ended without storing
 * `receipt.json`: the crash receipt (`partial`), and the job's exit status if its owner
 * observed it (the exit record), else 70.
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
  if (view.condition === "crashed") return crashedStatus(view, io);
  return receiptExitStatus(view.receipt);
}

/**
 * No receipt.json: the job's own status when its owner observed it (recorded in the
 * exit record), else 70.
 */
function crashedStatus(view: StoredCapture, io: Io): number {
  const { receipt } = view;
  const proc = receipt.process;
  const known =
    proc !== undefined &&
    (proc.exitCode !== null || proc.signal !== null || proc.state === "timeout");
  const id = receipt.captureId;
  if (!receipt.capture.reasons.includes("crash")) {
    io.stderr(`spool wait: ${id} ended but its receipt.json could not be stored; partial\n`);
  } else {
    io.stderr(
      `spool wait: the owner of ${id} (its supervisor or spool run) died; capture partial (crash)${known ? "" : ", the job's exit status is unknown"}\n`,
    );
  }
  return known ? receiptExitStatus(receipt) : 70;
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
