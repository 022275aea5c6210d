/**
 * `spool capture [options] < INPUT`: the capture of `spool run`, fed from standard input
 * instead of a child (`captureSource`): the same stages (decoder, ANSI strip, redactor,
 * preview tap), storage, receipt, inline result and `--json`. The MCP proxy captures tool
 * results through it too, with the bytes as the `Io`'s stdin.
 */
import { captureSource, receiptExitStatus } from "@spool/core/runtime";
import { type CommandInput, usageError } from "./args.js";
import { captureConfig, openCapture, prepareCapture } from "./capture-options.js";
import type { CAPTURE } from "./commands.js";
import { formatInline } from "./inline.js";
import type { Io } from "./io.js";
import { jsonText } from "./json-text.js";

export async function captureCommand(
  parsed: CommandInput<typeof CAPTURE>,
  io: Io,
): Promise<number> {
  if (parsed.rest !== null) throw usageError("capture takes no command: it reads its stdin");
  // The run options' checks, with stdin in the place of the command.
  const config = captureConfig({ ...parsed, rest: ["stdin"] } as never, io.env, io.cwd);
  const setup = openCapture(prepareCapture(config));
  const { command: _c, args: _a, cwd: _cwd, env: _env, timeoutMs: _t, ...common } = setup.options;
  try {
    const capture = captureSource({
      ...common,
      spool: setup.files.factory,
      stdout: (io.stdin ?? process.stdin) as NodeJS.ReadableStream & AsyncIterable<Uint8Array>,
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
