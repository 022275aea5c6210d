/**
 * `spool __supervise MODE ID` (internal): the detached process
 * that owns a job's pipes and capture until it ends, then exits (no daemon outlives its
 * capture). Its job (the capture options, `--`, the command) is the launcher's first IPC
 * message, so the command, its label and any secret in them never show in the
 * world-readable `/proc/<pid>/cmdline`. For `start` it spills at launch; for `run` it spills when promoted
 * (`--background-after`), which adopts the same spool at the queue's boundary: the
 * bytes held so far flow first, nothing is copied or replayed. For `capture` (no CMD) it
 * captures its own stdin, the launcher's, handed over at launch, and is promoted the same way.
 *
 * Signals it receives cancel the job: SIGTERM, SIGINT, SIGHUP, SIGQUIT and SIGUSR1 are
 * passed on to the job's process group as themselves, SIGUSR2 means SIGKILL (which the
 * supervisor itself cannot catch). `spool kill` relies on this.
 */
import * as path from "node:path";
import {
  type Capture,
  type CaptureCommonOptions,
  type CaptureSpool,
  isCaptureId,
  type Receipt,
  receiptExitStatus,
  type SourceDeclaration,
  type SpoolFactory,
} from "@spool/core";
import { TOOL_OUTPUTS } from "@spool/sinks";
import { writeJobRecord } from "@spool/sinks/internal";
import { startCapture } from "@spool/sinks/runtime";
import { type CommandInput, commandInput, usageError } from "./args.js";
import { type CaptureSetup, captureConfig, openCapture, prepareCapture } from "./capture-setup.js";
import { SUPERVISE } from "./commands.js";
import type { Io } from "./io.js";
import { openJobStorage } from "./job-storage.js";
import { startStdinCapture, stdinCaptureConfig } from "./stdin-capture.js";
import {
  type LauncherInbox,
  type LauncherMessage,
  launcherInbox,
  type SupervisorMessage,
  type SupervisorMode,
} from "./supervisor-launch.js";

/** How long a supervisor waits for its job from the launcher that just started it. */
const SPEC_TIMEOUT_MS = 30_000;

/** Signals the supervisor turns into a cancellation, and what the job's group receives. */
export const CANCEL_SIGNALS: Readonly<Partial<Record<NodeJS.Signals, NodeJS.Signals>>> = {
  SIGTERM: "SIGTERM",
  SIGINT: "SIGINT",
  SIGHUP: "SIGHUP",
  SIGQUIT: "SIGQUIT",
  SIGUSR1: "SIGUSR1",
  SIGUSR2: "SIGKILL",
};

