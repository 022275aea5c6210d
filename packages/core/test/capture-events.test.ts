import { describe, expect, it, vi } from "vitest";
import { createEventBus } from "../src/capture-events.js";

describe("capture events", () => {
  it("are read-only, multicast, built only while someone listens, and complete late subscribers", () => {
    const bus = createEventBus();
    const make = vi.fn(
      () => ({ type: "persistence-stopped", stream: "stdout", reason: "quota" }) as const,
    );
    bus.emit(make);
    expect(make).not.toHaveBeenCalled(); // nobody listens: not built
    const a: string[] = [];
    const b: string[] = [];
    const subA = bus.events.subscribe((e) => a.push(e.type));
    bus.events.subscribe({ next: (e) => b.push(e.type), complete: () => b.push("done") });
    expect("next" in bus.events).toBe(false);
    bus.emit(make);
    subA.unsubscribe();
    bus.emit(make);
    bus.complete();
    bus.emit(make);
    expect(a).toEqual(["persistence-stopped"]);
    expect(b).toEqual(["persistence-stopped", "persistence-stopped", "done"]);
    const late: string[] = [];
    bus.events.subscribe({ complete: () => late.push("done") });
    expect(late).toEqual(["done"]);
  });

  it("keep emitting when a subscriber throws (the error is reported on a later turn)", () => {
    const bus = createEventBus();
    const seen: string[] = [];
    bus.events.subscribe(() => {
      throw new Error("subscriber bug");
    });
    bus.events.subscribe((e) => seen.push(e.type));
    const later: (() => void)[] = [];
    const timer = vi
      .spyOn(globalThis, "setTimeout")
      .mockImplementation(((fn: () => void) => later.push(fn)) as unknown as typeof setTimeout);
    expect(() =>
      bus.emit(() => ({ type: "persistence-stopped", stream: "stderr", reason: "quota" })),
    ).not.toThrow();
    timer.mockRestore();
    expect(seen).toEqual(["persistence-stopped"]);
    expect(later).toHaveLength(1);
    expect(() => later[0]!()).toThrow(/subscriber bug/);
  });
});
