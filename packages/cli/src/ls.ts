/**
 * `spool ls [--root DIR] [--json] [--unseen]`: every capture in the root with its process
 * and capture states, oldest first. Crash leftovers are reconciled first (as `spool
 * recover` does), so a capture whose owner died shows `partial (crash)`.
 *
 * `--unseen` is the poll for finished background jobs: it lists only the jobs that have
 * ended (completely, or crashed) and whose completion has not been delivered yet, and
 * delivers it (`completion.seen`, created exclusively), so each completion is returned
 * exactly once, also to concurrent pollers. `wait` delivers it too; `status`, `read`,
 * `tail` and `grep` never do.
 */

import { printable } from "@spool/core";
import { type CaptureStatus, listCaptures, recoverRoot } from "@spool/sinks";
import type { CommandInput } from "./args.js";
import type { LS } from "./commands.js";
import { completionSeen, takeCompletion } from "./completion.js";
import type { Io } from "./io.js";
import { readJobRecord } from "./job-record.js";
import { locateRoot } from "./locate-capture.js";

export async function lsCommand(parsed: CommandInput<typeof LS>, io: Io): Promise<number> {
  const root = locateRoot(parsed, io);
  const report = recoverRoot(root);
  for (const e of report.errors) io.stderr(`spool ls: ${e.captureId}: ${e.message}\n`);
  let captures = listCaptures(root);
  if (parsed.options.unseen) captures = deliverUnseen(captures, io);
  if (parsed.options.json) {
    io.stdout(`${JSON.stringify(captures.map(summary), null, 2)}\n`);
    return 0;
  }
  for (const c of captures) io.stdout(`${line(c)}\n`);
  return 0;
}

/** The ended jobs whose completion this call delivered (and so marked seen). */
function deliverUnseen(captures: readonly CaptureStatus[], io: Io): CaptureStatus[] {
  const delivered: CaptureStatus[] = [];
  for (const c of captures) {
    // After recoverRoot a crashed capture is final too; a live one has not ended.
    if (c.condition !== "final" || readJobRecord(c.dir) === null) continue;
    try {
      if (takeCompletion(c.dir)) delivered.push(c);
    } catch (error) {
      // Not delivered, not marked: the next poll tries again.
      io.stderr(`spool ls: ${c.captureId}: ${(error as Error).message}\n`);
    }
  }
  return delivered;
}

function summary(c: CaptureStatus) {
  const r = c.receipt;
  const job = readJobRecord(c.dir) !== null;
  return {
    captureId: c.captureId,
    callId: r.callId,
    label: r.label,
    condition: c.condition,
    process: r.process.state,
    exitCode: r.process.exitCode,
    signal: r.process.signal,
    capture: r.capture.state,
    reasons: r.capture.reasons,
    startedAt: r.process.startedAt,
    endedAt: r.process.endedAt,
    committed: { stdout: r.streams.stdout.committed, stderr: r.streams.stderr.committed },
    refs: { stdout: r.streams.stdout.ref, stderr: r.streams.stderr.ref },
    job,
    // For a job: whether its completion has been delivered (by `wait` or `ls --unseen`).
    completionSeen: job ? completionSeen(c.dir) : null,
  };
}

function line(c: CaptureStatus): string {
  const r = c.receipt;
  const reasons = r.capture.reasons.length > 0 ? ` (${r.capture.reasons.join(", ")})` : "";
  const exit =
    r.process.signal !== null
      ? ` ${r.process.signal}`
      : r.process.exitCode !== null
        ? ` ${r.process.exitCode}`
        : "";
  const bytes = r.streams.stdout.committed + r.streams.stderr.committed;
  const label = r.label === null ? "" : `  ${printable(r.label)}`;
  return `${c.captureId}  ${r.process.startedAt}  ${r.process.state}${exit}  ${r.capture.state}${reasons}  ${bytes} B${label}`;
}
