import { Readable } from "node:stream";
import { type CaptureEvent, DEFAULT_PREVIEW_BUDGET, ReceiptSchema, type Stage } from "@spool/core";
import { captureSource, createMemorySpool } from "@spool/sinks";
import { createPreviewTap, createUtf8Decoder, previewTapBudget } from "@spool/transforms";
import { from, lastValueFrom, Observable, toArray } from "rxjs";
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

describe("capture.events as rxjs", () => {
  const plan = () => ({
    stages: [createUtf8Decoder()],
    tap: createPreviewTap(previewTapBudget(64)),
  });
  const options = () => ({
    root: "/r",
    preview: DEFAULT_PREVIEW_BUDGET,
    redact: false, // a plan without a redactor: these tests are about events
    plan,
    spool: createMemorySpool().factory,
  });

  it("is an rxjs Observable: from() completes with every event of a source capture, start first", async () => {
    const capture = captureSource({
      ...options(),
      stdout: Readable.from([Buffer.from("a\n")]),
      declared: "complete",
    });
    expect(capture.events).toBeInstanceOf(Observable);
    const all = lastValueFrom(from(capture.events).pipe(toArray()));
    const types = (await all).map((e) => e.type);
    expect(types).toEqual(["start", "exit", "final"]);
  });

  it("delivers to a class-based observer (methods on its prototype) and to for await", async () => {
    class Recorder {
      seen: string[] = [];
      next(e: CaptureEvent) {
        this.seen.push(e.type);
      }
      complete() {
        this.seen.push("complete");
      }
    }
    const recorder = new Recorder();
    const capture = captureSource({
      ...options(),
      stdout: Readable.from([Buffer.from("a\n")]),
      declared: "complete",
    });
    capture.events.subscribe(recorder);
    const iterated: string[] = [];
    for await (const e of capture.events) iterated.push(e.type);
    await capture.done;
    expect(recorder.seen).toEqual(["start", "exit", "final", "complete"]);
    expect(iterated).toEqual(["start", "exit", "final"]);
  });

  it("refuses a plan whose streams share a stage instance, before reading the source", () => {
    const shared = createUtf8Decoder();
    const tap = () => createPreviewTap(previewTapBudget(64));
    const source = Readable.from([Buffer.from("a\n")]);
    expect(() =>
      captureSource(source, { ...options(), plan: () => ({ stages: [shared], tap: tap() }) }),
    ).toThrow(/share a stage instance/);
    expect(source.readableFlowing).toBe(null); // never read
  });

  it("a stage that throws is an event and a receipt reason naming the stage, with bytes accounted", async () => {
    let pushes = 0;
    const brittle = (): Stage => ({
      name: "brittle",
      held: 0,
      push(batch) {
        if (++pushes === 2) throw new Error("cannot parse line 2");
        return [...batch];
      },
      end: () => [],
    });
    async function* parts() {
      yield Buffer.from("one\n");
      yield Buffer.from("two\n");
      yield Buffer.from("three\n");
    }
    const capture = captureSource({
      ...options(),
      plan: () => ({ stages: [brittle()], tap: createPreviewTap(previewTapBudget(64)) }),
      stdout: parts(),
      declared: "complete",
    });
    const events = lastValueFrom(from(capture.events).pipe(toArray()));
    const { receipt } = await capture.done;
    expect((await events).filter((e) => e.type === "stage-error")).toEqual([
      { type: "stage-error", stream: "stdout", stage: "brittle", message: "cannot parse line 2" },
    ]);
    expect(receipt.capture).toEqual({
      state: "partial",
      reasons: ["stage-error"],
      stageError: {
        stream: "stdout",
        stage: "brittle",
        message: "cannot parse line 2",
        heldBytes: 0,
      },
    });
    expect(receipt.streams.stdout.raw).toEqual({
      observed: 14,
      accepted: 4,
      pending: 0,
      discarded: 10,
    });
    expect(receipt.streams.stdout.produced).toBe(4);
    ReceiptSchema.parse(receipt);
  });
});
