/**
 * The drain after the direct child exits: wait for actual EOF on every pipe, or for the
 * window to run out (a descendant still holds a pipe), then stop the pumps that are left.
 *
 * @example
 * ```ts
 * import { systemClock } from "@spool/core";
 * import { drainPumps } from "./drain.js"; // internal to @spool/core
 * declare const pumps: Record<"stdout" | "stderr", import("@spool/core").StreamPump>;
 * const ends = await drainPumps(pumps, 1000, systemClock); // ["eof", "stopped"]
 * ```
 */
import type { Clock } from "./clock.js";
import { STREAM_NAMES, type StreamName } from "./receipt-vocabulary.js";
import type { PumpEnd, StreamPump } from "./stream-pipeline.js";

/** How each stream ended, in {@link STREAM_NAMES} order. */
export async function drainPumps(
  pumps: Record<StreamName, StreamPump>,
  ms: number,
  clock: Clock,
): Promise<PumpEnd[]> {
  let cancel = () => {};
  const timeout = new Promise<"timeout">((resolve) => {
    // Time the reader spends paused by its own writer queue is not a descendant holding
    // the pipe: a slow disk must not turn into drain-timeout. That pause is bounded by
    // the queue's stall budget, so the window is only extended, never endless.
    const arm = () => {
      cancel = clock.setTimeout(() => {
        if (STREAM_NAMES.some((n) => pumps[n].waiting)) arm();
        else resolve("timeout");
      }, ms);
    };
    arm();
  });
  const all = Promise.all(STREAM_NAMES.map((n) => pumps[n].done));
  const first = await Promise.race([all, timeout]);
  cancel();
  if (first !== "timeout") return first;
  for (const name of STREAM_NAMES) pumps[name].stop();
  return Promise.all(STREAM_NAMES.map((n) => pumps[n].done));
}

/** Every pipe reached actual EOF. */
export function drainedToEof(ends: readonly PumpEnd[]): boolean {
  return ends.every((end) => end === "eof");
}
