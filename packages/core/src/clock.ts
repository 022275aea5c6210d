/**
 * Time as the framework sees it. Tests inject a manual clock instead of sleeping.
 *
 * @category capture
 * @example
 * ```ts
 * import { systemClock } from "@spool/core";
 * const cancel = systemClock.setTimeout(() => console.log("later"), 10);
 * cancel();
 * ```
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` after `ms`; returns a function that cancels it. */
  setTimeout(fn: () => void, ms: number): () => void;
}

/**
 * The real clock (`Date.now`, `setTimeout`); its timers do not keep the process alive.
 * Every `clock` option defaults to it.
 *
 * @category capture
 * @example
 * ```ts
 * import { systemClock } from "@spool/core";
 * const cancel = systemClock.setTimeout(() => console.log("late"), 5000);
 * cancel();
 * ```
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const timer = setTimeout(fn, ms);
    timer.unref?.();
    return () => clearTimeout(timer);
  },
};

/**
 * A clock that moves only when told to: `advance(ms)` fires what falls due, and
 * `pending` counts the timers not yet fired or cancelled.
 *
 * @category testing
 * @example
 * ```ts
 * import { createManualClock, type ManualClock } from "@spool/core/testing";
 * const clock: ManualClock = createManualClock(1_000);
 * clock.setTimeout(() => {}, 50);
 * clock.pending; // 1
 * clock.advance(50);
 * clock.now(); // 1050
 * ```
 */
export interface ManualClock extends Clock {
  advance(ms: number): void;
  readonly pending: number;
}

/**
 * A {@link ManualClock} starting at `start` ms: timers fire only inside `advance`.
 *
 * @category testing
 * @example
 * ```ts
 * import { createManualClock } from "@spool/core/testing";
 * const clock = createManualClock();
 * let fired = false;
 * clock.setTimeout(() => { fired = true; }, 100);
 * clock.advance(99); // fired === false
 * clock.advance(1); // fired === true
 * ```
 */
export function createManualClock(start = 0): ManualClock {
  let current = start;
  let nextId = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => current,
    setTimeout(fn, ms) {
      const id = nextId++;
      timers.set(id, { at: current + Math.max(0, ms), fn });
      return () => {
        timers.delete(id);
      };
    },
    advance(ms) {
      const target = current + ms;
      for (;;) {
        let due: [number, { at: number; fn: () => void }] | undefined;
        for (const entry of timers)
          if (entry[1].at <= target && (!due || entry[1].at < due[1].at)) due = entry;
        if (!due) break;
        timers.delete(due[0]);
        current = due[1].at;
        due[1].fn();
      }
      current = target;
    },
    get pending() {
      return timers.size;
    },
  };
}
