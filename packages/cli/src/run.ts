/**
 * `spool run [options] -- CMD [ARGS...]`: capture in the foreground, print the inline
 * result. On a terminal the output is shown as it is captured (`live-view.ts`) and a
 * progress line stands in for a quiet command (`progress-line.ts`); a file on stdin is
 * passed to CMD, a pipe or a terminal only with `--stdin`. With `--background-after S` the
 * capture runs under the job supervisor from the start; if CMD is still running after S
 * seconds the run is promoted to a job: the live receipt is printed, `run` exits 0 and the
 * same capture goes on in the background.
 */
import type { Receipt } from "@spool/core/runtime";
import { type CommandInput, usageError } from "./args.js";
import type { RUN } from "./commands.js";
import { formatInline, statusLine, wantsColour } from "./inline.js";
import type { Descriptors, Io } from "./io.js";
import { jsonText } from "./json-text.js";
import { createLiveView, type LiveView } from "./live-view.js";
import { runFromInput } from "./ops/run-capture.js";
import { type ProgressLine, runProgressText, startProgressLine } from "./progress-line.js";

const NO_TERMINAL: Descriptors = { stdout: false, stderr: false, stdin: "closed" };

/** The CLI face of `runFromInput` (`ops/run-capture.ts`): the terminal's view, then the print. */
export async function runCommand(parsed: CommandInput<typeof RUN>, io: Io): Promise<number> {
  const o = parsed.options;
  if (o.live && o["no-live"]) throw usageError("--live and --no-live exclude each other");
  if (o.live && o.json) throw usageError("--live and --json exclude each other");
  if (o["background-after"] !== undefined && (o.live || o.stdin))
    throw usageError("--live and --stdin do not combine with --background-after");
  const supervised = o["background-after"] !== undefined;
  const fds = supervised ? NO_TERMINAL : (io.descriptors?.() ?? NO_TERMINAL);
  const live = o.live || (fds.stdout && !o.json && !o["no-live"]);
  // A person watches when both are terminals: then a quiet command gets a progress line.
  const watched = live || (fds.stdout && fds.stderr && !o.json);
  const view = watched ? terminalView(live, o["keep-ansi"], fds.stderr) : null;
  try {
    const outcome = await runFromInput(parsed, io, {
      ...(view ? { after: (stream) => view.live.stage(stream) } : {}),
      stdin: stdinOf(fds.stdin, o.stdin),
      forwardSignals: true,
    });
    view?.progress?.stop();
    return await print(outcome, { json: o.json, live, view: view?.live ?? null, fds }, io);
  } finally {
    view?.progress?.stop();
  }
}

/** What `run` prints of an outcome: the receipt (`--json`), the status line after live output, or the inline result. */
async function print(
  outcome: Awaited<ReturnType<typeof runFromInput>>,
  how: { json: boolean; live: boolean; view: LiveView | null; fds: Descriptors },
  io: Io,
): Promise<number> {
  const { receipt, exitStatus, command } = outcome;
  if (outcome.promoted) {
    io.stdout(`${jsonText(receipt, 2)}\n`);
    return 0;
  }
  const colour = wantsColour(how.fds.stdout, io.env);
  // A person who piped something in is told where it went (a terminal on stdin is usual).
  if (receipt.process?.stdin === "withheld" && how.fds.stdin === "pipe" && how.fds.stderr)
    io.stderr("[spool] stdin is a pipe: not passed to CMD (--stdin passes it)\n");
  if (!how.live || how.view === null)
    return report(receipt, exitStatus, command, how.json, io, colour);
  await how.view.settle();
  const { any, endsLine } = how.view.shown;
  io.stdout(`${any && !endsLine ? "\n" : ""}${statusLine(receipt, exitStatus, colour)}\n`);
  return reportSpawnFailure(receipt, exitStatus, command, io);
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
  stderrIsTerminal: boolean,
): { live: LiveView; progress: ProgressLine | null } {
  let progress: ProgressLine | null = null;
  const view = createLiveView({
    live,
    keepAnsi,
    fds: { stdout: 1, stderr: 2 },
    beforeWrite: () => progress?.activity(),
  });
  if (stderrIsTerminal)
    progress = startProgressLine({
      stream: process.stderr,
      text: (ms) => runProgressText(ms, view.tally),
      mayDraw: () => view.quiet(),
    });
  return { live: view, progress };
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
