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
 *
 * A capture that ended or crashed while something of its process group still runs (a
 * supervisor killed with its job, a descendant that kept the pipe) says so: `group N
 * running` in the line, `groupRunning: N` in `--json` (null otherwise); `spool kill`
 * stops it. Lines are printed with control characters escaped. On a terminal the same
 * facts are an aligned table with relative times and colours (`ls-table.ts`).
 */

import { type CaptureStore, printable, producerOf, type StoredCapture } from "@spool/core";
import { liveGroupIds } from "@spool/core/process-group";
import { type CommandInput, escapeControls } from "./args.js";
import type { LS } from "./commands.js";
import { wantsColour } from "./inline.js";
import type { Io } from "./io.js";
import { groupLeft } from "./job-group.js";
import { jsonText } from "./json-text.js";
import { locateStore } from "./locate-capture.js";
import { lsTable } from "./ls-table.js";

export async function lsCommand(parsed: CommandInput<typeof LS>, io: Io): Promise<number> {
  const store = locateStore(parsed, io);
  const report = await store.recover();
  for (const e of report.errors) io.stderr(`spool ls: ${e.captureId}: ${e.message}\n`);
  let captures = await store.list();
  if (parsed.options.unseen) captures = await deliverUnseen(store, captures, io);
  const running = survivorsOf(captures);
  if (parsed.options.json) {
    const summaries = await Promise.all(captures.map((c) => summary(store, c, running)));
    io.stdout(`${jsonText(summaries, 2)}\n`);
    return 0;
  }
  if (io.descriptors?.().stdout && captures.length > 0) {
    io.stdout(lsTable(captures, running, Date.now(), wantsColour(true, io.env)));
    return 0;
  }
  for (const c of captures) io.stdout(`${escapeControls(line(c, running.get(c.captureId)))}\n`);
  return 0;
}

/** The ended jobs whose completion this call delivered (and so marked seen). */
async function deliverUnseen(
  store: CaptureStore,
  captures: readonly StoredCapture[],
  io: Io,
): Promise<StoredCapture[]> {
  const delivered: StoredCapture[] = [];
  for (const c of captures) {
    // After recover() a crashed capture is final too; a live one has not ended.
    if (c.condition !== "final" || c.job === null) continue;
    try {
      if (await store.completion.take(c.captureId)) delivered.push(c);
    } catch (error) {
      // Not delivered, not marked: the next poll tries again.
      io.stderr(`spool ls: ${c.captureId}: ${(error as Error).message}\n`);
    }
  }
  return delivered;
}

/** Captures that ended or crashed with their process group still running: id → pgid. */
function survivorsOf(captures: readonly StoredCapture[]): Map<string, number> {
  const out = new Map<string, number>();
  const ended = captures.filter((c) => c.condition !== "live" && c.receipt.process?.pid);
  if (ended.length === 0) return out;
  const live = liveGroupIds();
  for (const c of ended) {
    const group = groupLeft(c.receipt, live);
    if (group !== null) out.set(c.captureId, group.pgid);
  }
  return out;
}

async function summary(store: CaptureStore, c: StoredCapture, running: Map<string, number>) {
  const r = c.receipt;
  const job = c.job !== null;
  return {
    captureId: c.captureId,
    callId: r.callId,
    label: r.label,
    condition: c.condition,
    process: producerOf(r).state,
    exitCode: producerOf(r).exitCode,
    signal: producerOf(r).signal,
    capture: r.capture.state,
    reasons: r.capture.reasons,
    startedAt: producerOf(r).startedAt,
    endedAt: producerOf(r).endedAt,
    committed: { stdout: r.streams.stdout.committed, stderr: r.streams.stderr.committed },
    refs: { stdout: r.streams.stdout.ref, stderr: r.streams.stderr.ref },
    job,
    // For a job: whether its completion has been delivered (by `wait` or `ls --unseen`).
    completionSeen: job ? await store.completion.seen(c.captureId) : null,
    // Imported (`spool import`) or shared (`spool share`): where it came from; else null.
    provenance: r.provenance ?? null,
    groupRunning: running.get(c.captureId) ?? null,
  };
}

function line(c: StoredCapture, groupRunning: number | undefined): string {
  const r = c.receipt;
  const reasons = r.capture.reasons.length > 0 ? ` (${r.capture.reasons.join(", ")})` : "";
  const exit =
    producerOf(r).signal !== null
      ? ` ${producerOf(r).signal}`
      : producerOf(r).exitCode !== null
        ? ` ${producerOf(r).exitCode}`
        : "";
  const bytes = r.streams.stdout.committed + r.streams.stderr.committed;
  const label = r.label === null ? "" : `  ${printable(r.label)}`;
  const origin = r.provenance
    ? `  [${r.provenance.kind} from ${printable(r.provenance.from)}]`
    : "";
  const survivor = groupRunning === undefined ? "" : `  [group ${groupRunning} running]`;
  return `${c.captureId}  ${producerOf(r).startedAt}  ${producerOf(r).state}${exit}  ${r.capture.state}${reasons}  ${bytes} B${survivor}${label}${origin}`;
}
