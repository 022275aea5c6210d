/**
 * Named read cursors of the file store: each consumer of a capture keeps its own
 * position in `<capture>/cursors/<stream>.<name>.json` (`0600` in a `0700` directory,
 * replaced atomically), so a read advances only its own cursor and never another's.
 *
 * @example
 * ```ts
 * import { loadCursor, saveCursor } from "@spool/sinks";
 * const dir = "/abs/root/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA";
 * const offset = loadCursor(dir, "stdout", "agent-1"); // 0 the first time
 * saveCursor(dir, "stdout", "agent-1", offset + 100);
 * ```
 */
import * as path from "node:path";
import { CURSOR_NAME_PATTERN, SpoolError, type StreamName } from "@spool/core";
import { readJsonNoFollow } from "../file/json-file.js";
import { ensurePrivateDir, publishAtomic } from "../file/storage.js";

/**
 * The directory (inside a capture's directory) that holds its named cursors.
 *
 * @category storage
 * @example
 * ```ts
 * import { join } from "node:path";
 * import { CURSORS_DIR } from "@spool/sinks";
 * join("/home/me/.spool/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA", CURSORS_DIR);
 * ```
 */
export const CURSORS_DIR = "cursors";

/**
 * The saved offset of cursor `name` on `stream` of the capture in `dir`, or 0 if it has
 * never read.
 *
 * @category storage
 * @example
 * ```ts
 * import { loadCursor } from "@spool/sinks";
 * const offset = loadCursor("/home/me/.spool/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA", "stdout", "my-agent");
 * ```
 */
export function loadCursor(dir: string, stream: StreamName, name: string): number {
  const value = (
    readJsonNoFollow(cursorFile(dir, stream, name)) as { offset?: unknown } | undefined
  )?.offset;
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

/**
 * Record that cursor `name` has consumed `stream` up to `offset` (replaced atomically, a
 * private file). Refuses names that do not match `CURSOR_NAME_PATTERN` (`SPOOL_E_REF_INVALID`).
 *
 * @category storage
 * @example
 * ```ts
 * import { saveCursor } from "@spool/sinks";
 * saveCursor("/home/me/.spool/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA", "stdout", "my-agent", 4096);
 * ```
 */
export function saveCursor(dir: string, stream: StreamName, name: string, offset: number): void {
  checkName(name);
  const cursors = ensurePrivateDir(path.join(dir, CURSORS_DIR));
  publishAtomic(cursors, `${stream}.${name}.json`, Buffer.from(`${JSON.stringify({ offset })}\n`), {
    replace: true,
  });
}

function cursorFile(dir: string, stream: StreamName, name: string): string {
  return path.join(dir, CURSORS_DIR, `${stream}.${checkName(name)}.json`);
}

function checkName(name: string): string {
  if (!CURSOR_NAME_PATTERN.test(name)) {
    throw new SpoolError(
      "SPOOL_E_REF_INVALID",
      "cursors",
      "a cursor name is 1-64 characters of A-Z a-z 0-9 . _ - (not starting with .)",
    );
  }
  return name;
}
