/**
 * A mutual-exclusion lock made from the file system alone (no daemon, no database):
 * the lock is a file created with `O_CREAT|O_EXCL|O_NOFOLLOW` holding its owner (pid,
 * start time, nonce). A lock whose owner is dead is broken by renaming it aside and
 * checking that what was renamed is the stale lock that was seen (so a fresh lock taken
 * in between is put back, not deleted). Held for a few file operations at most, so
 * waiters poll with a short, growing back-off.
 *
 * @example
 * ```ts
 * import { withFileLock } from "@spool/sinks";
 * const total = withFileLock("/tmp/spool-example/.lock", () => 42);
 * ```
 */
import { randomBytes } from "node:crypto";
import { SpoolError } from "@spool/core/runtime";
import { type FsLayer, nodeFs } from "../file/fs-layer.js";
import { createExclusive, errnoOf, writeFully } from "../file/storage.js";
import { LOCK_BUSY_ERRNO } from "./lock-busy.js";
import { currentOwner, isOwnerAlive, ownerOf } from "./owner.js";

/**
 * Options of {@link withFileLock}.
 *
 * @category storage
 * @example
 * ```ts
 * import { withFileLock, type FileLockOptions } from "@spool/sinks";
 * const options: FileLockOptions = { timeoutMs: 2000 };
 * withFileLock("/home/me/.spool/.lock", () => {}, options);
 * ```
 */
export interface FileLockOptions {
  /** Give up (`SPOOL_E_STORAGE`) after waiting this long. @default 10000 */
  readonly timeoutMs?: number;
  /** A lock file still empty after this long is taken as left by a crash. @default 5000 */
  readonly emptyStaleMs?: number;
  /** The file-system calls used (tests inject faults). @default nodeFs */
  readonly fs?: FsLayer;
  /** Milliseconds since the epoch. @default Date.now */
  readonly now?: () => number;
  /** Blocks the calling thread; injectable so tests need not wait. @default Atomics.wait */
  readonly sleep?: (ms: number) => void;
}

/**
 * Run `fn` while holding the lock file `file` (created exclusively; a lock left by a dead
 * process is taken over); always releases it. Waits at most `timeoutMs`, then throws
 * `SPOOL_E_STORAGE`.
 *
 * @category storage
 * @example
 * ```ts
 * import { withFileLock } from "@spool/sinks";
 * const total = withFileLock("/home/me/.spool/.quota.lock", () => 42);
 * ```
 */
export function withFileLock<T>(file: string, fn: () => T, options: FileLockOptions = {}): T {
  const fsl = options.fs ?? nodeFs;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? sleepSync;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const content = JSON.stringify({ ...currentOwner(), nonce: randomBytes(9).toString("hex") });
  const started = now();
  let backoff = 1;
  let why = "it is held by a live process";
  for (;;) {
    if (tryCreate(file, content, fsl)) break;
    const seen = readQuietly(file, fsl);
    if (seen !== null && isStale(file, seen, fsl, now, options.emptyStaleMs ?? 5000)) {
      // Broken: try again at once. Not broken (someone else did, or it cannot be): every
      // retry below is bounded by the timeout and sleeps, so no path spins.
      if (breakStale(file, seen, fsl)) continue;
      why = "it is stale but could not be broken";
    }
    if (now() - started > timeoutMs) {
      throw new SpoolError(
        "SPOOL_E_STORAGE",
        "file-lock",
        `timed out after ${timeoutMs} ms waiting for a lock: ${why}`,
        { storage: { errno: LOCK_BUSY_ERRNO, operation: "lock", path: file } },
      );
    }
    sleep(backoff + Math.random() * backoff);
    backoff = Math.min(backoff * 2, 50);
  }
  try {
    return fn();
  } finally {
    // Release only our own lock (a breaker may, in a lost race, have replaced it).
    if (readQuietly(file, fsl) === content) {
      try {
        fsl.unlinkSync(file);
      } catch {
        // already gone
      }
    }
  }
}

