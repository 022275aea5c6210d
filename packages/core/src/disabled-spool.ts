/**
 * The spool of a capture with persistence off on purpose (`persist: false`): its writers
 * take every byte and keep none, nothing is opened and nothing is written; the capture
 * settles `disabled` with its preview and receipt.
 *
 * @example
 * ```ts
 * import { createDisabledSpool } from "@spool/core";
 * const spool = createDisabledSpool();
 * spool.streams.stdout.offer([Buffer.from("gone")]); // "accepted"
 * ```
 */

import { SpoolError } from "./errors.js";
import type { CaptureSpool, StreamFinal, StreamWriter } from "./spool.js";

/**
 * The spool of a capture with persistence off on purpose (`persist: false`): its writers
 * take every byte and keep none, nothing is opened and nothing is written; the capture
 * settles `disabled` with its preview and receipt. A capture uses it by itself when
 * `persist` is false; use it directly for a {@link SpoolFactory} that never stores.
 *
 * @category storage
 * @example
 * ```ts
 * import { createDisabledSpool } from "@spool/core";
 * const spool = createDisabledSpool();
 * spool.streams.stdout.offer([Buffer.from("gone")]); // "accepted"
 * ```
 */
export function createDisabledSpool(): CaptureSpool {
  const writer = (): StreamWriter => ({
    offer: () => "accepted",
    ready: () => Promise.resolve(),
    flushed: () => Promise.resolve(),
    stop: () => {},
    watch: () => {},
    state: { committed: 0, queued: 0, stopped: null },
  });
  const none: StreamFinal = { committed: 0, sha256: null, ref: null, path: null, stopped: null };
  return {
    streams: { stdout: writer(), stderr: writer() },
    spilled: false,
    spill: () =>
      Promise.reject(new SpoolError("SPOOL_E_STATE", "disabled-spool", "persistence is off")),
    publishLive: async () => false,
    finish: async () => ({ stdout: none, stderr: none }),
    publishReceipt: async () => {},
    close: async () => {},
  };
}
