/**
 * The drain window after the direct child exits (`drain.ts`), on a manual clock: a silent
 * pipe is cut at the window, a pipe with bytes still to hand on at the window's end gets
 * more windows (a reader starved of CPU), but never more than a bounded few, and a reader
 * paused by its own writer is never cut.
 */
import type { PumpEnd, StreamPump } from "@spool/core";
import { createManualClock } from "@spool/core/testing";
import { describe, expect, it } from "vitest";
import { drainPumps } from "../src/drain.js";

/** A pump that never ends by itself; `pending`/`waiting` are set by the test. */
function fakePump() {
  let settle: (end: PumpEnd) => void = () => {};
  const pump = {
    done: new Promise<PumpEnd>((resolve) => {
      settle = resolve;
    }),
    waiting: false,
    pending: false,
    stopped: false,
    stop() {
      pump.stopped = true;
      settle("stopped");
    },
    eof: () => settle("eof"),
  };
  return pump satisfies StreamPump;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Advance the clock in window-sized steps until the drain settles; the steps it took. */
async function windowsUntilSettled(
  pumps: { stdout: StreamPump; stderr: StreamPump },
  ms: number,
  each: (window: number) => void = () => {},
) {
  const clock = createManualClock();
  let ends: PumpEnd[] | null = null;
  void drainPumps(pumps, ms, clock).then((e) => {
    ends = e;
  });
  for (let window = 1; window <= 100; window++) {
    each(window);
    clock.advance(ms);
    await turn();
    await turn();
    if (ends !== null) return { window, ends: ends as PumpEnd[] };
  }
  return { window: Number.POSITIVE_INFINITY, ends: [] as PumpEnd[] };
}

describe("drainPumps", () => {
  it("cuts a silent pipe at the first window", async () => {
    const stdout = fakePump();
    const stderr = fakePump();
    const r = await windowsUntilSettled({ stdout, stderr }, 1000);
    expect(r).toEqual({ window: 1, ends: ["stopped", "stopped"] });
    expect(stdout.stopped && stderr.stopped).toBe(true);
  });

  it("ends at EOF inside the window without stopping anything", async () => {
    const stdout = fakePump();
    const stderr = fakePump();
    const r = await windowsUntilSettled({ stdout, stderr }, 1000, () => {
      stdout.eof();
      stderr.eof();
    });
    expect(r).toEqual({ window: 1, ends: ["eof", "eof"] });
    expect(stdout.stopped || stderr.stopped).toBe(false);
  });

  it("extends a window that ends with bytes still to hand on, then reaches EOF", async () => {
    const stdout = fakePump();
    const stderr = fakePump();
    stderr.eof();
    const r = await windowsUntilSettled({ stdout, stderr }, 1000, (window) => {
      stdout.pending = window < 3; // starved: the last bytes are read late
      if (window === 3) stdout.eof();
    });
    expect(r).toEqual({ window: 3, ends: ["eof", "eof"] });
  });

  it("cuts a pipe that keeps delivering after a bounded number of extra windows", async () => {
    const stdout = fakePump();
    const stderr = fakePump();
    stdout.pending = true; // a descendant writing without end
    const r = await windowsUntilSettled({ stdout, stderr }, 1000);
    expect(r.ends).toEqual(["stopped", "stopped"]);
    expect(r.window).toBe(5);
  });

  it("never cuts a reader paused by its own writer (bounded by the stall budget)", async () => {
    const stdout = fakePump();
    const stderr = fakePump();
    stdout.waiting = true;
    stderr.eof();
    const r = await windowsUntilSettled({ stdout, stderr }, 1000, (window) => {
      if (window === 20) stdout.eof();
    });
    expect(r).toEqual({ window: 20, ends: ["eof", "eof"] });
  });
});
