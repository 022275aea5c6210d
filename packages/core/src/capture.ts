/**
 * Capture orchestration: run a child without a shell, be the sole reader of both of its
 * pipes, push each stream through its stages into its writer from the first byte,
 * spill to storage once output outgrows the preview, and settle the process, capture
 * and preview states independently into one receipt.
 *
 * @example
 * ```ts
 * import { startCapture } from "@spool/core";
 * declare const options: import("@spool/core").CaptureOptions;
 * const capture = startCapture({ ...options, command: "make", args: ["test"] });
 * const { receipt, exitStatus } = await capture.done;
 * ```
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { constants as osConstants } from "node:os";
import type { Readable } from "node:stream";
import type { Subject } from "rxjs";
import { type Clock, systemClock } from "./clock.js";
import { newCaptureId } from "./ids.js";
import { ledgerBalances } from "./ledger.js";
import type { Logger } from "./logger.js";
import { type PreviewBudget, type PreviewSnapshot, renderPreview } from "./preview.js";
import type { ProcessReceipt, Receipt, StreamReceipt } from "./receipt.js";
import {
  type CaptureReason,
  type CaptureState,
  type Representation,
  STREAM_NAMES,
  type StreamName,
} from "./receipt-vocabulary.js";
import type { CaptureSpool, SpillInfo, SpoolFactory, StreamFinal } from "./spool.js";
import { type Stage, sumCounters } from "./stage.js";
import {
  createStreamPipeline,
  pumpStream,
  type StreamPipeline,
  type StreamPump,
} from "./stream-pipeline.js";

/** A stage that also keeps the bounded head and tail the preview shows. */
export interface PreviewTap extends Stage {
  snapshot(): PreviewSnapshot;
}

/** The stages of one stream, ending with its preview tap. */
export interface StreamPlan {
  readonly stages: readonly Stage[];
  readonly tap: PreviewTap;
  /** "binary" keeps raw bytes (`--binary keep`). @default "text" */
  readonly representation?: "text" | "binary";
}

export interface CaptureOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Absolute root the spool lives under (reported in the receipt). */
  readonly root: string;
  /** @default a fresh random id */
  readonly captureId?: string;
  /** @default null */
  readonly callId?: string | null;
  /** Already sanitized; null to omit. @default null */
  readonly label?: string | null;
  /** Kill the process group after this long; null for none. @default null */
  readonly timeoutMs?: number | null;
  /** How long to keep draining pipes after the direct child exits. @default 1000 */
  readonly drainMs?: number;
  /** Between SIGTERM and SIGKILL. @default 2000 */
  readonly killGraceMs?: number;
  readonly preview: PreviewBudget;
  /** Fresh stages for each stream. */
  readonly plan: (stream: StreamName) => StreamPlan;
  readonly spool: SpoolFactory;
  /** How often `live.json` may be replaced while running (only when something changed). @default 250 */
  readonly liveIntervalMs?: number;
  /**
   * Open storage at launch instead of when output outgrows the preview, so a background
   * job has its directory, `.live` files and `live.json` (live refs) from the start.
   * @default false
   */
  readonly spillAtStart?: boolean;
  /** @default "ignore" (the child's stdin is /dev/null) */
  readonly stdin?: "ignore" | "inherit";
  readonly clock?: Clock;
  readonly logger?: Logger;
}

export type CaptureEvent =
  | { type: "start"; receipt: Receipt }
  | { type: "spill"; receipt: Receipt }
  | { type: "persistence-stopped"; stream: StreamName; reason: CaptureReason }
  | { type: "exit"; receipt: Receipt }
  | { type: "final"; receipt: Receipt };

export interface CaptureResult {
  receipt: Receipt;
  /** What `spool run` exits with: the child's code, 128+signal, 124 on timeout, 126/127 on spawn failure. */
  exitStatus: number;
}

