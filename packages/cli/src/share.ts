/**
 * `spool share REF --to ROOT [--root DIR] [--root-quota N] [--json]`: hand one capture to
 * a child root on this machine (`shareCapture` in `@spool/sinks`): its files are copied,
 * never hard-linked (readers refuse a file with a second link), a running job as a
 * `partial` snapshot; the child's receipt records the parent root.
 * The child keeps its copy when the parent is deleted.
 */
import * as path from "node:path";
import { resolveRoot, shareCapture } from "@spool/sinks";
import { type CommandInput, usageError } from "./args.js";
import type { SHARE } from "./commands.js";
import type { Io } from "./io.js";
import { locateCapture } from "./locate-capture.js";
import { withProgress } from "./progress-line.js";

export async function shareCommand(parsed: CommandInput<typeof SHARE>, io: Io): Promise<number> {
  const o = parsed.options;
  if (o.to === undefined || o.to.length === 0) throw usageError("missing --to ROOT");
  const { store, captureId } = await locateCapture(parsed, io);
  const root = resolveRoot({ flag: o.root, env: io.env, create: false });
  const to = path.resolve(io.cwd, o.to);
  if (to === root) throw usageError("--to names the capture's own root");
  const report = await withProgress(
    io,
    `share ${captureId}`,
    () => "",
    () => shareCapture({ store, root, captureId, to, quotaBytes: o["root-quota"] }),
  );
  if (o.json) {
    io.stdout(
      `${JSON.stringify({ to, captureId, bytes: report.bytes, linked: report.linked }, null, 2)}\n`,
    );
  } else {
    const how = report.linked > 0 ? `${report.linked} file(s) hard-linked` : "copied";
    io.stdout(`shared ${captureId} (${report.bytes} B, ${how}) into ${to}\n`);
  }
  return 0;
}
