/**
 * Live receipts while a spilled capture runs: `live.json` is replaced at most every
 * `intervalMs`, and only when what it advertises changed, so an idle job costs no writes.
 *
 * @example
 * ```ts
 * import { systemClock } from "@spool/core";
 * import { createLivePublisher } from "./live-publisher.js"; // internal to @spool/core
 * declare const build: () => import("@spool/core").Receipt;
 * const live = createLivePublisher({ clock: systemClock, intervalMs: 250, build, publish: console.log });
 * live.start(); // publishes now, then on the interval
 * live.stop();
 * ```
 */
import type { Clock } from "./clock.js";
import type { Receipt } from "./receipt.js";
import { STREAM_NAMES } from "./receipt-vocabulary.js";

export interface LivePublisherOptions {
  readonly clock: Clock;
  /** @default 250 (set by the capture) */
  readonly intervalMs: number;
  /** The receipt as of now (no side effects). */
  readonly build: () => Receipt;
  readonly publish: (receipt: Receipt) => void;
}

export interface LivePublisher {
  /** Publish at once, then on the interval. Idempotent. */
  start(): void;
  /** No more publishing, ever. */
  stop(): void;
}

export function createLivePublisher(options: LivePublisherOptions): LivePublisher {
  let cancel: (() => void) | null = null;
  let stopped = false;
  let lastKey = "";
  const publishIfChanged = () => {
    const live = options.build();
    const key = liveKey(live);
    if (key === lastKey) return;
    lastKey = key;
    options.publish(live);
  };
  const schedule = () => {
    if (cancel || stopped) return;
    cancel = options.clock.setTimeout(() => {
      cancel = null;
      if (stopped) return;
      publishIfChanged();
      schedule();
    }, options.intervalMs);
  };
  return {
    start() {
      if (stopped) return;
      publishIfChanged();
      schedule();
    },
    stop() {
      stopped = true;
      cancel?.();
      cancel = null;
    },
  };
}

/** What a live receipt advertises, as far as a reader can tell the difference. */
function liveKey(live: Receipt): string {
  return [
    live.process?.state ?? live.source?.state,
    live.process?.pid,
    live.capture.reasons.join(","),
    ...STREAM_NAMES.map((n) => `${live.streams[n].produced}/${live.streams[n].committed}`),
  ].join(" ");
}