export interface Capture {
  readonly captureId: string;
  /** Lifecycle events; completes after "final". */
  readonly events: Subject<CaptureEvent>;
  /** The receipt as of now. */
  receipt(): Receipt;
  /** Signal the process group (escalating to SIGKILL after the grace period). */
  cancel(signal?: NodeJS.Signals): void;
  /**
   * Open storage now (promotion of a foreground run to a job): the bytes the writer queue
   * holds flow first, then the rest, so the file is the same as if it had spilled on its
   * own. Resolves true once spilled, false if the capture is already finalizing or storage
   * is unavailable.
   */
  spill(): Promise<boolean>;
  readonly done: Promise<CaptureResult>;
}

export function startCapture(options: CaptureOptions): Capture {
  const clock = options.clock ?? systemClock;
  const log = options.logger;
  const captureId = options.captureId ?? newCaptureId();
  const drainMs = options.drainMs ?? 1000;
  const graceMs = options.killGraceMs ?? 2000;
  const startedAt = clock.now();
  // Lifecycle events cost nothing until someone asks for them: the Subject (and rxjs) is
  // created on first access, and no event receipt is built while nobody listens.
  const bus: { subject: Subject<CaptureEvent> | null; completed: boolean } = {
    subject: null,
    completed: false,
  };
  const emit = (make: () => CaptureEvent) => bus.subject?.next(make());
  const spool: CaptureSpool = options.spool({ captureId, root: options.root, startedAt });

  const proc: ProcessReceipt = {
    state: "running",
    exitCode: null,
    signal: null,
    reason: null,
    pid: null,
    startedAt: new Date(startedAt).toISOString(),
    endedAt: null,
  };
  const reasons = new Set<CaptureReason>();
  let captureState: CaptureState = "pending";
  let spill: SpillInfo | null = null;
  let spillFailed = false;
  let finals: Record<StreamName, StreamFinal> | null = null;
  let spawnErrno: string | null = null;
  let cancelledBy: "cancel" | "timeout" | null = null;

  const plans = { stdout: options.plan("stdout"), stderr: options.plan("stderr") };
  const pipelines = {} as Record<StreamName, StreamPipeline>;
  for (const name of STREAM_NAMES) {
    const plan = plans[name];
    pipelines[name] = createStreamPipeline({
      name,
      stages: [...plan.stages, plan.tap],
      writer: spool.streams[name],
      onProduced: maybeSpill,
      onStageError: (stream, error) => {
        log?.error(
          { event: "stage-error", stream, err: String((error as Error)?.message ?? error) },
          "stage failed",
        );
      },
    });
  }

  function maybeSpill(): void {
    if (spool.spilled || spillFailed) return;
    const out = pipelines.stdout.ledger.snapshot().produced;
    const err = pipelines.stderr.ledger.snapshot().produced;
    if (
      out > options.preview.stdoutChars ||
      err > options.preview.stderrChars ||
      out + err > options.preview.maxBytes
    ) {
      void doSpill();
    }
  }

  let spilling: Promise<void> | null = null;
  function doSpill(): Promise<void> {
    spilling ??= spool.spill().then(
      (info) => {
        spill = info;
        log?.info({ event: "spill", captureId }, "spooling to storage");
        emit(() => ({ type: "spill", receipt: receipt() }));
        // A first live.json at once: live refs exist from the spill, and recovery after a
        // crash knows the capture from it.
        publishLiveNow();
        scheduleLive();
      },
      (error: unknown) => {
        spillFailed = true;
        for (const name of STREAM_NAMES) spool.streams[name].stop("storage-unavailable");
        log?.error(
          { event: "spill-failed", captureId, code: (error as { code?: string })?.code },
          "storage unavailable",
        );
      },
    );
    return spilling;
  }

  // Live receipts at a bounded rate while running.
  let cancelLive: (() => void) | null = null;
  const liveInterval = options.liveIntervalMs ?? 250;
  function scheduleLive(): void {
    if (cancelLive || finals) return;
    cancelLive = clock.setTimeout(() => {
      cancelLive = null;
      if (finals || !spool.spilled) return;
      publishLiveNow();
      scheduleLive();
    }, liveInterval);
  }
  // Replace live.json only when what it advertises changed: an idle job costs no writes.
  let lastLiveKey = "";
  function publishLiveNow(): void {
    if (finals || !spool.spilled || spillFailed) return;
    const live = receipt();
    const key = [
      live.process.state,
      live.process.pid,
      live.capture.reasons.join(","),
      ...STREAM_NAMES.map((n) => `${live.streams[n].produced}/${live.streams[n].committed}`),
    ].join(" ");
    if (key === lastLiveKey) return;
    lastLiveKey = key;
    spool.publishLive(live);
  }

  const stopped = new Set<StreamName>();
  function noteStops(): void {
    for (const name of STREAM_NAMES) {
      const reason = spool.streams[name].state.stopped;
      if (reason && !stopped.has(name)) {
        stopped.add(name);
        reasons.add(reason);
        log?.warn(
          { event: "persistence-stopped", captureId, stream: name, reason },
          "persistence stopped",
        );
        emit(() => ({ type: "persistence-stopped", stream: name, reason }));
      }
    }
  }

  function streamReceipt(name: StreamName): StreamReceipt {
    const pipeline = pipelines[name];
    const writer = spool.streams[name];
    const final = finals?.[name];
    const snap = pipeline.ledger.snapshot();
    const counters = sumCounters(pipeline.stages);
    const transforms = pipeline.stages.flatMap((stage) =>
      stage.transform ? [stage.transform] : [],
    );
    const inline = finals !== null && !spool.spilled && captureState === "complete";
    const committed = inline
      ? snap.produced
      : Math.min(final?.committed ?? writer.state.committed, snap.produced);
    const representation: Representation =
      plans[name].representation === "binary"
        ? "binary"
        : counters.replacements > 0
          ? "utf8-replaced"
          : "utf8";
    const stored = spill !== null && !spillFailed;
    return {
      representation,
      transforms,
      raw: snap.raw,
      produced: snap.produced,
      committed,
      retained: inline || stored ? { start: 0, end: committed } : null,
      ...counters,
      lines: snap.lines,
      endsWithNewline: snap.endsWithNewline,
      ref: stored ? (final?.ref ?? spill?.refs[name] ?? null) : null,
      path: stored ? (final?.path ?? (spill ? `${spill.dir}/${name}.live` : null)) : null,
      sha256: final?.sha256 ?? (inline ? inlineSha[name] : null),
    };
  }
  const inlineSha: Record<StreamName, string | null> = { stdout: null, stderr: null };

  function receipt(): Receipt {
    noteStops();
    const streams = { stdout: streamReceipt("stdout"), stderr: streamReceipt("stderr") };
    const snapshots = { stdout: plans.stdout.tap.snapshot(), stderr: plans.stderr.tap.snapshot() };
    const refs =
      spill && !spillFailed ? { stdout: streams.stdout.ref, stderr: streams.stderr.ref } : null;
    const failed = proc.state !== "running" && exitStatusOf(proc, spawnErrno) !== 0;
    const preview = renderPreview(snapshots, options.preview, { failed, refs });
    return {
      version: 1,
      captureId,
      callId: options.callId ?? null,
      label: options.label ?? null,
      root: options.root,
      process: { ...proc },
      capture: { state: captureState, reasons: [...reasons].sort() },
      streams,
      preview: { ...preview, budget: { ...options.preview } },
    };
  }

  // ---- the child -------------------------------------------------------------------
  const child = spawn(options.command, [...options.args], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: [options.stdin ?? "ignore", "pipe", "pipe"],
    detached: true,
    windowsHide: true,
  });
  if (options.spillAtStart) void doSpill();
  const pumps = {
    stdout: pumpStream(child.stdout as Readable, pipelines.stdout),
    stderr: pumpStream(child.stderr as Readable, pipelines.stderr),
  };

  let killTimers: Array<() => void> = [];
  function signalGroup(signal: NodeJS.Signals): void {
    if (proc.pid === null || proc.endedAt !== null) return;
    try {
      process.kill(-proc.pid, signal);
    } catch {
      try {
        child.kill(signal);
      } catch {
        // already gone
      }
    }
  }
  function terminate(signal: NodeJS.Signals, why: "cancel" | "timeout"): void {
    if (proc.endedAt !== null) return;
    cancelledBy ??= why;
    signalGroup(signal);
    if (signal !== "SIGKILL")
      killTimers.push(clock.setTimeout(() => signalGroup("SIGKILL"), graceMs));
  }

  const exited = new Promise<void>((resolve) => {
    child.once("spawn", () => {
      proc.pid = child.pid ?? null;
      log?.info({ event: "start", captureId, pid: proc.pid }, "capture started");
      emit(() => ({ type: "start", receipt: receipt() }));
    });
    child.once("error", (error: NodeJS.ErrnoException) => {
      if (proc.pid !== null) return; // a kill error after spawn; the exit event follows
      spawnErrno = error.code ?? "EUNKNOWN";
      proc.state = "exited";
      proc.reason = `spawn failed: ${spawnErrno}`;
      proc.endedAt = new Date(clock.now()).toISOString();
      resolve();
    });
    child.once("exit", (code, signal) => {
      proc.endedAt = new Date(clock.now()).toISOString();
      proc.exitCode = code;
      proc.signal = signal;
      proc.state =
        cancelledBy === "timeout" ? "timeout" : cancelledBy === "cancel" ? "cancelled" : "exited";
      if (cancelledBy === "timeout") proc.reason = `timed out after ${options.timeoutMs} ms`;
      else if (cancelledBy === "cancel") proc.reason = "cancelled";
      resolve();
    });
  });
  if (options.timeoutMs != null) {
    killTimers.push(clock.setTimeout(() => terminate("SIGTERM", "timeout"), options.timeoutMs));
  }

  let finalizing = false;
  const done = (async (): Promise<CaptureResult> => {
    await exited;
    for (const cancel of killTimers) cancel();
    killTimers = [];
    emit(() => ({ type: "exit", receipt: receipt() }));

    // Drain: actual EOF on both pipes, or the window runs out (a descendant holds a pipe).
    const ends = await drain(pumps, drainMs, clock);
    if (ends.some((end) => end !== "eof") && spawnErrno === null) reasons.add("drain-timeout");
    for (const name of STREAM_NAMES) {
      pipelines[name].end();
      if (pipelines[name].error !== undefined) captureState = "failed";
    }
    // The small-result path is only for a complete capture that fits its preview whole.
    const fitsInline =
      reasons.size === 0 && captureState !== "failed" && renderPreviewNow().state === "complete";
    finalizing = true;
    if (!spool.spilled && !spillFailed && !fitsInline) await doSpill();
    if (spilling) await spilling;
    if (cancelLive) cancelLive();
    cancelLive = null;

    if (spool.spilled && !spillFailed) {
      finals = await spool.finish();
      for (const name of STREAM_NAMES)
        if (finals[name].stopped) spool.streams[name].stop(finals[name].stopped!);
    } else {
      finals = {
        stdout: { committed: 0, sha256: null, ref: null, path: null, stopped: null },
        stderr: { committed: 0, sha256: null, ref: null, path: null, stopped: null },
      };
    }
    noteStops();
    captureState = settleCaptureState();
    if (!spool.spilled && captureState === "complete") {
      for (const name of STREAM_NAMES) inlineSha[name] = sha256Of(plans[name].tap.snapshot());
    }
    const final = receipt();
    for (const name of STREAM_NAMES) {
      if (!ledgerBalances(pipelines[name].ledger.snapshot()))
        throw new Error(`ledger out of balance on ${name}`);
    }
    if (spool.spilled && !spillFailed) {
      try {
        await spool.publishReceipt(final);
      } catch (error) {
        log?.error(
          { event: "publish-failed", captureId, code: (error as { code?: string })?.code },
          "receipt not published",
        );
      }
    }
    await spool.close();
    log?.info(
      {
        event: "finalize",
        captureId,
        process: final.process.state,
        capture: final.capture.state,
        reasons: final.capture.reasons,
      },
      "capture finalized",
    );
    emit(() => ({ type: "final", receipt: final }));
    bus.completed = true;
    bus.subject?.complete();
    return { receipt: final, exitStatus: exitStatusOf(final.process, spawnErrno) };
  })();

  function renderPreviewNow() {
    return renderPreview(
      { stdout: plans.stdout.tap.snapshot(), stderr: plans.stderr.tap.snapshot() },
      options.preview,
      {
        failed: false,
        refs: null,
      },
    );
  }

  function settleCaptureState(): CaptureState {
    if (captureState === "failed") return "failed";
    if (spillFailed) return "unavailable";
    noteStops();
    if (reasons.size === 0) return "complete";
    const anyCommitted = STREAM_NAMES.some((n) => (finals?.[n].committed ?? 0) > 0);
    const anyProduced = STREAM_NAMES.some((n) => pipelines[n].ledger.snapshot().produced > 0);
    return anyProduced && !anyCommitted && !reasons.has("drain-timeout") ? "failed" : "partial";
  }

  return {
    captureId,
    get events() {
      if (!bus.subject) {
        bus.subject = new (loadSubject())<CaptureEvent>();
        if (bus.completed) bus.subject.complete();
      }
      return bus.subject;
    },
    receipt,
    cancel: (signal = "SIGTERM") => terminate(signal, "cancel"),
    async spill() {
      if (finalizing && !spilling) return false;
      await doSpill();
      return spool.spilled && !spillFailed;
    },
    done,
  };
}

