/**
 * `spool import BUNDLE [--root DIR] [--root-quota N] [--json]`: bring a bundle (a tar
 * file or a directory made by `spool export`) into the root (`importBundle` in
 * `@spool/sinks`): staged privately inside the root, verified in full against its
 * manifest (sizes, sha256, receipts), reserved in the root's allowance, then published
 * one capture directory at a time by rename. Ids are kept; a bundle holding an id the
 * root already has is refused whole. A refused bundle (hostile entries, a tampered hash,
 * a manifest that lies, a truncated tar) writes nothing and exits 65.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { isSpoolError } from "@spool/core";
import { defaultRoot, importBundle, resolveRoot } from "@spool/sinks";
import { type CommandInput, shown, usageError } from "./args.js";
import type { IMPORT } from "./commands.js";
import type { Io } from "./io.js";
import { fileSize, withProgress } from "./progress-line.js";

/** Exit status of a refused bundle (EX_DATAERR). */
export const BUNDLE_REFUSED = 65;

export async function importCommand(parsed: CommandInput<typeof IMPORT>, io: Io): Promise<number> {
  if (parsed.rest !== null) throw usageError(`unexpected argument "--"`);
  const [bundle, ...more] = parsed.positionals;
  if (bundle === undefined)
    throw usageError("missing BUNDLE (a file.tar or directory from spool export)");
  if (more.length > 0) throw usageError(`unexpected argument "${shown(more[0]!)}"`);
  // A missing root is made by the import itself, and removed again if the bundle is refused.
  const given = parsed.options.root;
  const root = fs.existsSync(path.resolve(io.cwd, given ?? defaultRoot(io.env)))
    ? resolveRoot({ flag: given, env: io.env, create: false })
    : path.resolve(io.cwd, given ?? defaultRoot(io.env));
  try {
    const from = path.resolve(io.cwd, bundle);
    const size = fileSize(from)();
    const report = await withProgress(
      io,
      "import",
      () => (size ? `a ${size} bundle` : ""),
      () => importBundle({ root, bundle: from, quotaBytes: parsed.options["root-quota"] }),
    );
    if (parsed.options.json) {
      io.stdout(
        `${JSON.stringify({ root, imported: report.imported, bytes: report.bytes }, null, 2)}\n`,
      );
    } else {
      io.stdout(`imported ${report.imported.length} capture(s) (${report.bytes} B) into ${root}\n`);
      for (const id of report.imported) io.stdout(`  ${id}\n`);
    }
    return 0;
  } catch (error) {
    if (isSpoolError(error, "SPOOL_E_BUNDLE", "SPOOL_E_INTEGRITY")) {
      io.stderr(`spool import: ${error.message}\n`);
      return BUNDLE_REFUSED;
    }
    throw error;
  }
}
