/**
 * Running a command under capture, as typed functions: `spool run` and `spool start` (the
 * CLI faces, which parse words and print) and the MCP `run` and `start` tools (which take
 * typed arguments and answer with a result) call these, with the same typed input
 * (`CommandInput<typeof RUN>`, made by the parser or by `commandInput`).
 *
 * - {@link runFromInput}: in the foreground until the command ends, or under a job
 *   supervisor that promotes it to a background job after `background-after`.
 *   Aborting `signal` cancels it: its whole process group is stopped (SIGTERM, then
 *   SIGKILL after the grace), its output so far kept, its receipt `cancelled`.
 * - {@link startJob}: as a background job at once; resolves with the launch receipt.
 *
 * @example
 * ```ts
 * import { commandInput } from "../args.js";
 * import { RUN } from "../commands.js";
 * import { runFromInput } from "./run-capture.js";
 * const input = commandInput(RUN, { json: true, timeout: 30_000 }, ["make", "test"]);
 * const { receipt, exitStatus } = await runFromInput(input, { cwd: process.cwd(), env: process.env });
 * ```
 */
import type { StreamName } from "@spool/core";
import {
  newCaptureId,
  type Receipt,
  receiptExitStatus,
  SpoolError,
  type Stage,
} from "@spool/core/runtime";
import { startCapture } from "@spool/sinks/runtime";
import { type CommandInput, usageError } from "../args.js";
import {
  captureConfig,
  openCapture,
  type PreparedCapture,
  prepareCapture,
  resolveCaptureRoot,
} from "../capture-setup.js";
import type { RUN, START } from "../commands.js";
import type { Io } from "../io.js";
import {
  detachSupervisor,
  FOREGROUND_SIGNALS,
  launchSupervisor,
  nextMessage,
  superviseInForeground,
} from "../supervisor-launch.js";

/** What a run ended with: its receipt, the exit status `spool run` has, whether it became a job. */
export interface RunOutcome {
  readonly receipt: Receipt;
  readonly exitStatus: number;
  /** It went on as a background job (`background-after`); `exitStatus` is then 0. */
  readonly promoted: boolean;
  /** The command, as the receipt's label does not always say it. */
  readonly command: string;
}

/** How a foreground run is wired to its caller. */
export interface RunHooks {
  /** A stage of the caller's after the redactor, per stream (the terminal's live view). */
  readonly after?: (stream: StreamName) => Stage;
  /** The child's stdin. @default "ignore" (/dev/null) */
  readonly stdin?: "ignore" | "inherit" | "withheld";
  /** Aborting cancels the run (its whole process group). */
  readonly signal?: AbortSignal;
  /** This process's SIGINT, SIGTERM and SIGHUP cancel the run (a foreground `spool run`). */
  readonly forwardSignals?: boolean;
}

/** Where a run happens: its environment and working directory. */
export type RunPlace = Pick<Io, "cwd" | "env">;

/** Run the capture `input` describes (see the file comment). */
export async function runFromInput(
  input: CommandInput<typeof RUN>,
  place: RunPlace,
  hooks: RunHooks = {},
): Promise<RunOutcome> {
  const prepared = prepareCapture(captureConfig(input, place.env, place.cwd));
  const afterMs = input.options["background-after"];
  if (afterMs === undefined) return runInProcess(prepared, hooks);
  if (hooks.after !== undefined || hooks.stdin === "inherit")
    throw usageError("--live and --stdin do not combine with --background-after");
  // The supervisor opens the capture; the root is made here so its faults show here.
  resolveCaptureRoot(prepared.config);
  const job = { options: input.options, rest: input.rest };
  const message = await superviseInForeground(
    "run",
    newCaptureId(),
    job,
    afterMs,
    place,
    hooks.signal,
  );
  const promoted = message.type === "promoted";
  const exitStatus = message.type === "final" ? message.exitStatus : 0;
  return { receipt: message.receipt, exitStatus, promoted, command: prepared.config.command };
}

/** A prepared capture in this process until its command ends. */
async function runInProcess(prepared: PreparedCapture, hooks: RunHooks): Promise<RunOutcome> {
  const setup = openCapture(prepared, hooks.after);
  const capture = startCapture({
    ...setup.options,
    stdin: hooks.stdin ?? "ignore",
    spool: setup.files.factory,
  });
  const forward = (signal: NodeJS.Signals) => capture.cancel(signal);
  const onAbort = () => capture.cancel("SIGTERM");
  if (hooks.forwardSignals) for (const s of FOREGROUND_SIGNALS) process.on(s, forward);
  if (hooks.signal?.aborted) onAbort();
  hooks.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const { receipt, exitStatus } = await capture.done;
    return { receipt, exitStatus, promoted: false, command: setup.options.command };
  } finally {
    for (const s of FOREGROUND_SIGNALS) process.off(s, forward);
    hooks.signal?.removeEventListener("abort", onAbort);
    await setup.files.destroy();
    setup.logger.flush?.();
  }
}

/** How long {@link startJob} waits for the supervisor's launch receipt. */
const LAUNCH_TIMEOUT_MS = 30_000;

/** Start the job `input` describes; its launch receipt and the status `spool start` has. */
export async function startJob(
  input: CommandInput<typeof START>,
  place: RunPlace,
): Promise<{ readonly receipt: Receipt; readonly status: number; readonly command: string }> {
  // Refuse bad input here, in the foreground with exit 64; the supervisor opens the capture.
  const { config } = prepareCapture(captureConfig(input, place.env, place.cwd));
  if (!config.persist) {
    throw usageError(
      "a job keeps its output in the spool: --no-spool and --max-bytes 0 are for run",
    );
  }
  resolveCaptureRoot(config);
  const job = { options: input.options, rest: input.rest };
  const child = launchSupervisor("start", newCaptureId(), job, place);
  try {
    const message = await nextMessage(child, ["launched", "refused"], LAUNCH_TIMEOUT_MS);
    if (message.type === "refused")
      throw new SpoolError("SPOOL_E_STORAGE", "start", message.message);
    const { receipt } = message;
    const status = receipt.process?.pid === null ? receiptExitStatus(receipt) : 0;
    return { receipt, status, command: config.command };
  } finally {
    detachSupervisor(child);
  }
}
