/**
 * `spool start [options] -- CMD [ARGS...]`: start CMD as a background job under a
 * detached supervisor, print its launch receipt (process `running`, capture `pending`,
 * live refs to the `.live` files) as JSON at once, and exit 0 (126/127 when CMD cannot
 * be run). Follow the job with `status`, `read`, `tail`, `grep`, `wait`, `kill`.
 */
import type { CommandInput } from "./args.js";
import type { START } from "./commands.js";
import type { Io } from "./io.js";
import { jsonText } from "./json-text.js";
import { startJob } from "./ops/run-capture.js";

/** The CLI face of `startJob` (`ops/run-capture.ts`): the launch receipt as JSON. */
export async function startCommand(parsed: CommandInput<typeof START>, io: Io): Promise<number> {
  const { receipt, status, command } = await startJob(parsed, io);
  io.stdout(`${jsonText(receipt, 2)}\n`);
  if (status !== 0)
    io.stderr(`spool start: cannot run ${jsonText(command)}: ${receipt.process?.reason}\n`);
  return status;
}
