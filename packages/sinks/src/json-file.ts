/**
 * Reading the small JSON files a capture directory holds (`receipt.json`, `live.json`,
 * `owner.json`, `job.json`, cursors) from outside their writer: opened with
 * `O_NOFOLLOW`, so a link planted in their place is never followed, and only when
 * `fstat` says it is a regular file of modest size. Anything else (absent, a link, a
 * directory, too large, not JSON) reads as `undefined`: these files are published
 * atomically, so a reader that finds none simply looks again later.
 *
 * @example
 * ```ts
 * import { readJsonNoFollow } from "@spool/sinks";
 * const receipt = readJsonNoFollow("/abs/root/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/receipt.json");
 * ```
 */
import * as fs from "node:fs";

/** Largest JSON file read (a receipt holds at most a 16 KiB preview). */
export const MAX_JSON_BYTES = 4 * 1024 * 1024;

/** The parsed contents of `file`, or `undefined` when it is not a readable regular JSON file. */
export function readJsonNoFollow(file: string): unknown {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size > MAX_JSON_BYTES) return undefined;
    return JSON.parse(fs.readFileSync(fd, "utf8")) as unknown;
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}
