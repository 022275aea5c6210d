/**
 * The drain after the direct child exits: wait for actual EOF on every pipe, or for the
 * window to run out (a descendant still holds a pipe), then stop the pumps that are left.
 * A window that ends with bytes read and not yet handed on is extended, at most
 * {@link MAX_EXTENSIONS} times: the reader may have been starved of CPU (many captures on
 * few cores) with the exited child's last bytes and the pipe's EOF still to read, while a
 * silent descendant holding the pipe delivers nothing and is cut at the first window.
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
  let settled = false;
  let extensions = 0;
  const timeout = new Promise<"timeout">((resolve) => {
    const arm = () => {
      cancel = clock.setTimeout(() => {
        // Timers run before a turn's I/O: decide after one turn, so what was already
        // waiting in the pipe (its EOF among it) is seen first.
        setImmediate(() => {
          if (settled) return;
          // Time the reader spends paused by its own writer queue is not a descendant
          // holding the pipe: a slow disk must not turn into drain-timeout. That pause is
          // bounded by the queue's stall budget, so the window is only extended, never endless.
          if (STREAM_NAMES.some((n) => pumps[n].waiting)) arm();
          else if (STREAM_NAMES.some((n) => pumps[n].pending) && extensions < MAX_EXTENSIONS) {
            extensions++;
            arm();
          } else resolve("timeout");
        });
      }, ms);
    };
    arm();
  });
  const all = Promise.all(STREAM_NAMES.map((n) => pumps[n].done));
  const first = await Promise.race([all, timeout]);
  settled = true;
  cancel();
  if (first !== "timeout") return first;
  for (const name of STREAM_NAMES) pumps[name].stop();
  return Promise.all(STREAM_NAMES.map((n) => pumps[n].done));
}

/** Windows added to the drain while pipes still deliver bytes (see the file's comment). */
const MAX_EXTENSIONS = 4;

/** Every pipe reached actual EOF. */
export function drainedToEof(ends: readonly PumpEnd[]): boolean {
  return ends.every((end) => end === "eof");
}
