/**
 * `spool share REF --to ROOT [--root DIR] [--root-quota N] [--json]`: hand one capture to
 * a child root on this machine (`shareCapture` in `@spool/sinks`): a final capture's
 * files are hard-linked when both roots are on one file system, anything else is copied
 * (a running job as a `partial` snapshot); the child's receipt records the parent root.
 * The child keeps its copy when the parent is deleted.
 */
import * as path from "node:path";
import { DEFAULT_ROOT_QUOTA, resolveRoot, shareCapture } from "@spool/sinks";
import { parseArgs, usageError } from "./args.js";
import type { Io } from "./io.js";
import { locateCapture } from "./locate-capture.js";

export async function shareCommand(argv: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(argv, {
    root: { kind: "string" },
    to: { kind: "string" },
    "root-quota": { kind: "size" },
    json: { kind: "flag" },
  });
  const o = parsed.options;
  if (typeof o.to !== "string" || o.to.length === 0) throw usageError("missing --to ROOT");
  const { store, captureId } = await locateCapture(parsed, io);
  const root = resolveRoot({ flag: o.root as string | undefined, env: io.env, create: false });
  const to = path.resolve(io.cwd, o.to);
  if (to === root) throw usageError("--to names the capture's own root");
  const report = await shareCapture({
    store,
    root,
    captureId,
    to,
    quotaBytes: (o["root-quota"] as number | undefined) ?? DEFAULT_ROOT_QUOTA,
  });
  if (o.json === true) {
    io.stdout(
      `${JSON.stringify({ to, captureId, bytes: report.bytes, linked: report.linked }, null, 2)}\n`,
    );
  } else {
    const how = report.linked > 0 ? `${report.linked} file(s) hard-linked` : "copied";
    io.stdout(`shared ${captureId} (${report.bytes} B, ${how}) into ${to}\n`);
  }
  return 0;
}