export async function superviseCommand(
  parsed: CommandInput<typeof SUPERVISE>,
  io: Io,
): Promise<number> {
  const [mode, captureId, ...more] = parsed.positionals;
  if (
    (mode !== "start" && mode !== "run" && mode !== "capture") ||
    !captureId ||
    !isCaptureId(captureId) ||
    more.length > 0 ||
    parsed.rest !== null
  ) {
    throw usageError("__supervise is internal (start|run|capture ID; the job comes over IPC)");
  }
  const inbox = launcherInbox(SPEC_TIMEOUT_MS);
  const given = await inbox.spec;
  const spec = commandInput(SUPERVISE, given.options, given.rest);
  const config =
    mode === "capture" ? stdinCaptureConfig(spec, io) : captureConfig(spec, io.env, io.cwd);
  const setup = openCapture(prepareCapture(config));
  const dir = path.join(setup.options.root, TOOL_OUTPUTS, captureId);
  const send = (message: SupervisorMessage) => {
    if (process.connected && process.send) process.send(message);
  };
  // A job's storage is ready before its command starts: if it cannot be, nothing runs.
  const ready = mode === "start" ? await openJobStorage(setup, captureId) : null;
  if (ready !== null && !ready.ok) {
    setup.logger.error({ event: "spill-failed", captureId, err: ready.message }, "not started");
    send({ type: "refused", message: ready.message });
    if (process.connected) process.disconnect();
    await setup.files.destroy();
    setup.logger.flush?.();
    return 70;
  }
  // The launch receipt advertises live.json: its first replacement, acknowledged by our
  // own writer (bounded by the writer's timeout), says it is readable.
  const firstLive = firstLiveAck();
  const spool = (context: Parameters<typeof setup.files.factory>[0]) =>
    firstLive.watch(ready?.ok ? ready.spool : setup.files.factory(context));
  const liveIntervalMs = spec.options["live-ms"];
  const { capture, started } =
    mode === "capture"
      ? stdinJob(setup, spool, { captureId, liveIntervalMs }, spec.options.declared)
      : // A spool opened already is handed to the capture once the child has its pid
        // (announceJob spills it): its first live.json, published on opening, names the pid.
        processJob(setup, spool, { captureId, liveIntervalMs }, mode === "start" && !ready?.ok);
  const stopSignals = cancelOnSignals(capture);
  const job: SupervisedJob = { capture, captureId, mode, dir, started, firstLive, send };
  const announce = (type: "launched" | "promoted") => announceJob(job, type);
  const lifecycle: Lifecycle = { promoted: mode === "start" ? "start" : null, finished: false };
  const stopLauncher = followLauncher(inbox, capture, lifecycle, announce);

  if (mode === "start") {
    await announce("launched").catch((error: unknown) => {
      // Nobody can learn of this job: do not leave it running unobserved.
      setup.logger.error(
        { event: "launch-failed", captureId, err: String(error) },
        "launch failed",
      );
      capture.cancel("SIGTERM");
    });
  }
  try {
    const { receipt, exitStatus } = await capture.done;
    lifecycle.finished = true;
    send({ type: "final", receipt, exitStatus });
    return exitStatus;
  } finally {
    stopSignals();
    stopLauncher();
    if (process.connected) process.disconnect();
    await setup.files.destroy();
    setup.logger.flush?.();
  }
}

/** A job's capture: of a child (`start`, `run`) or of the supervisor's stdin (`capture`). */
interface JobCapture {
  readonly captureId: string;
  cancel(signal?: NodeJS.Signals): void;
  spill(): Promise<boolean>;
  receipt(): Receipt;
  readonly done: Promise<{ readonly receipt: Receipt; readonly exitStatus: number }>;
}

type JobSpool = SpoolFactory;
type JobOptions = Required<Pick<CaptureCommonOptions, "captureId" | "liveIntervalMs">>;

function processJob(
  setup: CaptureSetup,
  spool: JobSpool,
  job: JobOptions,
  spillAtStart: boolean,
): { capture: JobCapture; started: Promise<void> } {
  const capture = startCapture({ ...setup.options, ...job, spool, spillAtStart });
  return { capture, started: whenStarted(capture) };
}

/** The capture of the stdin the launcher handed over; a source is running from the start. */
function stdinJob(
  setup: CaptureSetup,
  spool: JobSpool,
  job: JobOptions,
  declared: SourceDeclaration,
): { capture: JobCapture; started: Promise<void> } {
  const source = startStdinCapture(
    { ...setup, files: { ...setup.files, factory: spool } },
    {
      stdin: process.stdin as NodeJS.ReadableStream & AsyncIterable<Uint8Array>,
      declared,
      job,
    },
  );
  const capture: JobCapture = {
    captureId: source.captureId,
    cancel: (signal) => source.cancel(signal),
    spill: () => source.spill(),
    receipt: () => source.receipt(),
    done: source.done.then(({ receipt }) => ({ receipt, exitStatus: receiptExitStatus(receipt) })),
  };
  return { capture, started: Promise.resolve() };
}

