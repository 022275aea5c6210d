import type { StoredCapture } from "@spool/core";
import { createManualClock } from "@spool/core/testing";
import { createStateWatch, skeletonReceipt } from "@spool/sinks";
import { describe, expect, it } from "vitest";

const ID = "WWWWWWWWWWWWWWWWWWWWWWWW";

/** A capture whose stdout commits `committed` bytes, live until `ended`. */
function source() {
  const at = { committed: 0, ended: false, reads: 0 };
  const read = async (captureId: string): Promise<StoredCapture> => {
    at.reads++;
    const base = skeletonReceipt(captureId, "/r", new Date(0).toISOString());
    const stdout = {
      ...base.streams.stdout,
      committed: at.committed,
      retained: { start: 0, end: at.committed },
    };
    return {
      captureId,
      condition: at.ended ? "final" : "live",
      receipt: { ...base, streams: { ...base.streams, stdout } },
      owner: null,
      job: null,
    };
  };
  return { at, read };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("createStateWatch", () => {
  it("shares one look per interval among all watchers, yields only moves, ends with the capture", async () => {
    const clock = createManualClock();
    const { at, read } = source();
    const hub = createStateWatch({ read, intervalMs: 20, clock });
    const seen: number[][] = [[], [], [], [], []];
    const done = seen.map(async (into) => {
      for await (const s of hub.watch(ID)) into.push(s.receipt.streams.stdout.committed);
    });
    await settle();
    expect(at.reads).toBe(5); // each watcher's own first look
    for (const committed of [0, 10, 10, 25]) {
      at.committed = committed;
      clock.advance(20);
      await settle();
    }
    // Four ticks, one shared look each, whatever the number of watchers.
    expect(at.reads).toBe(9);
    at.ended = true;
    clock.advance(20);
    await Promise.all(done);
    for (const s of seen) expect(s).toEqual([0, 10, 25, 25]);
    expect(hub.active).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it("is told instead of polling when it has no interval, and an abort ends a watch", async () => {
    const { at, read } = source();
    const hub = createStateWatch({ read, intervalMs: null });
    const stop = new AbortController();
    const seen: number[] = [];
    const done = (async () => {
      for await (const s of hub.watch(ID, { signal: stop.signal })) {
        seen.push(s.receipt.streams.stdout.committed);
        if (seen.length === 2) stop.abort();
      }
    })();
    await settle();
    at.committed = 7;
    hub.notify(ID);
    await done;
    expect(seen).toEqual([0, 7]);
    expect(hub.active).toBe(0);
  });
});
