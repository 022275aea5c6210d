import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSyncClock } from "../../src/writer/sync-cadence.js";

describe("sync cadence", () => {
  it("a sync is due exactly when the unsynced bytes or their age reach the cadence", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1 << 20 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.array(
          fc.oneof(
            fc.record({ wrote: fc.integer({ min: 0, max: 1 << 18 }), after: fc.nat(2000) }),
            fc.record({ synced: fc.constant(true), after: fc.nat(2000) }),
          ),
          { maxLength: 60 },
        ),
        (bytes, ms, steps) => {
          let now = 0;
          const clock = createSyncClock({ bytes, ms }, () => now);
          let unsynced = 0;
          let oldest = 0;
          for (const step of steps) {
            now += step.after;
            if ("wrote" in step) {
              if (unsynced === 0 && step.wrote > 0) oldest = now;
              unsynced += step.wrote;
              clock.wrote(step.wrote);
            } else {
              unsynced = 0;
              clock.synced();
            }
            expect(clock.unsynced).toBe(unsynced);
            expect(clock.due()).toBe(unsynced > 0 && (unsynced >= bytes || now - oldest >= ms));
            const wait = clock.msUntilDue();
            expect(wait).toBe(unsynced === 0 ? null : Math.max(0, oldest + ms - now));
          }
        },
      ),
    );
  });
});
