/**
 * Reading `--redact-file F`: a regular file of at most {@link MAX_REDACT_FILE_BYTES}
 * bytes, read in one bounded pass. It is opened non-blocking, so a FIFO nobody writes
 * to is refused at once instead of hanging, and checked with `fstat` on what was opened,
 * so `/dev/zero` or a device is refused before a byte is read; a file that grows while
 * being read is refused at the limit, never read on.
 *
 * @example
 * ```ts
 * import { readRedactFile } from "./redact-file.js";
 * readRedactFile("secrets.txt"); // the file's text; throws a usage error (exit 64) otherwise
 * ```
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { shown, usageError } from "./args.js";

/** Largest `--redact-file` (1 MiB: tens of thousands of secrets). */
export const MAX_REDACT_FILE_BYTES = 1024 * 1024;

/** The text of `file`, or a one-line usage error naming why it cannot be used. */
export function readRedactFile(file: string): string {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    throw usageError(`--redact-file: cannot read ${shown(file)} (${errnoCodeOf(error)})`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw usageError(`--redact-file: ${shown(file)} is not a regular file`);
    if (stat.size > MAX_REDACT_FILE_BYTES) throw tooLarge(file);
    const buffer = Buffer.alloc(MAX_REDACT_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.byteLength - length, null);
      if (n === 0) break;
      length += n;
      if (length > MAX_REDACT_FILE_BYTES) throw tooLarge(file);
    }
    return buffer.subarray(0, length).toString("utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "SPOOL_E_USAGE") throw error;
    throw usageError(`--redact-file: cannot read ${shown(file)} (${errnoCodeOf(error)})`);
  } finally {
    closeSync(fd);
  }
}

function tooLarge(file: string): Error {
  return usageError(`--redact-file: ${shown(file)} is larger than 1 MiB`);
}

function errnoCodeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? "error";
}
