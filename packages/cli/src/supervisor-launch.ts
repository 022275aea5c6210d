/**
 * Launching the job supervisor (`spool __supervise`): a detached Node process in its own
 * session with stdio on /dev/null and one IPC channel to its launcher, which it keeps
 * only until the launch (or, for `run`, the final or promoted) receipt is handed over.
 * The supervisor owns the child's pipes and the capture; the launcher may exit at once.
 *
 * @example
 * ```ts
 * import { launchSupervisor, nextMessage } from "./supervisor-launch.js"; // internal to @spool/cli
 * declare const io: import("./io.js").Io;
 * const child = launchSupervisor("start", "AAAAAAAAAAAAAAAAAAAAAAAA", { options: {}, rest: ["make"] }, io);
 * const launched = await nextMessage(child, ["launched"], 30_000);
 * ```
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type Receipt, SpoolError } from "@spool/core/runtime";
import type { Io } from "./io.js";

/** `start`; a `run` or a `capture` (of the launcher's stdin) that may be promoted. */
export type SupervisorMode = "start" | "run" | "capture";

/** Supervisor → launcher. */
export type SupervisorMessage =
  | { type: "launched"; receipt: Receipt }
  | { type: "promoted"; receipt: Receipt }
  | { type: "final"; receipt: Receipt; exitStatus: number }
  /** `start`: the job's storage could not be made ready, so its command was not started. */
  | { type: "refused"; message: string };

/**
 * A job's specification: the capture options as typed values (what the launcher's parser,
 * or an MCP tool, made of them) and the command (`rest`; null for a capture of stdin).
 */
export interface JobSpec {
  readonly options: Readonly<Record<string, unknown>>;
  readonly rest: readonly string[] | null;
}

/**
 * Launcher → supervisor. The job's specification travels over the IPC channel, first,
 * never on the supervisor's command line: `/proc/<pid>/cmdline` is readable by every user
 * for the job's whole life.
 */
export type LauncherMessage =
  | { type: "spec"; job: JobSpec }
  | { type: "promote" }
  | { type: "cancel"; signal: NodeJS.Signals };

const BIN = fileURLToPath(new URL("../bin/spool.js", import.meta.url));

/**
 * Start a supervisor for `job`. Its command line holds only the mode and the capture id;
 * the job is its first IPC message. A `capture` supervisor is handed the launcher's stdin
 * (the same open file, nothing copied); the launcher must not read it.
 */
export function launchSupervisor(
  mode: SupervisorMode,
  captureId: string,
  job: JobSpec,
  io: Pick<Io, "cwd" | "env">,
): ChildProcess {
  const child = spawn(process.execPath, [BIN, "__supervise", mode, captureId], {
    cwd: io.cwd,
    env: io.env,
    detached: true,
    stdio: [mode === "capture" ? "inherit" : "ignore", "ignore", "ignore", "ipc"],
  });
  const spec: LauncherMessage = { type: "spec", job };
  child.send(spec);
  return child;
}

/** The supervisor's side of the channel: its job first, then the launcher's orders. */
export interface LauncherInbox {
  /** The job (`spec`, the launcher's first message). Rejects when there is no launcher, it goes away, or nothing comes within the time given. */
  readonly spec: Promise<JobSpec>;
  /** Hand every later message (those already received first) to `handler`; returns the undo. */
  follow(handler: (message: LauncherMessage) => void): () => void;
}

/**
 * Listen to the launcher from the start, so that an order sent right after the job (a
 * cancel on Ctrl-C) is held, not dropped, until the supervisor is ready to follow it.
 */
