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
 * A capture that ended or crashed while something of its process group still runs says
 * so: `group N running` in the line, `groupRunning: N` in `--json` (null otherwise);
 * `spool kill` stops it. Lines are printed with control characters escaped. On a terminal
 * the same facts are an aligned table with relative times and colours (`ls-table.ts`).
 *
 * The listing is `ops/list-captures.ts` (shared with the MCP `ls` tool); this is its CLI face.
 */
import { printable } from "@spool/core";
import { type CommandInput, escapeControls } from "./args.js";
import type { LS } from "./commands.js";
import { wantsColour } from "./inline.js";
import type { Io } from "./io.js";
import { jsonText } from "./json-text.js";
import { locateStore } from "./locate-capture.js";
import { lsTable } from "./ls-table.js";
import { type CaptureSummary, listCaptureSummaries } from "./ops/list-captures.js";

export async function lsCommand(parsed: CommandInput<typeof LS>, io: Io): Promise<number> {
  const store = locateStore(parsed, io);
  const { captures, errors } = await listCaptureSummaries(store, {
    unseen: parsed.options.unseen,
  });
  for (const e of errors) io.stderr(`spool ls: ${e.captureId}: ${e.message}\n`);
  if (parsed.options.json) {
    io.stdout(`${jsonText(captures, 2)}\n`);
    return 0;
  }
  if (io.descriptors?.().stdout && captures.length > 0) {
    io.stdout(lsTable(captures, Date.now(), wantsColour(true, io.env)));
    return 0;
  }
  for (const c of captures) io.stdout(`${escapeControls(line(c))}\n`);
  return 0;
}

function line(c: CaptureSummary): string {
  const reasons = c.reasons.length > 0 ? ` (${c.reasons.join(", ")})` : "";
  const exit = c.signal !== null ? ` ${c.signal}` : c.exitCode !== null ? ` ${c.exitCode}` : "";
  const bytes = c.committed.stdout + c.committed.stderr;
  const label = c.label === null ? "" : `  ${printable(c.label)}`;
  const origin = c.provenance
    ? `  [${c.provenance.kind} from ${printable(c.provenance.from)}]`
    : "";
  const survivor = c.groupRunning === null ? "" : `  [group ${c.groupRunning} running]`;
  return `${c.captureId}  ${c.startedAt}  ${c.process}${exit}  ${c.capture}${reasons}  ${bytes} B${survivor}${label}${origin}`;
}
