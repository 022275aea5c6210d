/**
 * Capture orchestration: run a child without a shell, be the sole reader of both of its
 * pipes, push each stream through its stages into its writer from the first byte,
 * spill to storage once output outgrows the preview, and settle the process, capture
 * and preview states independently into one receipt.
 *
 * This file only composes one-purpose modules around one state record ({@link CaptureRun},
 * `capture-state.ts`): the child (`process-runner.ts`, `child-spawn.ts`), the streams
 * (`stream-pipeline.ts`), when to store (`spill-policy.ts`) and opening storage
 * (`storage-opener.ts`), live receipts (`live-publisher.ts`), the drain (`drain.ts`),
 * settling (`capture-outcome.ts`), the receipt (`capture-receipt.ts`, pure) and what is
 * logged and emitted on each transition (`capture-journal.ts`, `capture-events.ts`).
 *
 * @example
 * ```ts
 * import { startCapture } from "@spool/core";
 * declare const options: import("@spool/core").CaptureOptions;
 * const capture = startCapture({ ...options, command: "make", args: ["test"] });
 * const { receipt, exitStatus } = await capture.done;
 * ```
 */
import { createEventBus } from "./capture-events.js";
import { type CaptureJournal, createCaptureJournal } from "./capture-journal.js";
import type {
  Capture,
  CaptureCommonOptions,
  CaptureHandle,
  CaptureOptions,
  CaptureSourceOptions,
  ProcessCaptureReceipt,
  SourceCapture,
  SourceCaptureReceipt,
  StreamPlan,
} from "./capture-options.js";
import { nothingAgainst, settleOutcome } from "./capture-outcome.js";
import type { CaptureProducer } from "./capture-producer.js";
import { buildReceipt, isInline } from "./capture-receipt.js";
import { type CaptureRun, enterPhase, phaseRule, recordStorageError } from "./capture-state.js";
import { type SpawnRequest, spawnChild } from "./child-spawn.js";
import { type Clock, systemClock } from "./clock.js";
import { createDisabledSpool } from "./disabled-spool.js";
import { drainedToEof, drainPumps } from "./drain.js";
import { SpoolError, type StorageFailure, storageFailureOf } from "./errors.js";
import { exitStatusOf } from "./exit-status.js";
import { newCaptureId } from "./ids.js";
import { ledgerBalances } from "./ledger.js";
import { createLivePublisher, type LivePublisher } from "./live-publisher.js";
import { shownAsItself } from "./preview.js";
import { runProcess } from "./process-runner.js";
import type { Receipt } from "./receipt.js";
import { STREAM_NAMES, type StreamName } from "./receipt-vocabulary.js";
import { runSource } from "./source-runner.js";
import { keepsInline, outgrowsPreview, type StreamSize } from "./spill-policy.js";
import type { CaptureSpool } from "./spool.js";
import { createStorageOpener } from "./storage-opener.js";
import {
  createStreamPipeline,
  pumpStream,
  type StreamPipeline,
  type StreamPipelineOptions,
  type StreamPump,
} from "./stream-pipeline.js";

export type { CaptureEvent } from "./capture-events.js";
export type {
  Capture,
  CaptureCommonOptions,
  CaptureHandle,
  CaptureOptions,
  CaptureResult,
  CaptureSourceOptions,
  PreviewTap,
  ProcessCaptureReceipt,
  SourceCapture,
  SourceCaptureReceipt,
  SourceCaptureResult,
  StreamPlan,
} from "./capture-options.js";
export type { CaptureProducer } from "./capture-producer.js";

/**
 * Run a command and capture its stdout and stderr through `plan` into `spool`, from the first
 * byte. Resolves `done` with the receipt (bounded preview, byte counts, refs) and the exit
 * status `spool run` would use. Never rejects for the child's failure: that is in the receipt.
 *
 * @category capture
 * @example
 * ```ts
 * import { DEFAULT_PREVIEW_BUDGET, startCapture } from "@spool/core";
 * import { createMemorySpool } from "@spool/sinks";
 * import { createRedactor, createStreamPlan } from "@spool/transforms";
 * const capture = startCapture({
 *   command: "make",
 *   args: ["test"],
 *   root: "/tmp/spools",
 *   preview: DEFAULT_PREVIEW_BUDGET,
 *   plan: (stream, budget) => createStreamPlan({ preview: { budget, stream }, redactor: createRedactor() }),
 *   spool: createMemorySpool().factory,
 *   timeoutMs: 600_000,
 * });
 * const { receipt, exitStatus } = await capture.done;
 * ```
 */
