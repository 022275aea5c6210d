/**
 * `spool recover [--root DIR] [--json]`: reconcile the leftovers of crashed
 * supervisors: each gets a `receipt.json` saying `partial` with reason `crash` (never
 * `complete`), its committed bytes stay readable where they are, and the root's quota
 * books are rebuilt from the files. Captures whose supervisor is alive are not touched;
 * running it again changes nothing.
 */
import type { CommandInput } from "./args.js";
import type { RECOVER } from "./commands.js";
import type { Io } from "./io.js";
import { jsonText } from "./json-text.js";
import { locateStore } from "./locate-capture.js";

export async function recoverCommand(
  parsed: CommandInput<typeof RECOVER>,
  io: Io,
): Promise<number> {
  const report = await locateStore(parsed, io).recover();
  if (parsed.options.json) {
    io.stdout(`${jsonText(report, 2)}\n`);
  } else {
    for (const id of report.recovered) io.stdout(`recovered ${id}: partial (crash)\n`);
    io.stdout(
      `spool recover: ${report.recovered.length} recovered, ${report.live.length} live (untouched), ${report.final.length} already final\n`,
    );
  }
  for (const e of report.errors) io.stderr(`spool recover: ${e.captureId}: ${e.message}\n`);
  return report.errors.length > 0 ? 70 : 0;
}
