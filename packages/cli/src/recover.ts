/**
 * `spool recover [--root DIR] [--json]`: reconcile the leftovers of crashed
 * supervisors: each gets a `receipt.json` saying `partial` with reason `crash` (never
 * `complete`), its committed bytes stay readable where they are, and the root's quota
 * books are rebuilt from the files. Captures whose supervisor is alive are not touched;
 * running it again changes nothing. A recovered capture whose process group still runs
 * (the supervisor died, its job did not) is said so (`groupsRunning` in `--json`): the
 * receipt cannot know whether the process ended (`process.state: "unknown"`), but
 * `/proc` can, and `spool kill` stops it.
 */
import { liveGroupIds } from "@spool/core/process-group";
import type { CommandInput } from "./args.js";
import type { RECOVER } from "./commands.js";
import type { Io } from "./io.js";
import { groupLeft, survivorNote } from "./job-group.js";
import { jsonText } from "./json-text.js";
import { locateStore } from "./locate-capture.js";

export async function recoverCommand(
  parsed: CommandInput<typeof RECOVER>,
  io: Io,
): Promise<number> {
  const store = locateStore(parsed, io);
  const report = await store.recover();
  const live = liveGroupIds();
  const groupsRunning: Record<string, number> = {};
  for (const id of report.recovered) {
    const group = groupLeft((await store.state(id)).receipt, live);
    if (group !== null) groupsRunning[id] = group.pgid;
  }
  if (parsed.options.json) {
    io.stdout(`${jsonText({ ...report, groupsRunning }, 2)}\n`);
  } else {
    for (const id of report.recovered) {
      const pgid = groupsRunning[id];
      const note = pgid === undefined ? "" : `; ${survivorNote(id, { pgid, leaderStart: null })}`;
      io.stdout(`recovered ${id}: partial (crash)${note}\n`);
    }
    io.stdout(
      `spool recover: ${report.recovered.length} recovered, ${report.live.length} live (untouched), ${report.final.length} already final\n`,
    );
  }
  for (const e of report.errors) io.stderr(`spool recover: ${e.captureId}: ${e.message}\n`);
  return report.errors.length > 0 ? 70 : 0;
}
