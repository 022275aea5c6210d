/**
 * Flat memory for a process that captures, whatever the size of the output.
 *
 * Three things grow with the length of a capture, not with what it holds:
 *
 * - **The young generation.** V8 doubles it (up to 2 × 16 MiB on Node 20) each time the
 *   bytes that survived scavenges since the last doubling pass its size. A capture keeps a
 *   few chunks in flight at every scavenge, so the total only grows: 8 MiB after 64 MiB
 *   of output, 32 MiB after 1 GiB. Once it reaches {@link YOUNG_CAP} the growth factor is
 *   pinned to 1 (a burst that doubles it twice between two looks leaves it pinned at
 *   twice the cap). Node resets that flag whenever a worker thread's heap is set up (the
 *   writer runs in one), so it is pinned again when a worker comes online.
 * - **The old generation.** Promoted garbage waits for a major collection, which V8 times
 *   by heuristics that let the old space run some megabytes above what is live. When the
 *   old space has grown {@link OLD_SLACK} above its lowest point since the last request, an
 *   incremental (concurrent) major collection is asked for.
 * - **Dead chunk buffers.** A chunk's bytes live outside the heap until a scavenge finds
 *   its wrapper dead. A capture past its byte ceiling reads and counts chunks without
 *   keeping them, allocating almost nothing on the heap, so scavenges are rare and tens of
 *   megabytes of dead buffers wait for V8's external-memory trigger (64 MiB). When external
 *   memory has grown {@link EXTERNAL_SLACK} above its low point, a scavenge is run.
 *
 * The heap is first looked at {@link FIRST_LOOK_MS} after the start, then every
 * {@link POLL_FAST_MS} while it changes, backing off to {@link POLL_SLOW_MS} while it does not
 * (an idle job wakes four times a second, as its `live.json` updates do; a longer
 * pause would let a burst after a quiet spell double the young generation unseen).
 *
 * Measured (`docs/benchmarks.md`, memory), peak RSS of a redacting `spool run` at 64 MiB,
 * 1 GiB and 4 GiB of log text: 84–86, 113–117 and 117–118 MiB before; 85–87, 88–91 and
 * 91–92 MiB with these bounds, for about 0.2 s more main-thread GC per GiB (a smaller
 * young generation is scavenged more often). Flags are process-wide, so the bounds are held
 * while any capture in the process is open and undone when the last one closes.
 */
import { createRequire } from "node:module";

// `node:v8` and `node:vm` cost ~1.5 ms to load beside the streams a capture has loaded
// (~8 ms in a bare Node): they are loaded at the first look, which a short command never
// reaches.
const load = createRequire(import.meta.url);
let v8Module: typeof import("node:v8") | undefined;
const v8 = () => (v8Module ??= load("node:v8") as typeof import("node:v8"));

/** The young generation's size (both semi-spaces) at which its growth is pinned. */
export const YOUNG_CAP = 8 * 1024 * 1024;
/** How far the old space may grow above its low point before a collection is asked for. */
export const OLD_SLACK = 2 * 1024 * 1024;
/** How far external memory may grow above its low point before a scavenge is run. */
export const EXTERNAL_SLACK = 8 * 1024 * 1024;
/** How often the heap is looked at while it changes. */
export const POLL_FAST_MS = 20;
/** The first look, after the start: a short command ends before it. */
export const FIRST_LOOK_MS = 250;
/** How often the heap is looked at at most while it does not change. */
export const POLL_SLOW_MS = 250;

/** What the policy reads of the heap. */
export interface HeapSample {
  /** Bytes reserved for the young generation (`new_space` size). */
  readonly young: number;
  /** Bytes used in the old space. */
  readonly oldUsed: number;
  /** Bytes held outside the heap by objects on it (chunk buffers among them). */
  readonly external: number;
}

/** What the policy remembers between samples. */
export interface HeapPolicyState {
  /** The young generation reached the cap and its growth is pinned. */
  pinned: boolean;
  /** The old space's lowest use since the last collection was asked for. */
  oldLow: number;
  /** External memory's lowest point since the last scavenge was run. */
  externalLow: number;
  /** The last sample, to tell a changing heap from a still one. */
  last: HeapSample | null;
}

/** What to do after a sample. */
export interface HeapAction {
  /** Pin the young generation's growth now (it just reached the cap). */
  readonly pin: boolean;
  /** Ask for an incremental major collection. */
  readonly collect: boolean;
  /** Run a scavenge (dead chunk buffers are freed with their wrappers). */
  readonly scavenge: boolean;
  /** The heap moved since the last sample: look again soon. */
  readonly changed: boolean;
}

/** The policy's state before the first sample: nothing pinned, no low points yet. */
export function initialHeapState(): HeapPolicyState {
  return {
    pinned: false,
    oldLow: Number.POSITIVE_INFINITY,
    externalLow: Number.POSITIVE_INFINITY,
    last: null,
  };
}

