/**
 * `spool wait REF [--timeout S]`: wait for the job to end, print its final receipt as
 * JSON, deliver its completion notification, and exit with its exit status (as `run`
 * would have). Still running after `--timeout`: the live receipt, exit 75. Its owner
 * (supervisor, or a foreground `spool run`) found dead first, or ended without storing
 * `receipt.json`: the crash receipt (`partial`), and the job's exit status if its owner
 * observed it (the exit record), else 70.
 *
 * The waiting is `ops/wait-capture.ts` (shared with the MCP `wait` tool); this is its CLI face.
 */
import type { CommandInput } from "./args.js";
import type { WAIT } from "./commands.js";
import type { Io } from "./io.js";
import { jsonText } from "./json-text.js";
import { locateCapture } from "./locate-capture.js";
import { ownerDied, type WaitResult, waitForCapture } from "./ops/wait-capture.js";

export async function waitCommand(parsed: CommandInput<typeof WAIT>, io: Io): Promise<number> {
  const { store, captureId } = await locateCapture(parsed, io);
  const timeoutMs = parsed.options.timeout ?? null;
  const result = await waitForCapture(store, captureId, { timeoutMs });
  io.stdout(`${jsonText(result.state.receipt, 2)}\n`);
  for (const note of waitNotes(result, timeoutMs)) io.stderr(`spool wait: ${note}\n`);
  return result.exitStatus;
}

/** What `wait` says on stderr besides the receipt, one line each. */
function waitNotes(result: WaitResult, timeoutMs: number | null): string[] {
  const { state } = result;
  const id = state.receipt.captureId;
  if (result.timedOut) return [`${id} still running after ${(timeoutMs ?? 0) / 1000} s`];
  const notes: string[] = [];
  // The receipt is printed all the same; a later `ls --unseen` may list it again.
  if (result.completionError !== null)
    notes.push(`completion not marked delivered: ${result.completionError}`);
  if (!ownerDied(state)) return notes;
  notes.push(
    state.receipt.capture.reasons.includes("crash")
      ? `the owner of ${id} (its supervisor or spool run) died; capture partial (crash)${result.exitKnown ? "" : ", the job's exit status is unknown"}`
      : `${id} ended but its receipt.json could not be stored; partial`,
  );
  return notes;
}
