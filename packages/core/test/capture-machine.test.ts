/**
 * The capture state machine on a manual clock with a fake child: timeout escalation,
 * cancellation, the drain window, spill decisions and spawn failures, with no sleeping
 * and no real process (the real-process tests are in capture.test.ts).
 */
import { PassThrough } from "node:stream";
import {
  type CaptureOptions,
  type ChildEvents,
  DEFAULT_PREVIEW_BUDGET,
  type Logger,
  ReceiptSchema,
  type SpawnChild,
} from "@spool/core";
import { runCommandCapture } from "@spool/core/internal";
import { createManualClock, type ManualClock } from "@spool/core/testing";
import { createMemorySpool } from "@spool/sinks";
import { createPreviewTap, createUtf8Decoder, previewTapBudget } from "@spool/transforms";
import { describe, expect, it } from "vitest";

interface FakeChild {
  readonly spawn: SpawnChild;
  readonly signals: NodeJS.Signals[];
  readonly stdout: PassThrough;
  readonly stderr: PassThrough;
  /** The child's side of the events, once spawned. */
  events(): ChildEvents;
  /** Close both pipes and exit. */
  exit(code: number | null, signal?: NodeJS.Signals | null): void;
}

/** A child that only does what the test tells it; it reports like Node does (later, never inside spawn). */
function fakeChild(how: { fails?: { code: string; syscall: string } } = {}): FakeChild {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const signals: NodeJS.Signals[] = [];
  let events: ChildEvents | null = null;
  const spawn: SpawnChild = (_request, e) => {
    events = e;
    queueMicrotask(() => {
      if (!how.fails) return e.spawned(4242);
      stdout.end();
      stderr.end();
      e.failed(how.fails);
    });
    return { stdout, stderr, signal: (s) => signals.push(s) };
  };
  return {
    spawn,
    signals,
    stdout,
    stderr,
    events: () => events!,
    exit(code, signal = null) {
      stdout.end();
      stderr.end();
      events!.exited(code, signal);
    },
  };
}

const BUDGET = { ...DEFAULT_PREVIEW_BUDGET, stdoutChars: 64, stderrChars: 64, maxBytes: 100 };

function capture(child: FakeChild, clock: ManualClock, extra: Partial<CaptureOptions> = {}) {
  const memory = createMemorySpool({ clock });
  const c = runCommandCapture({
    command: "fake",
    args: [],
    root: "/r",
    preview: BUDGET,
    plan: () => ({ stages: [createUtf8Decoder()], tap: createPreviewTap(previewTapBudget(64)) }),
    spool: memory.factory,
    clock,
    spawn: child.spawn,
    ...extra,
  });
  let settled = false;
  void c.done.then(() => {
    settled = true;
  });
  return { c, memory, settled: () => settled };
}

/** Let pending callbacks (pipe data, promise chains) run; time does not move. */
async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

