/**
 * Reading the small JSON files a capture directory holds (`receipt.json`, `live.json`,
 * `owner.json`, `job.json`, cursors) from outside their writer, through
 * {@link openPrivateFile}: a link, a FIFO, a file of another user or one with a second
 * link planted in their place is refused with `SPOOL_E_UNSAFE_PATH` (never followed,
 * never waited on). A file that is absent, too large or not JSON reads as `undefined`:
 * these files are published atomically, so a reader that finds none looks again later.
 *
 * @example
 * ```ts
 * import { readJsonNoFollow } from "@spool/sinks";
 * const receipt = readJsonNoFollow("/abs/root/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/receipt.json");
 * ```
 */
import * as fs from "node:fs";
import { openPrivateFile } from "./private-file.js";

/**
 * Largest JSON file {@link readJsonNoFollow} reads, in bytes (a receipt holds at most a
 * 16 KiB preview).
 *
 * @category storage
 * @example
 * ```ts
 * import { MAX_JSON_BYTES } from "@spool/sinks";
 * MAX_JSON_BYTES; // 4194304
 * ```
 */
export const MAX_JSON_BYTES = 4 * 1024 * 1024;

/**
 * The parsed contents of `file`, or `undefined` when it is absent, too large or not JSON;
 * throws when it is not a private regular file (a link, another user's file).
 *
 * @category storage
 * @example
 * ```ts
 * import { ReceiptSchema } from "@spool/core";
 * import { readJsonNoFollow } from "@spool/sinks";
 * const parsed = ReceiptSchema.safeParse(readJsonNoFollow("/home/me/.spool/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/receipt.json"));
 * ```
 */
export function readJsonNoFollow(file: string): unknown {
  const fd = openPrivateFile(file);
  if (fd === null) return undefined;
  try {
    if (fs.fstatSync(fd).size > MAX_JSON_BYTES) return undefined;
    return JSON.parse(fs.readFileSync(fd, "utf8"));
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}
