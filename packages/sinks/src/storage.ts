/**
 * Private file-system primitives for spools (SPEC §2, §7): directories `0700`, files
 * `0600` whatever the umask, exclusive creation that never follows or overwrites a
 * link, and atomic publication (temp → fsync → rename → fsync dir).
 *
 * @example
 * ```ts
 * import { ensurePrivateDir, publishAtomic } from "@spool/sinks";
 * const dir = ensurePrivateDir("/tmp/spool-example");
 * publishAtomic(dir, "note.json", Buffer.from("{}\n"));
 * ```
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
// The narrow entry: this module runs inside the writer worker too, where the full core
// entry (zod, rxjs) cost ~20 MiB of RSS and the cold start of every worker.
import { SpoolError } from "@spool/core/errors";

export const TOOL_OUTPUTS = "tool-outputs";
const COMPONENT = "storage";
const { O_CREAT, O_EXCL, O_NOFOLLOW, O_WRONLY, O_RDONLY, O_DIRECTORY } = fs.constants;

/**
 * Make `dir` (one level) private, or verify an existing one: a real directory (not a
 * link), owned by us, no group or other bits. Returns `dir`.
 */
export function ensurePrivateDir(dir: string): string {
  let created = false;
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
    created = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
      throw new SpoolError("SPOOL_E_STORAGE", COMPONENT, `cannot create directory ${dir}`, {
        cause: error,
      });
    }
  }
  const st = fs.lstatSync(dir);
  if (st.isSymbolicLink() || !st.isDirectory()) {
    throw new SpoolError(
      "SPOOL_E_UNSAFE_PATH",
      COMPONENT,
      `${dir} is not a directory (or is a link); refusing it`,
    );
  }
  if (typeof process.getuid === "function" && st.uid !== process.getuid()) {
    throw new SpoolError(
      "SPOOL_E_UNSAFE_PATH",
      COMPONENT,
      `${dir} is owned by another user; refusing it`,
    );
  }
  if (created)
    fs.chmodSync(dir, 0o700); // mkdir's mode is filtered by the umask
  else if ((st.mode & 0o077) !== 0) {
    throw new SpoolError(
      "SPOOL_E_UNSAFE_PATH",
      COMPONENT,
      `${dir} is accessible to group or others (mode ${(st.mode & 0o777).toString(8)}); refusing it`,
    );
  }
  return dir;
}

/** Create `file` exclusively, `0600`, never through a link; returns its descriptor. */
export function createExclusive(file: string): number {
  let fd: number;
  try {
    fd = fs.openSync(file, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SpoolError(
      code === "EEXIST" || code === "ELOOP" ? "SPOOL_E_EXISTS" : "SPOOL_E_STORAGE",
      COMPONENT,
      `cannot create ${path.basename(file)} exclusively (${code})`,
      { cause: error },
    );
  }
  fs.fchmodSync(fd, 0o600);
  return fd;
}

/** Write all of `data` at the current position, looping over short writes. */
export function writeFully(fd: number, data: Uint8Array): void {
  let off = 0;
  while (off < data.byteLength) off += fs.writeSync(fd, data, off, data.byteLength - off);
}

/** fsync a directory so a rename or creation in it is durable. */
export function syncDir(dir: string): void {
  const fd = fs.openSync(dir, O_RDONLY | O_DIRECTORY);
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Publish `name` in `dir` atomically: exclusive random temp, fsync, rename, fsync dir. */
export function publishAtomic(dir: string, name: string, data: Uint8Array): void {
  const temp = path.join(dir, `.${name}.${randomBytes(9).toString("base64url")}.tmp`);
  const fd = createExclusive(temp);
  try {
    writeFully(fd, data);
    fs.fsyncSync(fd);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    throw new SpoolError("SPOOL_E_STORAGE", COMPONENT, `cannot write ${name}`, { cause: error });
  }
  fs.closeSync(fd);
  fs.renameSync(temp, path.join(dir, name));
  syncDir(dir);
}

/** Give a finished `.live` file its final name without overwriting anything there. */
export function renameExclusive(from: string, to: string): void {
  fs.linkSync(from, to); // fails with EEXIST rather than replace
  fs.unlinkSync(from);
}
