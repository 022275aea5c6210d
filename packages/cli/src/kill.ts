/**
 * `spool kill REF [--signal SIG]`: cancel a job: the signal (default SIGTERM) goes to its
 * whole process group through its supervisor, escalating to SIGKILL after the grace
 * period; `kill` waits (bounded) for the final receipt and prints its status line. A
 * crashed supervisor's job, or what is left of a group whose leader exited, is stopped
 * here; a job with nothing left running is left alone and said so.
 *
 * The cancelling is `ops/kill-capture.ts` (shared with the MCP `kill` tool and `rm --kill`);
 * this is its CLI face: the report on stdout and exit 0, or on stderr and exit 75.
 */
import type { CommandInput } from "./args.js";
import type { KILL } from "./commands.js";
import type { Io } from "./io.js";
import { locateCapture } from "./locate-capture.js";
import { killCapture, killReport } from "./ops/kill-capture.js";
import { WAIT_TIMED_OUT } from "./ops/wait-capture.js";

export async function killCommand(parsed: CommandInput<typeof KILL>, io: Io): Promise<number> {
  const raw = parsed.options.signal;
  const signal = (raw.startsWith("SIG") ? raw : `SIG${raw}`) as NodeJS.Signals;
  const { store, captureId } = await locateCapture(parsed, io);
  const { ok, text } = killReport(await killCapture(store, captureId, signal));
  if (!ok) {
    io.stderr(`${text}\n`);
    return WAIT_TIMED_OUT;
  }
  io.stdout(`${text}\n`);
  return 0;
}
