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
import type { ChildHandle, SpawnChild, SpawnRequest } from "./child-spawn.js";
import type { Clock } from "./clock.js";
import { exitStatusOf } from "./exit-status.js";
import type { ProcessReceipt } from "./receipt.js";

/**
 * What {@link runProcess} takes. A capture builds these from its own options; you need
 * them only to drive a child without a capture.
 *
 * @category capture
 * @example
 * ```ts
 * import { spawnChild, systemClock, type ProcessRunOptions } from "@spool/core";
 * const options: ProcessRunOptions = {
 *   request: { command: "make", args: ["test"], env: process.env, stdin: "ignore" },
 *   startedAt: Date.now(), timeoutMs: 60_000, killGraceMs: 2000, clock: systemClock, spawn: spawnChild,
 * };
 * ```
 */
export interface ProcessRunOptions {
  /** What to start and how. */
  readonly request: SpawnRequest;
  /** Milliseconds since the epoch, reported as `startedAt`. */
  readonly startedAt: number;
  /** Milliseconds after which the group is cancelled (as "timeout"); null for none. */
  readonly timeoutMs: number | null;
  /** Milliseconds between SIGTERM and SIGKILL. */
  readonly killGraceMs: number;
  /** Time source of the timeout and the grace period (`systemClock`, or a manual clock in tests). */
  readonly clock: Clock;
  /** How the child is started (`spawnChild`, or a fake child in tests). */
  readonly spawn: SpawnChild;
  /** Called once the child is running, with its pid (null if the platform gave none). @default none */
  readonly onSpawned?: (pid: number | null) => void;
  /** What the receipt says of stdin (`process.stdin`); absent for the default /dev/null. @default none */
  readonly stdinReport?: "inherited" | "withheld";
}

/**
 * A child process as a capture's producer (see {@link runProcess}): `ended` is when the
 * direct child exited.
 *
 * @category capture
 * @example
 * ```ts
 * import type { ProcessRun } from "@spool/core";
 * declare const run: ProcessRun;
 * run.cancel("SIGTERM");
 * await run.settled;
 * run.snapshot().state; // "cancelled"
 * ```
 */
export interface ProcessRun extends CaptureProducer {
  /** Resolves once the direct child exited, or could not be spawned. */
  readonly exited: Promise<void>;
  /**
   * Resolves once the child exited and no cancellation is still escalating: after a
   * cancel or timeout, members of the group that outlive the child (a descendant that
   * ignores SIGTERM) are signalled SIGKILL at the end of the grace period all the same,
   * and this waits for that (or for the group to empty first).
   */
  readonly settled: Promise<void>;
  block(): { readonly process: ProcessReceipt };
  /** The process as of now (a copy). */
  snapshot(): ProcessReceipt;
  /** Signal the process group, escalating to SIGKILL after the grace period. */
  cancel(signal: NodeJS.Signals): void;
}

/**
 * Spawn a child and keep its process block: exit code or signal, the timeout, and
 * cancellation of its group (SIGTERM, then SIGKILL after the grace period). The pipes are
 * handed on (`stdout`, `stderr`); {@link startCapture} is what most users want instead.
 *
 * @category capture
 * @example
 * ```ts
 * import { runProcess, spawnChild, systemClock } from "@spool/core";
 * const run = runProcess({
 *   request: { command: "sleep", args: ["5"], env: process.env, stdin: "ignore" },
 *   startedAt: Date.now(), timeoutMs: 100, killGraceMs: 2000, clock: systemClock, spawn: spawnChild,
 * });
 * run.stdout.resume();
 * run.stderr.resume();
 * await run.exited;
 * run.snapshot().state; // "timeout"
 * ```
 */
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
    ...(options.stdinReport === undefined ? {} : { stdin: options.stdinReport }),
  };
  let cancelledBy: "cancel" | "timeout" | null = null;
  let stopTimeout: (() => void) | null = null;
  let settle: () => void = () => {};
  const exited = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const end = (update: Partial<ProcessReceipt>) => {
    if (proc.endedAt !== null) return;
    Object.assign(proc, update, { endedAt: new Date(clock.now()).toISOString() });
    stopTimeout?.();
    settle();
    escalation.leaderGone();
  };

  const child = options.spawn(options.request, {
    spawned(pid) {
      proc.pid = pid;
      const start = child.group?.()?.leaderStart;
      if (start !== undefined) proc.pidStart = start;
      options.onSpawned?.(pid);
    },
    failed(error) {
      end({ state: "exited", reason: `spawn failed: ${error.code}`, spawnError: { ...error } });
    },
    exited(code, signal) {
      end({ exitCode: code, signal, ...cancelOutcome(cancelledBy, options.timeoutMs) });
    },
  });
  const escalation = createEscalation(child, clock, options.killGraceMs, () => proc.pid !== null);

  const terminate = (signal: NodeJS.Signals, why: "cancel" | "timeout") => {
    if (proc.endedAt === null) cancelledBy ??= why;
    escalation.cancel(signal, proc.endedAt !== null);
  };
  if (options.timeoutMs !== null && proc.endedAt === null) {
    stopTimeout = clock.setTimeout(() => terminate("SIGTERM", "timeout"), options.timeoutMs);
  }

  return {
    stdout: child.stdout,
    stderr: child.stderr,
    exited,
    ended: exited,
    settled: exited.then(() => escalation.done),
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

/** How often the group is looked at while a cancellation outlives the child. */
const GROUP_POLL_MS = 50;

/**
 * Cancelling a process group: the signal now, SIGKILL after the grace period, and that
 * SIGKILL is not called off when the leader exits: it goes to whatever of the group is
 * left, unless the group empties first. `done` resolves when nothing is pending.
 */
function createEscalation(
  child: ChildHandle,
  clock: Clock,
  graceMs: number,
  started: () => boolean,
) {
  let stopKill: (() => void) | null = null;
  let stopPoll: (() => void) | null = null;
  let keepAlive: ReturnType<typeof setInterval> | null = null;
  let finish: () => void = () => {};
  let leaderGone = false;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const stop = () => {
    stopKill?.();
    stopPoll?.();
    stopKill = stopPoll = null;
    if (keepAlive !== null) clearInterval(keepAlive);
    keepAlive = null;
    if (leaderGone) finish();
  };
  const groupLeft = () => child.groupAlive?.() === true;
  const poll = () => {
    stopPoll = clock.setTimeout(() => {
      if (groupLeft()) poll();
      else stop();
    }, GROUP_POLL_MS);
  };
  const watchRest = () => {
    if (stopKill === null || !groupLeft()) return stop();
    // The clock's timers do not hold the process open; the group's last SIGKILL must.
    keepAlive ??= setInterval(() => {}, 1000);
    if (stopPoll === null) poll();
  };
  return {
    done,
    /** Signal the group (a live leader's, or what is left of it), escalating after the grace. */
    cancel(signal: NodeJS.Signals, afterExit: boolean) {
      if (!started() || (afterExit && !groupLeft())) return;
      child.signal(signal);
      if (signal !== "SIGKILL" && stopKill === null) {
        stopKill = clock.setTimeout(() => {
          stopKill = null;
          child.signal("SIGKILL");
          stop();
        }, graceMs);
      }
      if (afterExit) watchRest();
    },
    leaderGone() {
      leaderGone = true;
      watchRest();
    },
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