/** The exit status `spool run` reports for a settled process. */
export function exitStatusOf(proc: ProcessReceipt, spawnErrno: string | null = null): number {
  if (spawnErrno !== null || (proc.pid === null && proc.state !== "running")) {
    return spawnErrno === "ENOENT" || proc.reason?.includes("ENOENT") ? 127 : 126;
  }
  if (proc.state === "timeout") return 124;
  if (proc.signal) return 128 + (osConstants.signals[proc.signal as NodeJS.Signals] ?? 0);
  return proc.exitCode ?? 1;
}

async function drain(pumps: Record<StreamName, StreamPump>, ms: number, clock: Clock) {
  let cancel = () => {};
  const timeout = new Promise<"timeout">((resolve) => {
    // Time the reader spends paused by its own writer queue is not a descendant holding
    // the pipe: a slow disk must not turn into drain-timeout. That pause is bounded by
    // the queue's stall budget, so the window is only extended, never endless.
    const arm = () => {
      cancel = clock.setTimeout(() => {
        if (STREAM_NAMES.some((n) => pumps[n].waiting)) arm();
        else resolve("timeout");
      }, ms);
    };
    arm();
  });
  const all = Promise.all(STREAM_NAMES.map((n) => pumps[n].done));
  const first = await Promise.race([all, timeout]);
  cancel();
  if (first !== "timeout") return first;
  for (const name of STREAM_NAMES) pumps[name].stop();
  return Promise.all(STREAM_NAMES.map((n) => pumps[n].done));
}

function sha256Of(snap: PreviewSnapshot): string {
  // Inline results are held whole in the tap's head.
  return createHash("sha256").update(snap.head).update(snap.tail).digest("hex");
}

/**
 * rxjs's `Subject`, loaded on demand. The full "rxjs" entry loads every operator (~60 ms
 * of start-up) and even `rxjs/internal/Subject` ~18 ms; it is the same class the entry
 * re-exports, so consumers' operators apply to it.
 */
function loadSubject(): typeof Subject {
  return (createRequire(import.meta.url)("rxjs/internal/Subject") as { Subject: typeof Subject })
    .Subject;
}
