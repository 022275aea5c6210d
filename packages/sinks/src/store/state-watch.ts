/**
 * `CaptureStore.watch` for any store: one look per capture shared by every watcher of
 * it. The store says how it learns of changes: polling every `intervalMs` (the file
 * store: nothing tells a reader that `live.json` was replaced or an owner died), or
 * being told through {@link StateWatch.notify} (the memory store: its writer commits in
 * process), or both. Each watcher gets the current state at once, then every state whose
 * advertised position moved ({@link stateSignature}); states supersede each other, so a
 * slow watcher skips to the newest instead of queueing.
 *
 * @example
 * ```ts
 * import { createStateWatch } from "@spool/sinks";
 * import type { StoredCapture } from "@spool/core";
 * declare const look: (captureId: string) => Promise<StoredCapture>;
 * const watch = createStateWatch({ read: look, intervalMs: 20 });
 * for await (const state of watch.watch("AAAAAAAAAAAAAAAAAAAAAAAA")) console.log(state.condition);
 * ```
 */
import type { Clock, StoredCapture, WatchOptions } from "@spool/core/runtime";
import { producerOf } from "@spool/core/runtime";

/**
 * Options of {@link createStateWatch}: how to look at a capture, and how often.
 *
 * @category storage
 * @example
 * ```ts
 * import { createFileStore, type StateWatchOptions } from "@spool/sinks";
 * const store = createFileStore({ root: "/home/me/.spool" });
 * const options: StateWatchOptions = { read: (id) => store.state(id), intervalMs: 100 };
 * ```
 */
export interface StateWatchOptions {
  /** One look at a capture (the store's `state`). */
  readonly read: (captureId: string) => Promise<StoredCapture>;
  /** Look again this often while anyone watches; null: only when told (`notify`). @default 20 */
  readonly intervalMs?: number | null;
  /**
   * Timers. The default keeps the process alive while a watcher waits (a CLI `wait` has
   * nothing else to keep it alive), unlike `systemClock`, whose timers are unref'd.
   * @default a ref'd clock over `setTimeout`
   */
  readonly clock?: Clock;
}

/**
 * Shared watching of captures ({@link createStateWatch}): one look per capture however
 * many watch it; what a store's `watch` is built on.
 *
 * @category storage
 * @example
 * ```ts
 * import type { StateWatch } from "@spool/sinks";
 * declare const watch: StateWatch;
 * for await (const state of watch.watch("AAAAAAAAAAAAAAAAAAAAAAAA")) console.log(state.condition);
 * ```
 */
export interface StateWatch {
  /** The states of `captureId`, as `CaptureStore.watch` specifies. */
  watch(captureId: string, options?: WatchOptions): AsyncIterable<StoredCapture>;
  /** Something about `captureId` may have changed: look now (coalesced within a microtask). */
  notify(captureId: string): void;
  /** How many captures are being looked at (for tests: 0 once every watcher left). */
  readonly active: number;
}

/**
 * What a watcher compares: the parts of a state that a follower acts on (condition,
 * producer and capture state, each stream's committed and retained bytes).
 *
 * @category storage
 * @example
 * ```ts
 * import { stateSignature } from "@spool/sinks";
 * import type { StoredCapture } from "@spool/core";
 * declare const before: StoredCapture;
 * declare const after: StoredCapture;
 * const moved = stateSignature(before) !== stateSignature(after);
 * ```
 */
export function stateSignature(state: StoredCapture): string {
  const r = state.receipt;
  const streams = [r.streams.stdout, r.streams.stderr].map(
    (s) => `${s.committed}:${s.retained?.start ?? "-"}:${s.retained?.end ?? "-"}:${s.ref ?? "-"}`,
  );
  return `${state.condition}|${producerOf(r).state}|${r.capture.state}|${streams.join("|")}`;
}

type Listener = (next: { state: StoredCapture } | { error: unknown }) => void;

