/**
 * Launching the job supervisor (`spool __supervise`): a detached Node process in its own
 * session with stdio on /dev/null and one IPC channel to its launcher, which it keeps
 * only until the launch (or, for `run`, the final or promoted) receipt is handed over.
 * The supervisor owns the child's pipes and the capture; the launcher may exit at once.
 *
 * @example
 * ```ts
 * import { launchSupervisor, nextMessage } from "@spool/cli";
 * declare const io: import("@spool/cli").Io;
 * const child = launchSupervisor("start", "AAAAAAAAAAAAAAAAAAAAAAAA", ["--", "make"], io);
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
  | { type: "final"; receipt: Receipt; exitStatus: number };

/** Launcher → supervisor. */
export type LauncherMessage = { type: "promote" } | { type: "cancel"; signal: NodeJS.Signals };

const BIN = fileURLToPath(new URL("../bin/spool.js", import.meta.url));

/**
 * Start a supervisor for `argv` (the capture options, `--`, the command). A `capture`
 * supervisor is handed the launcher's stdin (the same open file, nothing copied); the
 * launcher must not read it.
 */
export function launchSupervisor(
  mode: SupervisorMode,
  captureId: string,
  argv: readonly string[],
  io: Io,
): ChildProcess {
  return spawn(process.execPath, [BIN, "__supervise", mode, captureId, ...argv], {
    cwd: io.cwd,
    env: io.env,
    detached: true,
    stdio: [mode === "capture" ? "inherit" : "ignore", "ignore", "ignore", "ipc"],
  });
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
  argv: readonly string[],
  afterMs: number,
  io: Io,
): Promise<Extract<SupervisorMessage, { type: "final" | "promoted" }>> {
  const child = launchSupervisor(mode, captureId, argv, io);
  const tell = (message: LauncherMessage) => {
    if (child.connected) child.send(message);
  };
  const forward = (signal: NodeJS.Signals) => tell({ type: "cancel", signal });
  for (const s of FOREGROUND_SIGNALS) process.on(s, forward);
  const timer = setTimeout(() => tell({ type: "promote" }), afterMs);
  try {
    // No overall limit: a foreground run lasts as long as CMD (or until promoted).
    return await nextMessage(child, ["final", "promoted"], 2 ** 31 - 1);
  } finally {
    clearTimeout(timer);
    for (const s of FOREGROUND_SIGNALS) process.off(s, forward);
    detachSupervisor(child);
  }
}

/** Let the launcher exit while the supervisor goes on. */
export function detachSupervisor(child: ChildProcess): void {
  if (child.connected) child.disconnect();
  child.unref();
}