describe("capture state machine (manual clock, fake child)", () => {
  it("times out with SIGTERM, escalates to SIGKILL after the grace period, exits 124", async () => {
    const clock = createManualClock();
    const child = fakeChild();
    const { c } = capture(child, clock, { timeoutMs: 1000, killGraceMs: 500 });
    await flush();
    clock.advance(999);
    expect(child.signals).toEqual([]);
    clock.advance(1);
    expect(child.signals).toEqual(["SIGTERM"]);
    clock.advance(499);
    expect(child.signals).toEqual(["SIGTERM"]);
    clock.advance(1);
    expect(child.signals).toEqual(["SIGTERM", "SIGKILL"]);
    child.exit(null, "SIGKILL");
    const { receipt, exitStatus } = await c.done;
    expect(receipt.process).toMatchObject({
      state: "timeout",
      signal: "SIGKILL",
      reason: "timed out after 1000 ms",
      pid: 4242,
    });
    expect(receipt.process.spawnError).toBeUndefined();
    expect(exitStatus).toBe(124);
    expect(receipt.capture).toEqual({ state: "complete", reasons: [] });
  });

  it("sends no SIGKILL to a child that left on SIGTERM (the escalation is cancelled at exit)", async () => {
    const clock = createManualClock();
    const child = fakeChild();
    const { c } = capture(child, clock, { killGraceMs: 500 });
    await flush();
    c.cancel();
    expect(child.signals).toEqual(["SIGTERM"]);
    child.exit(null, "SIGTERM");
    const { receipt, exitStatus } = await c.done;
    clock.advance(10_000);
    expect(child.signals).toEqual(["SIGTERM"]);
    expect(clock.pending).toBe(0);
    expect(receipt.process).toMatchObject({ state: "cancelled", reason: "cancelled" });
    expect(exitStatus).toBe(143);
  });

  it("ends the drain window at drainMs when a descendant keeps a pipe: partial, drain-timeout", async () => {
    const clock = createManualClock();
    const child = fakeChild();
    const { c, settled } = capture(child, clock, { drainMs: 300 });
    await flush();
    child.stdout.write("early\n");
    child.events().exited(0, null); // the pipes stay open
    await flush();
    clock.advance(299);
    await flush();
    expect(settled()).toBe(false);
    clock.advance(1);
    const { receipt, exitStatus } = await c.done;
    expect(exitStatus).toBe(0);
    expect(receipt.capture).toEqual({ state: "partial", reasons: ["drain-timeout"] });
    expect(receipt.preview.text).toBe("early\n");
    expect(receipt.streams.stdout.raw.pending).toBe(0);
    ReceiptSchema.parse(receipt);
  });

  it("keeps a result that fits inline: no storage, committed = produced, sha256 of the bytes", async () => {
    const clock = createManualClock();
    const child = fakeChild();
    const { c, memory } = capture(child, clock);
    await flush();
    child.stdout.write("a".repeat(50));
    child.stderr.write("b".repeat(34)); // 50 + 34 + the stderr header (16) = 100 bytes
    await flush();
    child.exit(0);
    const { receipt } = await c.done;
    expect(receipt.capture.state).toBe("complete");
    expect(receipt.preview.state).toBe("complete");
    expect(receipt.streams.stdout).toMatchObject({
      ref: null,
      committed: 50,
      retained: { end: 50 },
    });
    expect(receipt.streams.stdout.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(memory.receipt(c.captureId)).toBeUndefined();
  });

  it("stores at the end when the stderr header would not fit the byte ceiling", async () => {
    const clock = createManualClock();
    const child = fakeChild();
    const { c, memory } = capture(child, clock);
    await flush();
    child.stdout.write("a".repeat(50));
    child.stderr.write("b".repeat(35)); // 101 bytes with the header: one too many
    await flush();
    expect(c.receipt().streams.stdout.ref).toBeNull(); // not outgrown while running
    child.exit(0);
    const { receipt } = await c.done;
    expect(receipt.capture.state).toBe("complete");
    expect(receipt.streams.stdout.ref).toBe(`tool-outputs/${c.captureId}/stdout.txt`);
    expect(memory.bytes(c.captureId, "stderr").toString()).toBe("b".repeat(35));
    expect(memory.receipt(c.captureId)).toEqual(receipt);
  });

  it("spills while running once the bytes outgrow the preview, held bytes first", async () => {
    const clock = createManualClock();
    const child = fakeChild();
    const { c, memory } = capture(child, clock);
    await flush();
    child.stdout.write("x".repeat(64));
    await flush();
    expect(c.receipt().streams.stdout.ref).toBeNull();
    child.stdout.write("y");
    await flush();
    const live = c.receipt();
    expect(live.streams.stdout).toMatchObject({
      ref: `tool-outputs/${c.captureId}/stdout.live`,
      path: null, // the memory spool keeps no files
      committed: 65,
    });
    expect(live.capture.state).toBe("pending");
    child.exit(0);
    const { receipt } = await c.done;
    expect(memory.bytes(c.captureId, "stdout").toString()).toBe(`${"x".repeat(64)}y`);
    expect(receipt.streams.stdout.committed).toBe(65);
  });

  it("opens storage on a promotion while running; refuses one after settling without storage", async () => {
    const clock = createManualClock();
    const running = fakeChild();
    const job = capture(running, clock);
    await flush();
    running.stdout.write("small");
    await flush();
    expect(await job.c.spill()).toBe(true);
    expect(job.c.receipt().streams.stdout.ref).toBe(`tool-outputs/${job.c.captureId}/stdout.live`);
    running.exit(0);
    expect((await job.c.done).receipt.streams.stdout.ref).toBe(
      `tool-outputs/${job.c.captureId}/stdout.txt`,
    );

    const settled = fakeChild();
    const inline = capture(settled, clock);
    await flush();
    settled.stdout.write("small");
    await flush();
    settled.exit(0);
    await inline.c.done;
    expect(await inline.c.spill()).toBe(false);
    expect(inline.memory.receipt(inline.c.captureId)).toBeUndefined();
  });

  it("reports a spawn failure as fields: spawnError, exit 126 for EACCES, no drain-timeout", async () => {
    const clock = createManualClock();
    const child = fakeChild({ fails: { code: "EACCES", syscall: "spawn" } });
    const { c } = capture(child, clock);
    const { receipt, exitStatus } = await c.done;
    expect(receipt.process).toMatchObject({
      state: "exited",
      pid: null,
      reason: "spawn failed: EACCES",
      spawnError: { code: "EACCES", syscall: "spawn" },
    });
    expect(exitStatus).toBe(126);
    expect(receipt.capture).toEqual({ state: "complete", reasons: [] });
    ReceiptSchema.parse(receipt);
  });

  it("hands each stream's plan the capture's one preview budget", async () => {
    const clock = createManualClock();
    const child = fakeChild();
    const asked: [string, unknown][] = [];
    const { c } = capture(child, clock, {
      plan: (stream, budget) => {
        asked.push([stream, budget]);
        return { stages: [], tap: createPreviewTap(previewTapBudget(64)) };
      },
    });
    expect(asked).toEqual([
      ["stdout", BUDGET],
      ["stderr", BUDGET],
    ]);
    expect(asked[0]![1]).toBe(BUDGET);
    await flush();
    child.exit(0);
    expect((await c.done).receipt.preview.budget).toEqual(BUDGET);
  });

  it("building a receipt logs nothing and emits nothing; transitions do, once each", async () => {
    const clock = createManualClock();
    const child = fakeChild();
    const lines: string[] = [];
    const logger = {
      info: (o: { event: string }) => lines.push(o.event),
      warn: (o: { event: string }) => lines.push(o.event),
      error: (o: { event: string }) => lines.push(o.event),
    } as unknown as Logger;
    const memory = createMemorySpool({ clock, queue: { budgetBytes: 64 * 1024 } });
    const c = runCommandCapture({
      command: "fake",
      args: [],
      root: "/r",
      preview: BUDGET,
      plan: () => ({ stages: [], tap: createPreviewTap(previewTapBudget(64)) }),
      spool: memory.factory,
      clock,
      spawn: child.spawn,
      logger,
    });
    const events: string[] = [];
    c.events.subscribe((e) => events.push(e.type));
    await flush();
    child.stdout.write("z".repeat(200));
    await flush();
    const before = [lines.length, events.length];
    for (let i = 0; i < 3; i++) c.receipt();
    expect([lines.length, events.length]).toEqual(before);
    child.exit(0);
    await c.done;
    expect(events).toEqual(["start", "spill", "exit", "final"]);
    expect(lines).toEqual(["start", "spill", "finalize"]);
  });
});
