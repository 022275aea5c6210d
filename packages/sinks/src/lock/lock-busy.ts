/**
 * Telling a busy lock from a broken one, without loading the lock itself: the quota
 * wrapper fails closed (`root-quota`) only while the allowance's lock is held by someone
 * else past its timeout; any other lock fault is a storage fault of its own.
 *
 * @example
 * ```ts
 * import { isLockBusy } from "./lock-busy.js"; // also exported by @spool/sinks
 * declare const error: unknown;
 * isLockBusy(error); // true only for a lock held past the timeout
 * ```
 */
import { SpoolError } from "@spool/core/runtime";

/** The errno a timed-out wait for a lock carries in its `storage` (operation `lock`). */
export const LOCK_BUSY_ERRNO = "ETIMEDOUT";

/**
 * Whether `error` is a lock held by someone else past the timeout (`withFileLock`): the
 * one lock failure that means "busy". Everything else (a directory, FIFO or link where the
 * lock file should be, a lock that cannot be written) is a storage fault of its own.
 *
 * @category storage
 * @example
 * ```ts
 * import { isLockBusy, withFileLock } from "@spool/sinks";
 * try {
 *   withFileLock("/home/me/.spool/.quota.lock", () => 42, { timeoutMs: 100 });
 * } catch (error) {
 *   if (isLockBusy(error)) console.error("busy, try later");
 * }
 * ```
 */
export function isLockBusy(error: unknown): boolean {
  return (
    error instanceof SpoolError &&
    error.component === "file-lock" &&
    error.storage?.errno === LOCK_BUSY_ERRNO
  );
}