/** What announcing a job needs: its capture, where it lives, and how to tell the launcher. */
interface SupervisedJob {
  readonly capture: JobCapture;
  readonly captureId: string;
  readonly mode: SupervisorMode;
  readonly dir: string;
  /** Settles once the child has started (or the capture ended first). */
  readonly started: Promise<void>;
  readonly firstLive: { readonly stored: Promise<boolean> };
  readonly send: (message: SupervisorMessage) => void;
}

/** Whether the job is in the background yet (and how), and whether it has ended. */
interface Lifecycle {
  promoted: "start" | "promoted" | null;
  finished: boolean;
}

/** Cancel the capture on every signal of CANCEL_SIGNALS; returns the undo. */
function cancelOnSignals(capture: JobCapture): () => void {
  const onSignal = (signal: NodeJS.Signals) => capture.cancel(CANCEL_SIGNALS[signal] ?? "SIGTERM");
  const signals = Object.keys(CANCEL_SIGNALS) as NodeJS.Signals[];
  for (const s of signals) process.on(s, onSignal);
  return () => {
    for (const s of signals) process.off(s, onSignal);
  };
}

function whenStarted(capture: Capture): Promise<void> {
  return new Promise<void>((resolve) => {
    capture.events.subscribe({
      next: (event) => {
        if (event.type === "start") resolve();
      },
      complete: resolve,
    });
  });
}

/** Hand out a receipt only once the job has a pid, its directory, live refs and job.json. */
async function announceJob(job: SupervisedJob, type: "launched" | "promoted"): Promise<boolean> {
  const { capture } = job;
  await Promise.race([job.started, capture.done.then(() => undefined)]);
  if (!(await capture.spill())) return false;
  // live.json is stored, or the capture ended first (then receipt.json is).
  await Promise.race([job.firstLive.stored, capture.done]);
  const pid = capture.receipt().process?.pid ?? null;
  writeJobRecord(job.dir, {
    version: 1,
    captureId: job.captureId,
    mode: job.mode,
    supervisorPid: process.pid,
    pid,
    pgid: pid,
  });
  job.send({ type, receipt: capture.receipt() });
  return true;
}

/** Obey the launcher's cancel and promote messages; returns the undo. */
function followLauncher(
  inbox: LauncherInbox,
  capture: JobCapture,
  lifecycle: Lifecycle,
  announce: (type: "promoted") => Promise<boolean>,
): () => void {
  const onMessage = (message: LauncherMessage) => {
    if (message.type === "cancel") capture.cancel(message.signal);
    else if (message.type === "promote" && lifecycle.promoted === null && !lifecycle.finished) {
      lifecycle.promoted = "promoted";
      void announce("promoted");
    }
  };
  // A foreground run whose launcher went away without promoting it is cancelled, as the
  // in-process run would have been.
  const onDisconnect = () => {
    if (lifecycle.promoted === null && !lifecycle.finished) capture.cancel("SIGTERM");
  };
  const stopInbox = inbox.follow(onMessage);
  process.on("disconnect", onDisconnect);
  return () => {
    stopInbox();
    process.off("disconnect", onDisconnect);
  };
}

/** The ack of a spool's first `publishLive` (true once `live.json` is stored). */
function firstLiveAck(): { stored: Promise<boolean>; watch(spool: CaptureSpool): CaptureSpool } {
  let first: ((stored: Promise<boolean>) => void) | null = null;
  const stored = new Promise<boolean>((resolve) => {
    first = (ack) => void ack.then(resolve);
  });
  const watch = (spool: CaptureSpool): CaptureSpool => ({
    streams: spool.streams,
    get spilled() {
      return spool.spilled;
    },
    spill: () => spool.spill(),
    publishLive(receipt) {
      const ack = spool.publishLive(receipt);
      first?.(ack);
      first = null;
      return ack;
    },
    finish: () => spool.finish(),
    publishReceipt: (receipt) => spool.publishReceipt(receipt),
    close: () => spool.close(),
  });
  return { stored, watch };
}
