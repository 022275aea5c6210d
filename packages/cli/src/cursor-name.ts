/**
 * The `--cursor NAME` of `spool read`: a consumer's name, checked before anything is
 * read so a bad one is a usage error (exit 64). The store keeps the cursor itself
 * (`CaptureStore.cursors`).
 *
 * @example
 * ```ts
 * import { checkCursorName } from "./cursor-name.js"; // internal to @spool/cli
 * checkCursorName("agent-1"); // "agent-1"
 * ```
 */
import { CURSOR_NAME_PATTERN } from "@spool/core";
import { usageError } from "./args.js";

/** Reject a cursor name that is not a plain, short file-name-safe word. */
export function checkCursorName(name: string): string {
  if (!CURSOR_NAME_PATTERN.test(name)) {
    throw usageError("--cursor takes 1-64 characters of A-Z a-z 0-9 . _ - (not starting with .)");
  }
  return name;
}