export function startCapture(options: CaptureOptions): Capture {
  const clock = options.clock ?? systemClock;
  const startedAt = clock.now();
  let onSpawned: (pid: number | null) => void = () => {};
  const child = runProcess({
    request: spawnRequest(options),
    startedAt,
    timeoutMs: options.timeoutMs ?? null,
    killGraceMs: options.killGraceMs ?? 2000,
    clock,
    spawn: options.spawn ?? spawnChild,
    onSpawned: (pid) => onSpawned(pid),
    ...stdinReport(options.stdin),
  });
  const capture = runCapture(options, child, startedAt, (started) => {
    onSpawned = started;
  });
  return {
    ...withoutEvents(capture),
    // A getter, not a copy: the handle keeps the capture's one event stream.
    get events() {
      return capture.events;
    },
    receipt: () => capture.receipt() as ProcessCaptureReceipt,
    // Done once a cancellation has finished escalating too (see `ProcessRun.settled`).
    done: Promise.all([capture.done, child.settled]).then(([receipt]) => ({
      receipt: receipt as ProcessCaptureReceipt,
      exitStatus: exitStatusOf(child.snapshot()),
    })),
  };
}

/**
 * Capture any readable source that is not a child process: a Node `Readable`, a web
 * `ReadableStream` or an `AsyncIterable<Uint8Array>` (an HTTP body, a socket, a generator).
 * The same stages, spill, finalisation and receipt as {@link startCapture}; the receipt
 * has a `source` block instead of `process`. A source error settles the capture `partial`
 * with reason `source-error` (its message in `source.error`); a source that declares
 * itself truncated is never `complete` (reason `source-truncated`).
 *
 * @category capture
 * @example
 * ```ts
 * import { captureSource } from "@spool/core";
 * declare const options: Omit<import("@spool/core").CaptureSourceOptions, "stdout" | "declared">;
 * const response = await fetch("http://127.0.0.1:8080/report");
 * const length = Number(response.headers.get("content-length") ?? Number.NaN);
 * const capture = captureSource({
 *   ...options,
 *   stdout: response.body!,
 *   label: "GET /report",
 *   declared: () => (Number.isNaN(length) ? "unknown" : capture.receipt().streams.stdout.raw.observed === length ? "complete" : "truncated"),
 * });
 * const { receipt } = await capture.done;
 * receipt.source.declared; // "complete"
 * ```
 */
export function captureSource(options: CaptureSourceOptions): SourceCapture {
  const clock = options.clock ?? systemClock;
  const startedAt = clock.now();
  const source = runSource({
    stdout: options.stdout,
    ...(options.stderr === undefined ? {} : { stderr: options.stderr }),
    declared: options.declared,
    label: options.label ?? null,
    startedAt,
    clock,
  });
  const capture = runCapture(options, source, startedAt, (started) => started(null));
  return {
    ...withoutEvents(capture),
    get events() {
      return capture.events;
    },
    receipt: () => capture.receipt() as SourceCaptureReceipt,
    done: capture.done.then((receipt) => ({ receipt: receipt as SourceCaptureReceipt })),
  };
}

/** The handle's plain members (`events` is a lazy getter that a spread would call). */
function withoutEvents(
  capture: RunningCapture,
): Pick<RunningCapture, "captureId" | "cancel" | "spill"> {
  const { captureId, cancel, spill } = capture;
  return { captureId, cancel, spill };
}

type RunningCapture = Omit<CaptureHandle<unknown>, "receipt" | "done"> & {
  receipt(): Receipt;
  readonly done: Promise<Receipt>;
};

/**
 * The capture shared by every producer. `whenStarted` hands over the callback to call
 * once the producer runs (a child has its pid; a source at once).
 */