/**
 * The policy, on one sample: pure, so it is tested without a heap.
 *
 * @example
 * ```ts
 * const state = initialHeapState();
 * heapStep(state, { young: 8 << 20, oldUsed: 6 << 20, external: 0 }); // pin
 * heapStep(state, { young: 8 << 20, oldUsed: 9 << 20, external: 0 }); // collect
 * ```
 */
export function heapStep(state: HeapPolicyState, sample: HeapSample): HeapAction {
  const pin = !state.pinned && sample.young >= YOUNG_CAP;
  if (pin) state.pinned = true;
  state.oldLow = Math.min(state.oldLow, sample.oldUsed);
  const collect = sample.oldUsed - state.oldLow > OLD_SLACK;
  if (collect) state.oldLow = sample.oldUsed;
  state.externalLow = Math.min(state.externalLow, sample.external);
  const scavenge = sample.external - state.externalLow > EXTERNAL_SLACK;
  if (scavenge) state.externalLow = sample.external;
  const { last } = state;
  const changed =
    last === null ||
    last.young !== sample.young ||
    last.oldUsed !== sample.oldUsed ||
    last.external !== sample.external;
  state.last = sample;
  return { pin, collect, scavenge, changed };
}

/** The heap as V8 reports it; injectable for tests. */
export interface HeapControl {
  sample(): HeapSample;
  /** Set the young generation's growth factor (1: no growth, 2: V8's default). */
  youngGrowth(factor: 1 | 2): void;
  /** Ask for an incremental major collection; returns at once. */
  collect(): void;
  /** Run a scavenge of the young generation. */
  scavenge(): void;
}

type Gc = (options: { type: "major" | "minor"; execution?: "async" }) => void;
let exposedGc: Gc | undefined;

function gc(): Gc {
  if (!exposedGc) {
    // The flag gives `gc` to contexts made after it is set; it is cleared again so that no
    // later context (a `vm` sandbox) gets it.
    v8().setFlagsFromString("--expose-gc");
    const { runInNewContext } = load("node:vm") as typeof import("node:vm");
    exposedGc = runInNewContext("gc") as Gc;
    v8().setFlagsFromString("--no-expose-gc");
  }
  return exposedGc;
}

/** V8's own heap, through `node:v8` and the `gc` function of `--expose-gc`. */
export const v8Heap: HeapControl = {
  sample() {
    let young = 0;
    let oldUsed = 0;
    for (const space of v8().getHeapSpaceStatistics()) {
      if (space.space_name === "new_space") young = space.space_size;
      else if (space.space_name === "old_space") oldUsed = space.space_used_size;
    }
    return { young, oldUsed, external: v8().getHeapStatistics().external_memory };
  },
  youngGrowth(factor) {
    v8().setFlagsFromString(`--semi-space-growth-factor=${factor}`);
  },
  collect() {
    gc()({ type: "major", execution: "async" });
  },
  scavenge() {
    gc()({ type: "minor" });
  },
};

interface Hold {
  readonly heap: HeapControl;
  readonly state: HeapPolicyState;
  timer: NodeJS.Timeout | null;
  readonly onWorker: (worker: import("node:worker_threads").Worker) => void;
  holders: number;
}

let hold: Hold | null = null;

/** Look at the heap, act, and look again: soon while it changes, less often while it does not. */
function poll(h: Hold, delayMs: number): void {
  h.timer = setTimeout(() => {
    const { pin, collect, scavenge, changed } = heapStep(h.state, h.heap.sample());
    if (pin) h.heap.youngGrowth(1);
    if (collect) h.heap.collect();
    if (scavenge) h.heap.scavenge();
    if (hold === h) poll(h, changed ? POLL_FAST_MS : Math.min(2 * delayMs, POLL_SLOW_MS));
  }, delayMs);
  h.timer.unref();
}

/**
 * Hold the heap bounds while a capture runs; call the returned function when it ends. Nested
 * holds share one poller; the last release stops it and gives the young generation back
 * its default growth.
 *
 * @example
 * ```ts
 * const release = holdHeapBounds();
 * try { await capture.done; } finally { release(); }
 * ```
 */
export function holdHeapBounds(heap: HeapControl = v8Heap): () => void {
  if (hold) {
    hold.holders++;
  } else {
    const state = initialHeapState();
    // A worker's heap set-up resets the flag; pin it again once the worker is running.
    const onWorker = (worker: import("node:worker_threads").Worker) =>
      worker.once("online", () => {
        if (state.pinned) heap.youngGrowth(1);
      });
    process.on("worker", onWorker);
    hold = { heap, state, timer: null, onWorker, holders: 1 };
    poll(hold, FIRST_LOOK_MS);
  }
  let released = false;
  return () => {
    if (released || !hold) return;
    released = true;
    if (--hold.holders > 0) return;
    if (hold.timer) clearTimeout(hold.timer);
    process.off("worker", hold.onWorker);
    if (hold.state.pinned) hold.heap.youngGrowth(2);
    hold = null;
  };
}