export function launcherInbox(ms: number): LauncherInbox {
  let handler: ((message: LauncherMessage) => void) | null = null;
  const early: LauncherMessage[] = [];
  let answer!: (message: LauncherMessage | null) => void;
  let answered = false;
  const firstMessage = new Promise<LauncherMessage | null>((resolve) => {
    answer = resolve;
  });
  const first = (message: LauncherMessage | null) => {
    answered = true;
    answer(message);
  };
  const onMessage = (message: LauncherMessage) => {
    if (!answered) first(message);
    else if (handler) handler(message);
    else early.push(message);
  };
  const onGone = () => {
    if (!answered) first(null);
  };
  const timer = setTimeout(onGone, ms);
  if (process.connected) {
    process.on("message", onMessage);
    process.once("disconnect", onGone);
  } else onGone();
  const spec = firstMessage.then((message) => {
    clearTimeout(timer);
    process.off("disconnect", onGone);
    if (message === null)
      throw internal("__supervise is internal: it takes its job from its launcher");
    if (message.type !== "spec" || typeof message.job?.options !== "object")
      throw internal("the launcher's first message was not the job");
    return message.job;
  });
  return {
    spec,
    follow(next) {
      handler = next;
      for (const message of early.splice(0)) next(message);
      return () => {
        handler = null;
        process.off("message", onMessage);
      };
    },
  };
}

function internal(message: string): SpoolError {
  return new SpoolError("SPOOL_E_STATE", "supervisor", message);
}

/** The next message of one of `types`; rejects if the supervisor exits first or `ms` passes. */
export function nextMessage<T extends SupervisorMessage["type"]>(
  child: ChildProcess,
  types: readonly T[],
  ms: number,
): Promise<Extract<SupervisorMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
      child.off("error", onError);
    };
    const onMessage = (message: SupervisorMessage) => {
      if (!types.includes(message.type as T)) return;
      cleanup();
      resolve(message as Extract<SupervisorMessage, { type: T }>);
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      cleanup();
      reject(
        new SpoolError(
          "SPOOL_E_STATE",
          "supervisor",
          `the job supervisor ended before reporting (${signal ?? `exit ${code}`})`,
        ),
      );
    };
    const onError = (error: Error) => {
      cleanup();
      reject(
        new SpoolError("SPOOL_E_SPAWN", "supervisor", "cannot start the job supervisor", {
          cause: error,
        }),
      );
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(
        new SpoolError(
          "SPOOL_E_STATE",
          "supervisor",
          `no answer from the job supervisor in ${ms} ms`,
        ),
      );
    }, ms);
    child.on("message", onMessage);
    child.once("exit", onExit);
    child.once("error", onError);
  });
}

/** Signals that cancel a capture running in the foreground. */
export const FOREGROUND_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/**
 * A `run` or `capture` under a supervisor from the start, in the foreground: the signals
 * the launcher gets cancel it, and after `afterMs` it is promoted to a job (the same
 * capture goes on in the background). Resolves with the final receipt, or the live one if
 * it was promoted first.
 */
export async function superviseInForeground(
  mode: "run" | "capture",
  captureId: string,
  job: JobSpec,
  afterMs: number,
  io: Pick<Io, "cwd" | "env">,
  /** Aborting cancels the job (SIGTERM to its group), as this process's signals do. */
  signal?: AbortSignal,
): Promise<Extract<SupervisorMessage, { type: "final" | "promoted" }>> {
  const child = launchSupervisor(mode, captureId, job, io);
  const tell = (message: LauncherMessage) => {
    if (child.connected) child.send(message);
  };
  const forward = (sig: NodeJS.Signals) => tell({ type: "cancel", signal: sig });
  const onAbort = () => forward("SIGTERM");
  for (const s of FOREGROUND_SIGNALS) process.on(s, forward);
  signal?.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => tell({ type: "promote" }), afterMs);
  try {
    // No overall limit: a foreground run lasts as long as CMD (or until promoted).
    return await nextMessage(child, ["final", "promoted"], 2 ** 31 - 1);
  } finally {
    clearTimeout(timer);
    for (const s of FOREGROUND_SIGNALS) process.off(s, forward);
    signal?.removeEventListener("abort", onAbort);
    detachSupervisor(child);
  }
}

/** Let the launcher exit while the supervisor goes on. */
export function detachSupervisor(child: ChildProcess): void {
  if (child.connected) child.disconnect();
  child.unref();
}
