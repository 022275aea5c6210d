/**
 * Where `spool import` stages a bundle before publishing it: `ROOT/.spool-import-<pid>-
 * <start>-<random>/`. The name records the importing process (pid and start time, as in
 * `owner.json`), so an import that died mid-way leaves a directory whose owner anyone can
 * tell is gone; `recoverRoot` (`spool recover`, `spool ls`) removes those. The owner is in
 * the name rather than in a file inside, so there is no moment when a fresh staging
 * directory has no owner.
 *
 * @example
 * ```ts
 * import { removeStaleStaging, stagingName } from "@spool/sinks";
 * stagingName(); // ".spool-import-4242-91735-q0Yx3b7c..."
 * removeStaleStaging("/home/me/.local/state/spool/default"); // [] when none were left
 * ```
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { lstatIfAny } from "../file/storage.js";
import { currentOwner, isOwnerAlive, type Owner } from "../lock/owner-identity.js";

/**
 * The name prefix of import staging directories in a root (`.spool-import-<pid>-…`).
 *
 * @category bundles
 * @example
 * ```ts
 * import { readdirSync } from "node:fs";
 * import { STAGING_PREFIX } from "@spool/sinks";
 * readdirSync("/home/me/.spool").filter((name) => name.startsWith(STAGING_PREFIX));
 * ```
 */
export const STAGING_PREFIX = ".spool-import-";
// pid, start time (digits, or "x" where unknown), random suffix (base64url).
const STAGING_NAME = /^\.spool-import-(\d{1,10})-(\d{1,20}|x)-[A-Za-z0-9_-]{12}$/;

/**
 * A fresh staging directory name owned by this process (its pid and start time, and a
 * random suffix).
 *
 * @category bundles
 * @example
 * ```ts
 * import { stagingName } from "@spool/sinks";
 * stagingName(); // e.g. ".spool-import-4242-987654-Q2xv3s9aZb1c"
 * ```
 */
export function stagingName(owner: Owner = currentOwner()): string {
  return `${STAGING_PREFIX}${owner.pid}-${owner.start ?? "x"}-${randomBytes(9).toString("base64url")}`;
}

/**
 * The owner a staging directory's name records, or null for a name not made by
 * {@link stagingName}.
 *
 * @category bundles
 * @example
 * ```ts
 * import { stagingName, stagingOwner } from "@spool/sinks";
 * stagingOwner(stagingName())?.pid === process.pid; // true
 * ```
 */
export function stagingOwner(name: string): Owner | null {
  const m = STAGING_NAME.exec(name);
  if (!m) return null;
  return { pid: Number(m[1]), start: m[2] === "x" ? null : m[2]! };
}

/**
 * Remove the root's staging directories whose importing process is gone; returns their
 * names. Entries that are not real directories, or whose name records no owner, are left
 * alone; removal never follows a link.
 *
 * @category bundles
 * @example
 * ```ts
 * import { removeStaleStaging } from "@spool/sinks";
 * const removed = removeStaleStaging("/home/me/.spool");
 * ```
 */
export function removeStaleStaging(root: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(root);
  } catch {
    return []; // no root (yet): nothing was staged
  }
  const removed: string[] = [];
  for (const name of names) {
    const owner = stagingOwner(name);
    if (owner === null || isOwnerAlive(owner)) continue;
    const dir = path.join(root, name);
    if (lstatIfAny(dir)?.isDirectory() !== true) continue;
    fs.rmSync(dir, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
