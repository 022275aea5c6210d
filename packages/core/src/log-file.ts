/**
 * The file behind `--log FILE` (and `$SPOOL_LOG`): logs name commands and captures, so
 * the file is private like everything else spool writes. A new file is created
 * exclusively (`O_CREAT | O_EXCL | O_NOFOLLOW`), `0600` whatever the umask. An existing
 * one is appended to only if it is a regular file of this user, with one link and no
 * group or other permission bits; a link, FIFO, device, a file of another user, one
 * readable by others (`0644`) or one with a second link is logFileRefused, with the reason, and
 * left as it is.
 *
 * @example
 * ```ts
 * import { openLogFile } from "@spool/core/internal";
 * const fd = openLogFile("/tmp/spool-example.log"); // append-only, 0600
 * ```
 */
import * as fs from "node:fs";
import { SpoolError } from "./errors.js";

const { O_CREAT, O_EXCL, O_NOFOLLOW, O_WRONLY, O_APPEND, O_NONBLOCK } = fs.constants;

/**
 * Why `file` may not be used as a log (from its lstat/fstat), or null when it may: a
 * link, anything but a regular file, another user's file, group/other permission bits,
 * or a second hard link.
 *
 * @category logging
 * @example
 * ```ts
 * import { lstatSync } from "node:fs";
 * import { logFileProblem } from "@spool/core/internal";
 * const problem = logFileProblem(lstatSync("/tmp/spool.log"));
 * if (problem !== null) console.error(`refusing /tmp/spool.log: ${problem}`);
 * ```
 */
export function logFileProblem(st: fs.Stats): string | null {
  if (st.isSymbolicLink()) return "it is a symbolic link";
  if (!st.isFile()) return "it is not a regular file";
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) return `it belongs to another user (uid ${st.uid})`;
  if ((st.mode & 0o077) !== 0) {
    return `it is open to group or others (mode ${(st.mode & 0o777).toString(8)}; chmod 600 it)`;
  }
  if (st.nlink !== 1) return `it has ${st.nlink} links`;
  return null;
}

/**
 * Open `file` for appending log lines: created exclusively and `0600` when new, logFileRefused
 * (`SPOOL_E_UNSAFE_PATH` with the reason) when {@link logFileProblem} finds a problem.
 * Returns the file descriptor.
 *
 * @category logging
 * @example
 * ```ts
 * import { closeSync, writeSync } from "node:fs";
 * import { openLogFile } from "@spool/core/internal";
 * const fd = openLogFile("/tmp/spool-example.log");
 * writeSync(fd, "started\n");
 * closeSync(fd);
 * ```
 */
export function openLogFile(file: string): number {
  let fd: number;
  try {
    fd = fs.openSync(file, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_APPEND, 0o600);
    fs.fchmodSync(fd, 0o600);
    return fd;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw logFileRefused(file, error);
  }
  try {
    fd = fs.openSync(file, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    throw logFileRefused(file, error);
  }
  const problem = logFileProblem(fs.fstatSync(fd));
  if (problem !== null) {
    fs.closeSync(fd);
    throw new SpoolError("SPOOL_E_UNSAFE_PATH", "log", `refusing the log ${file}: ${problem}`);
  }
  return fd;
}

function logFileRefused(file: string, error: unknown): SpoolError {
  const code = (error as NodeJS.ErrnoException).code ?? "EIO";
  const why = code === "ELOOP" ? "it is a symbolic link" : code;
  return new SpoolError("SPOOL_E_UNSAFE_PATH", "log", `cannot open the log ${file} (${why})`, {
    cause: error,
  });
}