function runCapture(
  options: CaptureCommonOptions,
  producer: CaptureProducer,
  startedAt: number,
  whenStarted: (started: (pid: number | null) => void) => void,
): RunningCapture {
  const clock = options.clock ?? systemClock;
  const captureId = options.captureId ?? newCaptureId();
  const bus = createEventBus();
  const spool =
    options.persist === false
      ? createDisabledSpool()
      : options.spool({ captureId, root: options.root, startedAt });
  const plans = {
    stdout: options.plan("stdout", options.preview),
    stderr: options.plan("stderr", options.preview),
  };
  // The parts below report through these closures only once the producer runs (never
  // while `run` is being assembled), so they may read the run they make up.
  const receipt = () => buildReceipt(run);
  const journal = createCaptureJournal(captureId, receipt, bus, options.logger);
  const live = createLivePublisher({
    clock,
    intervalMs: options.liveIntervalMs ?? 250,
    build: receipt,
    publish: (r) => spool.publishLive(r),
  });
  const pipelines = createPipelines(spool, plans, {
    onProduced: (_stream, answer) => spillIfOutgrown(run, answer === "wait"),
    onStop: (stream, reason, error) => {
      run.reasons.add(reason);
      recordStorageError(run, error?.storage);
      journal.stopped(stream, reason, error);
    },
    onStageError: journal.stageFailed,
  });
  const storage = createStorageOpener(
    spool,
    storageHooks(spool, journal, live, (failure) => recordStorageError(run, failure)),
  );
  const run: CaptureRun = {
    phase: "spawning",
    captureId,
    options,
    spool,
    plans,
    pipelines,
    producer,
    storage,
    reasons: new Set(),
    finals: null,
    outcome: "pending",
    storageError: null,
  };
  whenStarted((pid) => {
    enterPhase(run, "running");
    journal.started(pid);
  });
  if (options.spillAtStart && options.persist !== false) void storage.open();
  const pumps = {
    stdout: pumpStream(producer.stdout, pipelines.stdout),
    stderr: pumpStream(producer.stderr, pipelines.stderr),
  };
  const done = finishCapture(run, pumps, {
    clock,
    drainMs: options.drainMs ?? 1000,
    journal,
    live,
  });
  return {
    captureId,
    get events() {
      return bus.events;
    },
    receipt,
    cancel: (signal = "SIGTERM") => producer.cancel(signal),
    spill: () => promote(run),
    done,
  };
}

function storageHooks(
  spool: CaptureSpool,
  journal: CaptureJournal,
  live: LivePublisher,
  failedWith: (failure: StorageFailure) => void,
) {
  return {
    opened: () => {
      journal.spilled();
      // A first live.json at once: live refs exist from the spill, and recovery after a
      // crash knows the capture from it.
      live.start();
    },
    failed: (error: unknown) => {
      failedWith(
        error instanceof SpoolError && error.storage
          ? error.storage
          : storageFailureOf(error, "open"),
      );
      for (const name of STREAM_NAMES) spool.streams[name].stop("storage-unavailable");
      journal.spillFailed(error);
    },
  };
}

/** The receipt's `process.stdin` for the `stdin` option (nothing for the default /dev/null). */
function stdinReport(stdin: CaptureOptions["stdin"]): { stdinReport?: "inherited" | "withheld" } {
  if (stdin === "inherit") return { stdinReport: "inherited" };
  return stdin === "withheld" ? { stdinReport: "withheld" } : {};
}

function spawnRequest(options: CaptureOptions): SpawnRequest {
  return {
    command: options.command,
    args: options.args,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: options.env ?? process.env,
    stdin: options.stdin === "inherit" ? "inherit" : "ignore",
  };
}

interface FinishContext {
  readonly clock: Clock;
  readonly drainMs: number;
  readonly journal: CaptureJournal;
  readonly live: LivePublisher;
}