function tryCreate(file: string, content: string, fsl: FsLayer): boolean {
  let fd: number;
  try {
    fd = createExclusive(file, fsl);
  } catch (error) {
    if (error instanceof SpoolError && error.code === "SPOOL_E_EXISTS") return false;
    const code = errnoOf((error as { cause?: unknown }).cause ?? error);
    throw new SpoolError("SPOOL_E_STORAGE", "file-lock", `cannot take the lock ${file} (${code})`, {
      cause: error,
    });
  }
  try {
    writeFully(fd, Buffer.from(content), fsl);
  } catch (error) {
    // Never leave an empty lock behind (ENOSPC, EIO): it would stop everyone until it
    // is taken as stale.
    fsl.closeSync(fd);
    try {
      fsl.unlinkSync(file);
    } catch {
      // the lock stays empty; waiters break it once it is older than emptyStaleMs
    }
    throw new SpoolError(
      "SPOOL_E_STORAGE",
      "file-lock",
      `cannot write the lock ${file} (${errnoOf(error)})`,
      { cause: error },
    );
  }
  fsl.closeSync(fd);
  return true;
}

function isStale(
  file: string,
  seen: string,
  fsl: FsLayer,
  now: () => number,
  emptyStaleMs: number,
): boolean {
  if (seen === "") {
    try {
      return now() - fsl.lstatSync(file).mtimeMs > emptyStaleMs;
    } catch {
      return false;
    }
  }
  let owner: unknown;
  try {
    owner = JSON.parse(seen);
  } catch {
    return true; // not a lock we write
  }
  const parsed = ownerOf(owner);
  return parsed === null || !isOwnerAlive(parsed);
}

/**
 * Move the stale lock aside; true once it is gone. ENOENT: someone else broke or released
 * it (false: look again after a sleep). Any other error (EROFS, EACCES) means it cannot
 * be broken here at all: a clear error at once, not a wait for nothing.
 */
function breakStale(file: string, seen: string, fsl: FsLayer): boolean {
  const aside = `${file}.stale.${randomBytes(6).toString("hex")}`;
  try {
    fsl.renameSync(file, aside);
  } catch (error) {
    const code = errnoOf(error);
    if (code === "ENOENT") return false;
    throw new SpoolError(
      "SPOOL_E_STORAGE",
      "file-lock",
      `the lock ${file} is stale and cannot be broken (${code})`,
      { cause: error },
    );
  }
  if (readQuietly(aside, fsl) !== seen) {
    // We moved a fresh lock taken after we looked: put it back if nothing replaced it.
    try {
      fsl.linkSync(aside, file);
    } catch {
      // a third party holds the lock now; the displaced holder will not release it
    }
  }
  try {
    fsl.unlinkSync(aside);
  } catch {
    // already gone
  }
  return true;
}

function readQuietly(file: string, fsl: FsLayer): string | null {
  try {
    const st = fsl.lstatSync(file);
    if (!st.isFile()) throw bogusLock(file, st);
    return fsl.readFileSync(file).toString("utf8");
  } catch (error) {
    if (errnoOf(error) === "ENOENT") return null;
    throw error;
  }
}

/** Something other than a regular file where the lock file should be: planted, refused. */
function bogusLock(
  file: string,
  st: { isDirectory(): boolean; isSymbolicLink(): boolean; isFIFO(): boolean },
): SpoolError {
  const [kind, errno] = st.isDirectory()
    ? ["a directory", "EISDIR"]
    : st.isSymbolicLink()
      ? ["a symbolic link", "ELOOP"]
      : st.isFIFO()
        ? ["a FIFO", "EINVAL"]
        : ["not a regular file", "EINVAL"];
  return new SpoolError(
    "SPOOL_E_UNSAFE_PATH",
    "file-lock",
    `a bogus lock: ${kind === "not a regular file" ? kind : `${kind}, not a regular file,`} where the lock file should be; remove it`,
    { storage: { errno, operation: "lock", path: file } },
  );
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
