/**
 * `spool capture [options] < INPUT`: the capture of `spool run`, fed from standard input
 * instead of a child (`captureSource`): the same stages (decoder, ANSI strip, redactor,
 * preview tap), storage, receipt, inline result and `--json`. The MCP proxy captures tool
 * results through it too, with the bytes as the `Io`'s stdin.
 *
 * With `--background-after S` the capture runs under the job supervisor from the start,
 * which reads the same stdin (handed over, not copied); if the input is still open after S
 * seconds the capture is promoted to a job, as `run --background-after` is: the live
 * receipt is printed, `capture` exits 0 and the same capture goes on in the background.
 */
import {
  type CaptureCommonOptions,
  newCaptureId,
  receiptExitStatus,
  type SourceCapture,
  type SourceDeclaration,
} from "@spool/core/runtime";
import { captureSource } from "@spool/sinks/runtime";
import { type CommandInput, type ParsedCommand, usageError } from "./args.js";
import {
  type CaptureConfig,
  type CaptureSetup,
  captureConfig,
  openCapture,
  prepareCapture,
  resolveCaptureRoot,
} from "./capture-setup.js";
import type { CAPTURE, CaptureFlags } from "./commands.js";
import { formatInline } from "./inline.js";
import type { Io } from "./io.js";
import { jsonText } from "./json-text.js";
import { superviseInForeground } from "./supervisor-launch.js";

export async function captureCommand(
  parsed: CommandInput<typeof CAPTURE>,
  io: Io,
): Promise<number> {
  if (parsed.rest !== null) throw usageError("capture takes no command: it reads its stdin");
  const prepared = prepareCapture(stdinCaptureConfig(parsed, io));
  const afterMs = parsed.options["background-after"];
  if (afterMs !== undefined) {
    if (io.stdin !== undefined) throw usageError("--background-after needs spool's own stdin");
    // The supervisor opens the capture; the root is made here so its faults show here.
    resolveCaptureRoot(prepared.config);
    const message = await superviseInForeground(
      "capture",
      newCaptureId(),
      { options: parsed.options, rest: parsed.rest },
      afterMs,
      io,
    );
    const { receipt } = message;
    const status = message.type === "promoted" ? 0 : receiptExitStatus(receipt);
    const json = prepared.config.json || message.type === "promoted";
    io.stdout(json ? `${jsonText(receipt, 2)}\n` : formatInline(receipt, status));
    return status;
  }
  const setup = openCapture(prepared);
  try {
    const capture = startStdinCapture(setup, {
      stdin: (io.stdin ?? process.stdin) as NodeJS.ReadableStream & AsyncIterable<Uint8Array>,
      declared: parsed.options.declared,
    });
    const { receipt } = await capture.done;
    const status = receiptExitStatus(receipt);
    io.stdout(setup.json ? `${jsonText(receipt, 2)}\n` : formatInline(receipt, status));
    return status;
  } finally {
    await setup.files.destroy();
    setup.logger.flush?.();
  }
}

/** The run options' checks, with stdin in the place of the command. */
export function stdinCaptureConfig(
  parsed: ParsedCommand<Omit<CaptureFlags, "timeout" | "live-ms">>,
  io: Pick<Io, "env" | "cwd">,
): CaptureConfig {
  // No timeout: the input ends when its producer closes it.
  const options = { ...parsed.options, timeout: undefined, "live-ms": 0 };
  return captureConfig({ ...parsed, options, rest: ["stdin"] }, io.env, io.cwd);
}

/** What a stdin capture reads, and how its supervisor may drive it. */
export interface StdinCaptureOptions {
  readonly stdin: NodeJS.ReadableStream & AsyncIterable<Uint8Array>;
  readonly declared: SourceDeclaration;
  readonly job?: Pick<CaptureCommonOptions, "captureId" | "liveIntervalMs">;
}

/** Start the capture of `stdin` with what `openCapture` set up (no command, cwd or timeout). */
export function startStdinCapture(
  setup: CaptureSetup,
  options: StdinCaptureOptions,
): SourceCapture {
  const { command: _c, args: _a, cwd: _cwd, env: _env, timeoutMs: _t, ...common } = setup.options;
  return captureSource({
    ...common,
    ...options.job,
    spool: setup.files.factory,
    stdout: options.stdin,
    declared: options.declared,
  });
}