/** draining → finishing → published → closed, once the direct child is gone. */
async function finishCapture(
  run: CaptureRun,
  pumps: Record<StreamName, StreamPump>,
  ctx: FinishContext,
): Promise<Receipt> {
  await run.producer.ended;
  enterPhase(run, "draining");
  ctx.journal.exited();
  // Actual EOF on both pipes, or the window runs out (a descendant holds a pipe).
  const ends = await drainPumps(pumps, ctx.drainMs, ctx.clock);
  if (!drainedToEof(ends) && run.producer.drainTimeoutCounts()) run.reasons.add("drain-timeout");
  for (const reason of run.producer.reasons()) run.reasons.add(reason);
  for (const name of STREAM_NAMES) run.pipelines[name].end();

  enterPhase(run, "finishing");
  const inline = keepsInline(streamSizes(run), run.options.preview, nothingAgainst(run));
  if (run.storage.status === "none" && !inline && run.options.persist !== false)
    await run.storage.open();
  await run.storage.settled();
  ctx.live.stop();
  if (run.storage.status === "open") run.finals = await run.spool.finish();
  reportIndexLoss(run, ctx.journal);
  run.outcome = settleOutcome(run);
  // On the small-result path the preview holds every byte: that is where they are kept.
  if (isInline(run))
    for (const p of STREAM_NAMES) run.pipelines[p].ledger.commit(producedOf(run, p));
  let receipt = buildReceipt(run);
  assertBalanced(run);

  if (run.storage.status === "open" && !(await publishFinal(run, receipt, ctx.journal))) {
    // Never `complete` without a published receipt: what is reported is what readers of
    // the directory see (its exit record says the receipt is missing).
    run.reasons.add("storage-unavailable");
    if (run.outcome === "complete") run.outcome = "partial";
    receipt = buildReceipt(run);
  }
  enterPhase(run, "published");
  await run.spool.close();
  enterPhase(run, "closed");
  ctx.journal.finalized(receipt);
  return receipt;
}

/** A stream whose line index was lost keeps every byte: it is reported, not a stop. */
function reportIndexLoss(run: CaptureRun, journal: CaptureJournal): void {
  for (const name of STREAM_NAMES) {
    const lost = run.finals?.[name].indexError;
    if (!lost) continue;
    recordStorageError(run, lost.storage);
    journal.indexLost(name, lost);
  }
}

/** Hand the final receipt to storage; false if it was not stored. */
async function publishFinal(
  run: CaptureRun,
  receipt: Receipt,
  journal: CaptureJournal,
): Promise<boolean> {
  try {
    await run.spool.publishReceipt(receipt);
    return true;
  } catch (error) {
    if (error instanceof SpoolError) recordStorageError(run, error.storage);
    journal.publishFailed(error);
    return false;
  }
}

/**
 * Promotion to a job: open storage now while the phase allows it; later, only report
 * how the end-of-capture decision went (a capture settled without storage stays so).
 */
async function promote(run: CaptureRun): Promise<boolean> {
  if (run.options.persist === false) return false;
  if (!phaseRule(run).opensOnDemand && run.storage.status === "none") return false;
  await run.storage.open();
  return run.storage.status === "open";
}

/**
 * Open storage once the output outgrows the preview, or as soon as a writer holds its
 * whole budget: held bytes drain only into storage, so waiting on a writer that has none
 * would stall the capture until the writer gives up (`writer-saturated`), however large
 * the preview.
 */
function spillIfOutgrown(run: CaptureRun, writerWaits: boolean): void {
  if (!phaseRule(run).opensOnDemand) return;
  if (run.storage.status !== "none" || run.options.persist === false) return;
  const produced = { stdout: producedOf(run, "stdout"), stderr: producedOf(run, "stderr") };
  if (writerWaits || outgrowsPreview(produced, run.options.preview)) void run.storage.open();
}

function createPipelines(
  spool: CaptureSpool,
  plans: Record<StreamName, StreamPlan>,
  hooks: Pick<StreamPipelineOptions, "onProduced" | "onStop" | "onStageError">,
): Record<StreamName, StreamPipeline> {
  const pipeline = (name: StreamName) =>
    createStreamPipeline({
      name,
      stages: [...plans[name].stages, plans[name].tap],
      writer: spool.streams[name],
      ...hooks,
    });
  return { stdout: pipeline("stdout"), stderr: pipeline("stderr") };
}

function streamSizes(run: CaptureRun): Record<StreamName, StreamSize> {
  const size = (name: StreamName): StreamSize => {
    const snap = run.plans[name].tap.snapshot();
    const heldWhole = snap.tail.byteLength === 0 && snap.head.byteLength === snap.total;
    return {
      produced: producedOf(run, name),
      heldWhole,
      binary: snap.binary,
      escaped: heldWhole && !snap.binary && !shownAsItself(snap),
    };
  };
  return { stdout: size("stdout"), stderr: size("stderr") };
}

function producedOf(run: CaptureRun, name: StreamName): number {
  return run.pipelines[name].ledger.snapshot().produced;
}

function assertBalanced(run: CaptureRun): void {
  for (const name of STREAM_NAMES) {
    if (!ledgerBalances(run.pipelines[name].ledger.snapshot())) {
      throw new SpoolError("SPOOL_E_STATE", "capture", `ledger out of balance on ${name}`);
    }
  }
}