interface Look {
  readonly listeners: Set<Listener>;
  cancelTimer: (() => void) | null;
  reading: boolean;
  again: boolean;
}

const refClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

/**
 * Watch captures by looking at them (every `intervalMs`, or when told through `notify`),
 * sharing one look among every watcher of a capture: the `CaptureStore.watch` of a store
 * that has no push notifications of its own.
 *
 * @category storage
 * @example
 * ```ts
 * import { createFileStore, createStateWatch } from "@spool/sinks";
 * const store = createFileStore({ root: "/home/me/.spool" });
 * const watcher = createStateWatch({ read: (id) => store.state(id) });
 * for await (const state of watcher.watch("AAAAAAAAAAAAAAAAAAAAAAAA")) {
 *   if (state.condition !== "live") break;
 * }
 * ```
 */
export function createStateWatch(options: StateWatchOptions): StateWatch {
  const intervalMs = options.intervalMs === undefined ? 20 : options.intervalMs;
  const clock = options.clock ?? refClock;
  const looks = new Map<string, Look>();

  const schedule = (id: string, look: Look) => {
    if (intervalMs === null || look.cancelTimer !== null) return;
    look.cancelTimer = clock.setTimeout(() => {
      look.cancelTimer = null;
      void tick(id, look);
    }, intervalMs);
  };

  const tick = async (id: string, look: Look): Promise<void> => {
    if (look.reading) {
      look.again = true;
      return;
    }
    look.reading = true;
    let next: { state: StoredCapture } | { error: unknown };
    try {
      next = { state: await options.read(id) };
    } catch (error) {
      next = { error };
    }
    look.reading = false;
    for (const listener of look.listeners) listener(next);
    if (look.listeners.size === 0) return;
    if (look.again) {
      look.again = false;
      void tick(id, look);
    } else schedule(id, look);
  };

  const join = (id: string, listener: Listener): (() => void) => {
    let look = looks.get(id);
    if (look === undefined) {
      look = { listeners: new Set(), cancelTimer: null, reading: false, again: false };
      looks.set(id, look);
    }
    look.listeners.add(listener);
    schedule(id, look);
    const joined = look;
    return () => {
      joined.listeners.delete(listener);
      if (joined.listeners.size > 0) return;
      joined.cancelTimer?.();
      joined.cancelTimer = null;
      if (looks.get(id) === joined) looks.delete(id);
    };
  };

  return {
    watch(captureId, watchOptions = {}) {
      return watchStates(captureId, options.read, join, watchOptions.signal);
    },
    notify(captureId) {
      const look = looks.get(captureId);
      if (look === undefined) return;
      look.cancelTimer?.();
      look.cancelTimer = null;
      queueMicrotask(() => void tick(captureId, look));
    },
    get active() {
      return looks.size;
    },
  };
}

/** One watcher: its own first look, then the shared looks, filtered by what it last yielded. */
async function* watchStates(
  captureId: string,
  read: (captureId: string) => Promise<StoredCapture>,
  join: (id: string, listener: Listener) => () => void,
  signal: AbortSignal | undefined,
): AsyncGenerator<StoredCapture> {
  if (signal?.aborted) return;
  let latest: { state: StoredCapture } | { error: unknown } | null = null;
  let wake: (() => void) | null = null;
  const poke = () => {
    wake?.();
    wake = null;
  };
  const leave = join(captureId, (next) => {
    latest = next;
    poke();
  });
  signal?.addEventListener("abort", poke, { once: true });
  try {
    let state = await read(captureId);
    let seen = stateSignature(state);
    yield state;
    while (state.condition === "live" && !signal?.aborted) {
      const next = latest as { state: StoredCapture } | { error: unknown } | null;
      latest = null;
      if (next === null) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        continue;
      }
      if ("error" in next) throw next.error;
      if (stateSignature(next.state) === seen) continue;
      state = next.state;
      seen = stateSignature(state);
      yield state;
    }
  } finally {
    signal?.removeEventListener("abort", poke);
    leave();
  }
}
