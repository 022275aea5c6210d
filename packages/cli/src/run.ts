/**
 * `spool run [options] -- CMD [ARGS...]`: capture in the foreground, print the inline
 * result. On a terminal the output is shown as it is captured (`live-view.ts`) and a
 * progress line stands in for a quiet command (`progress-line.ts`); a file on stdin is
 * passed to CMD, a pipe or a terminal only with `--stdin`. With `--background-after S` the
 * capture runs under the job supervisor from the start; if CMD is still running after S
 * seconds the run is promoted to a job: the live receipt is printed, `run` exits 0 and the
 * same capture goes on in the background.
 */
import { newCaptureId, type Receipt, startCapture } from "@spool/core/runtime";
import { type CommandInput, usageError } from "./args.js";
import {
  type CaptureConfig,
  captureConfig,
  openCapture,
  prepareCapture,
  resolveCaptureRoot,
} from "./capture-setup.js";
import type { RUN } from "./commands.js";
import { formatInline, statusLine, wantsColour } from "./inline.js";
import type { Descriptors, Io } from "./io.js";
import { jsonText } from "./json-text.js";
import { createLiveView, type LiveView } from "./live-view.js";
import { type ProgressLine, runProgressText, startProgressLine } from "./progress-line.js";
import { FOREGROUND_SIGNALS, superviseInForeground } from "./supervisor-launch.js";

const NO_TERMINAL: Descriptors = { stdout: false, stderr: false, stdin: "closed" };

export async function runCommand(parsed: CommandInput<typeof RUN>, io: Io): Promise<number> {
  const o = parsed.options;
  if (o.live && o["no-live"]) throw usageError("--live and --no-live exclude each other");
  if (o.live && o.json) throw usageError("--live and --json exclude each other");
  const prepared = prepareCapture(captureConfig(parsed, io.env, io.cwd));
  const afterMs = o["background-after"];
  if (afterMs !== undefined) {
    if (o.live || o.stdin)
      throw usageError("--live and --stdin do not combine with --background-after");
    // The supervisor opens the capture; the root is made here so its faults show here.
    resolveCaptureRoot(prepared.config);
    return runSupervised(parsed.argv, afterMs, prepared.config, io);
  }
  const fds = io.descriptors?.() ?? NO_TERMINAL;
  const live = o.live || (fds.stdout && !o.json && !o["no-live"]);
  // A person watches when both are terminals: then a quiet command gets a progress line.
  const watched = live || (fds.stdout && fds.stderr && !o.json);
  const view = watched ? terminalView(live, prepared.config.keepAnsi, io) : null;
  const setup = openCapture(prepared, view ? (stream) => view.live.stage(stream) : undefined);
  const capture = startCapture({
    ...setup.options,
    stdin: stdinOf(fds.stdin, o.stdin),
    spool: setup.files.factory,
  });
  const forward = (signal: NodeJS.Signals) => capture.cancel(signal);
  for (const s of FOREGROUND_SIGNALS) process.on(s, forward);
  try {
    const { receipt, exitStatus } = await capture.done;
    view?.progress?.stop();
    const colour = wantsColour(fds.stdout, io.env);
    // A person who piped something in is told where it went (a terminal on stdin is usual).
    if (receipt.process?.stdin === "withheld" && fds.stdin === "pipe" && fds.stderr)
      io.stderr("[spool] stdin is a pipe: not passed to CMD (--stdin passes it)\n");
    if (!live) return report(receipt, exitStatus, setup.options.command, setup.json, io, colour);
    await view!.live.settle();
    const { any, endsLine } = view!.live.shown;
    io.stdout(`${any && !endsLine ? "\n" : ""}${statusLine(receipt, exitStatus, colour)}\n`);
    return reportSpawnFailure(receipt, exitStatus, setup.options.command, io);
  } finally {
    view?.progress?.stop();
    for (const s of FOREGROUND_SIGNALS) process.off(s, forward);
    await setup.files.destroy();
    setup.logger.flush?.();
  }
}

/**
 * The child's stdin: a regular file or a character device (`/dev/null`) is passed as
 * an explicit request; a pipe or a terminal only with `--stdin` (an agent's shell may
 * hold a pipe open forever), else it is withheld and the receipt says so.
 */
function stdinOf(
  kind: Descriptors["stdin"],
  passPipes: boolean,
): "ignore" | "inherit" | "withheld" {
  // /dev/null is what the child gets by default: nothing to pass, nothing to say.
  if (kind === "closed" || kind === "null") return "ignore";
  if (kind === "file" || kind === "device" || passPipes) return "inherit";
  return "withheld";
}

/** The live view (shown or only counted) and, when stderr is a terminal, its progress line. */
function terminalView(
  live: boolean,
  keepAnsi: boolean,
  io: Io,
): { live: LiveView; progress: ProgressLine | null } {
  let progress: ProgressLine | null = null;
  const view = createLiveView({
    live,
    keepAnsi,
    fds: { stdout: 1, stderr: 2 },
    beforeWrite: () => progress?.activity(),
  });
  if (io.descriptors?.().stderr)
    progress = startProgressLine({
      stream: process.stderr,
      text: (ms) => runProgressText(ms, view.tally),
      mayDraw: () => view.quiet(),
    });
  return { live: view, progress };
}

async function runSupervised(
  argv: readonly string[],
  afterMs: number,
  config: CaptureConfig,
  io: Io,
): Promise<number> {
  const message = await superviseInForeground("run", newCaptureId(), argv, afterMs, io);
  if (message.type === "promoted") {
    io.stdout(`${jsonText(message.receipt, 2)}\n`);
    return 0;
  }
  return report(message.receipt, message.exitStatus, config.command, config.json, io);
}

function report(
  receipt: Receipt,
  exitStatus: number,
  command: string,
  json: boolean,
  io: Io,
  colour = false,
): number {
  io.stdout(json ? `${jsonText(receipt, 2)}\n` : formatInline(receipt, exitStatus, colour));
  return reportSpawnFailure(receipt, exitStatus, command, io);
}

function reportSpawnFailure(receipt: Receipt, exitStatus: number, command: string, io: Io): number {
  if (exitStatus === 127 || exitStatus === 126) {
    io.stderr(`spool: cannot run ${jsonText(command)}: ${receipt.process?.reason}\n`);
  }
  return exitStatus;
}
