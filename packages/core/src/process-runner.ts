/**
 * The process side of a capture: spawn the child, keep its {@link ProcessReceipt}, time it
 * out, and cancel its process group with SIGTERM escalating to SIGKILL after a grace
 * period. Bytes are not its business: it hands the pipes on.
 *
 * @example
 * ```ts
 * import { runProcess, spawnChild, systemClock } from "@spool/core";
 * const run = runProcess({
 *   request: { command: "sleep", args: ["5"], env: process.env, stdin: "ignore" },
 *   startedAt: Date.now(), timeoutMs: 100, killGraceMs: 2000, clock: systemClock, spawn: spawnChild,
 * });
 * await run.exited;
 * run.snapshot().state; // "timeout"
 * ```
 */
import type { CaptureProducer } from "./capture-producer.js";
import type { SpawnChild, SpawnRequest } from "./child-spawn.js";
import type { Clock } from "./clock.js";
import { exitStatusOf } from "./exit-status.js";
import type { ProcessReceipt } from "./receipt.js";

export interface ProcessRunOptions {
  readonly request: SpawnRequest;
  /** Milliseconds since the epoch, reported as `startedAt`. */
  readonly startedAt: number;
  /** Cancel the group (as "timeout") after this long; null for none. */
  readonly timeoutMs: number | null;
  /** Between SIGTERM and SIGKILL. */
  readonly killGraceMs: number;
  readonly clock: Clock;
  readonly spawn: SpawnChild;
  /** The child is running (it has a pid). */
  readonly onSpawned?: (pid: number | null) => void;
}

/** A child process as a capture's producer: `ended` is when the direct child exited. */
export interface ProcessRun extends CaptureProducer {
  /** Resolves once the direct child exited, or could not be spawned. */
  readonly exited: Promise<void>;
  block(): { readonly process: ProcessReceipt };
  /** The process as of now (a copy). */
  snapshot(): ProcessReceipt;
  /** Signal the process group, escalating to SIGKILL after the grace period. */
  cancel(signal: NodeJS.Signals): void;
}

export function runProcess(options: ProcessRunOptions): ProcessRun {
  const { clock } = options;
  const proc: ProcessReceipt = {
    state: "running",
    exitCode: null,
    signal: null,
    reason: null,
    pid: null,
    startedAt: new Date(options.startedAt).toISOString(),
    endedAt: null,
  };
  let cancelledBy: "cancel" | "timeout" | null = null;
  let timers: Array<() => void> = [];
  let settle: () => void = () => {};
  const exited = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const end = (update: Partial<ProcessReceipt>) => {
    if (proc.endedAt !== null) return;
    Object.assign(proc, update, { endedAt: new Date(clock.now()).toISOString() });
    for (const cancel of timers) cancel();
    timers = [];
    settle();
  };

  const child = options.spawn(options.request, {
    spawned(pid) {
      proc.pid = pid;
      options.onSpawned?.(pid);
    },
    failed(error) {
      end({ state: "exited", reason: `spawn failed: ${error.code}`, spawnError: { ...error } });
    },
    exited(code, signal) {
      end({ exitCode: code, signal, ...cancelOutcome(cancelledBy, options.timeoutMs) });
    },
  });

  const signalGroup = (signal: NodeJS.Signals) => {
    if (proc.pid !== null && proc.endedAt === null) child.signal(signal);
  };
  const terminate = (signal: NodeJS.Signals, why: "cancel" | "timeout") => {
    if (proc.endedAt !== null) return;
    cancelledBy ??= why;
    signalGroup(signal);
    if (signal !== "SIGKILL")
      timers.push(clock.setTimeout(() => signalGroup("SIGKILL"), options.killGraceMs));
  };
  if (options.timeoutMs !== null && proc.endedAt === null) {
    timers.push(clock.setTimeout(() => terminate("SIGTERM", "timeout"), options.timeoutMs));
  }

  return {
    stdout: child.stdout,
    stderr: child.stderr,
    exited,
    ended: exited,
    snapshot: () => ({ ...proc }),
    block: () => ({ process: { ...proc } }),
    running: () => proc.state === "running",
    failed: () => proc.state !== "running" && exitStatusOf(proc) !== 0,
    reasons: () => [],
    // A child that never started holds no pipe open.
    drainTimeoutCounts: () => !proc.spawnError,
    cancel: (signal) => terminate(signal, "cancel"),
  };
}

/** How a cancelled child's exit reads in the receipt. */
function cancelOutcome(
  why: "cancel" | "timeout" | null,
  timeoutMs: number | null,
): Pick<ProcessReceipt, "state" | "reason"> | { state: "exited" } {
  if (why === "timeout") return { state: "timeout", reason: `timed out after ${timeoutMs} ms` };
  if (why === "cancel") return { state: "cancelled", reason: "cancelled" };
  return { state: "exited" };
}
