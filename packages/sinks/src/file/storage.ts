/**
 * Private file-system primitives for spools (SPEC §2, §7): directories `0700`, files
 * `0600` whatever the umask, exclusive creation that never follows or overwrites a
 * link, and atomic publication (temp → fsync → rename → fsync dir).
 *
 * Node has no `openat`, so a symlinked *intermediate* directory would be followed by
 * `open`: every directory we own is therefore verified on its own (`lstat`: a real
 * directory, ours, no group/other bits) and each file we open is checked `fstat`
 * against `lstat` (same dev/ino) before it is trusted. Nothing that we did not create
 * is ever chmod-ed, overwritten or unlinked.
 *
 * @example
 * ```ts
 * import { ensurePrivateDir, publishAtomic } from "@spool/sinks";
 * const dir = ensurePrivateDir("/tmp/spool-example");
 * publishAtomic(dir, "note.json", Buffer.from("{}\n"), { replace: true });
 * ```
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
// The narrow entry: this module runs inside the writer worker too, where the full core
// entry (zod, rxjs) cost ~20 MiB of RSS and the cold start of every worker.
import { SpoolError } from "@spool/core/errors";
import { type FsLayer, nodeFs } from "./fs-layer.js";

/**
 * The directory of a root that holds the captures, one directory per captureId; every
 * ref starts with it.
 *
 * @category storage
 * @example
 * ```ts
 * import { join } from "node:path";
 * import { TOOL_OUTPUTS } from "@spool/sinks";
 * join("/home/me/.spool", TOOL_OUTPUTS, "AAAAAAAAAAAAAAAAAAAAAAAA");
 * ```
 */
export const TOOL_OUTPUTS = "tool-outputs";
const COMPONENT = "storage";
const { O_CREAT, O_EXCL, O_NOFOLLOW, O_WRONLY, O_RDONLY, O_DIRECTORY, O_NONBLOCK } = fs.constants;

/**
 * Options of {@link ensurePrivateDir}.
 *
 * @category storage
 * @example
 * ```ts
 * import { ensurePrivateDir, type PrivateDirOptions } from "@spool/sinks";
 * const options: PrivateDirOptions = { exclusive: true };
 * ensurePrivateDir("/tmp/my-private-dir", options);
 * ```
 */
export interface PrivateDirOptions {
  /** Fail with `SPOOL_E_EXISTS` if the directory is already there. @default false */
  readonly exclusive?: boolean;
  /** The file-system calls used (tests inject faults). @default the real file system */
  readonly fs?: FsLayer;
}

/**
 * Make `dir` (one level) private, or verify an existing one: a real directory (not a
 * link), owned by us, no group or other bits. A directory we create is `fchmod`-ed to
 * `0700` (mkdir's mode is filtered by the umask); an existing one is never opened up, only
 * given back its owner's bits when it is ours and private but unusable (`0200`, `0000`).
 * Returns `dir`; throws `SPOOL_E_UNSAFE_PATH`, `SPOOL_E_EXISTS` or `SPOOL_E_STORAGE`.
 *
 * @category storage
 * @example
 * ```ts
 * import { ensurePrivateDir } from "@spool/sinks";
 * const dir = ensurePrivateDir("/tmp/my-private-dir"); // 0700, or refused
 * ```
 */
export function ensurePrivateDir(dir: string, options: PrivateDirOptions = {}): string {
  const fsl = options.fs ?? nodeFs;
  let created = false;
  try {
    fsl.mkdirSync(dir, { mode: 0o700 });
    created = true;
  } catch (error) {
    const code = errnoOf(error);
    if (code === "EEXIST" && options.exclusive) {
      throw new SpoolError("SPOOL_E_EXISTS", COMPONENT, `${dir} already exists`, { cause: error });
    }
    if (code !== "EEXIST") {
      throw new SpoolError(
        code === "ENOTDIR" || code === "ELOOP" ? "SPOOL_E_UNSAFE_PATH" : "SPOOL_E_STORAGE",
        COMPONENT,
        `cannot create directory ${dir} (${code})`,
        { cause: error },
      );
    }
  }
  // lstat first: never open (and so never block on) a FIFO or follow a link.
  let before = lstatOrThrow(dir, fsl);
  if (before.isSymbolicLink() || !before.isDirectory()) {
    throw unsafe(`${dir} is ${describeEntry(before)}, not a directory; refusing it`);
  }
  if (ownUnusable(before)) {
    // Ours and private, but not usable by us (made under umask 577 or 777 by an older
    // spool: 0200, 0000): given back its owner's bits, nothing for anyone else.
    // It cannot be opened to fchmod it; the lstat just said it is our directory, not a
    // link, and the open below checks that it is still the same one.
    fs.chmodSync(dir, 0o700);
    before = lstatOrThrow(dir, fsl);
  }
  let fd: number;
  try {
    fd = fsl.openSync(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    throw new SpoolError("SPOOL_E_UNSAFE_PATH", COMPONENT, `cannot open directory ${dir}`, {
      cause: error,
    });
  }
  try {
    const st = fsl.fstatSync(fd);
    if (st.dev !== before.dev || st.ino !== before.ino || !st.isDirectory()) {
      throw unsafe(`${dir} changed while it was being verified; refusing it`);
    }
    if (typeof process.getuid === "function" && st.uid !== process.getuid()) {
      throw unsafe(`${dir} is owned by another user (uid ${st.uid}); refusing it`);
    }
    if (created) fsl.fchmodSync(fd, 0o700);
    else if ((st.mode & 0o077) !== 0) {
      throw unsafe(
        `${dir} is accessible to group or others (mode ${(st.mode & 0o777).toString(8)}); refusing it`,
      );
    }
  } finally {
    fsl.closeSync(fd);
  }
  return dir;
}

/** A directory owned by us with no group or other bits and not all of its owner's. */
function ownUnusable(st: fs.Stats): boolean {
  return (
    typeof process.getuid === "function" &&
    st.uid === process.getuid() &&
    (st.mode & 0o077) === 0 &&
    (st.mode & 0o700) !== 0o700
  );
}

/**
 * Create `file` exclusively (`O_CREAT|O_EXCL|O_NOFOLLOW`), `0600` whatever the umask,
 * and check that the descriptor is the file now at that name. Returns the descriptor
 * (write-only). Anything already at the name (file, link, FIFO, socket) is refused with
 * `SPOOL_E_EXISTS` and left alone.
 *
 * @category storage
 * @example
 * ```ts
 * import { closeSync } from "node:fs";
 * import { createExclusive, writeFully } from "@spool/sinks";
 * const fd = createExclusive("/tmp/my-private-dir/notes.txt");
 * writeFully(fd, Buffer.from("private\n"));
 * closeSync(fd);
 * ```
 */
export function createExclusive(file: string, fsl: FsLayer = nodeFs): number {
  let fd: number;
  try {
    fd = fsl.openSync(file, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY, 0o600);
  } catch (error) {
    const code = errnoOf(error);
    throw new SpoolError(
      code === "EEXIST"
        ? "SPOOL_E_EXISTS"
        : code === "ELOOP" || code === "ENOTDIR"
          ? "SPOOL_E_UNSAFE_PATH"
          : "SPOOL_E_STORAGE",
      COMPONENT,
      `cannot create ${path.basename(file)} exclusively (${code})`,
      { cause: error },
    );
  }
  try {
    fsl.fchmodSync(fd, 0o600);
    const st = fsl.fstatSync(fd);
    const named = fsl.lstatSync(file);
    if (named.dev !== st.dev || named.ino !== st.ino || !named.isFile()) {
      throw unsafe(`${path.basename(file)} was replaced while it was being created; refusing it`);
    }
  } catch (error) {
    fsl.closeSync(fd);
    if (error instanceof SpoolError) throw error;
    throw new SpoolError("SPOOL_E_STORAGE", COMPONENT, `cannot secure ${path.basename(file)}`, {
      cause: error,
    });
  }
  return fd;
}

/**
 * What {@link writeSome} managed before it stopped.
 *
 * @category storage
 * @example
 * ```ts
 * import { writeSome } from "@spool/sinks";
 * declare const fd: number;
 * const { written, error } = writeSome(fd, Buffer.from("data"));
 * if (error) console.error(`stopped after ${written} bytes: ${error.code}`);
 * ```
 */
export interface WriteOutcome {
  /** Bytes of `data` now in the file, from its start. */
  written: number;
  /** Why it stopped short, or null when everything was written. */
  error: NodeJS.ErrnoException | null;
}

/**
 * Write `data` at the current position, looping over short writes. Never throws: a
 * failure (or a write that makes no progress) is returned with the exact number of
 * bytes written before it, which is the boundary the caller keeps.
 *
 * @category storage
 * @example
 * ```ts
 * import { writeSome } from "@spool/sinks";
 * declare const fd: number;
 * const outcome = writeSome(fd, Buffer.alloc(1 << 20));
 * outcome.written; // bytes now in the file, even if ENOSPC stopped it
 * ```
 */
export function writeSome(fd: number, data: Uint8Array, fsl: FsLayer = nodeFs): WriteOutcome {
  let written = 0;
  while (written < data.byteLength) {
    let n: number;
    try {
      n = fsl.writeSync(fd, data, written, data.byteLength - written);
    } catch (error) {
      return { written, error: error as NodeJS.ErrnoException };
    }
    if (n <= 0) {
      const error: NodeJS.ErrnoException = new Error("write made no progress");
      error.code = "EIO";
      return { written, error };
    }
    written += n;
  }
  return { written, error: null };
}

/**
 * Write all of `data` at the current position, looping over short writes; throws the
 * errno error on failure.
 *
 * @category storage
 * @example
 * ```ts
 * import { writeFully } from "@spool/sinks";
 * declare const fd: number;
 * writeFully(fd, Buffer.from("all or an error\n"));
 * ```
 */
export function writeFully(fd: number, data: Uint8Array, fsl: FsLayer = nodeFs): void {
  const outcome = writeSome(fd, data, fsl);
  if (outcome.error) throw outcome.error;
}

/**
 * fsync a directory (never through a link) so a rename or creation in it is durable.
 *
 * @category storage
 * @example
 * ```ts
 * import { renameSync } from "node:fs";
 * import { syncDir } from "@spool/sinks";
 * renameSync("/tmp/my-private-dir/a.tmp", "/tmp/my-private-dir/a");
 * syncDir("/tmp/my-private-dir");
 * ```
 */
export function syncDir(dir: string, fsl: FsLayer = nodeFs): void {
  const fd = fsl.openSync(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK);
  try {
    fsl.fsyncSync(fd);
  } finally {
    fsl.closeSync(fd);
  }
}

/**
 * Options of {@link publishAtomic}.
 *
 * @category storage
 * @example
 * ```ts
 * import { publishAtomic, type PublishOptions } from "@spool/sinks";
 * const options: PublishOptions = { replace: true };
 * publishAtomic("/tmp/my-private-dir", "state.json", Buffer.from("{}\n"), options);
 * ```
 */
export interface PublishOptions {
  /**
   * Replace a previous version (`live.json`): only a regular file of ours is replaced,
   * by `rename`. Without it (`receipt.json`, the default) publication is exclusive: a
   * hard link that fails if anything is at the name. @default false
   */
  readonly replace?: boolean;
  /**
   * fsync the file before it is named, and the directory after. Without it readers still
   * see the old file or the whole new one, but a crash of the machine may bring back the
   * old one (or, on some file systems, an empty file): only for records rebuilt after a
   * crash anyway, such as a live capture's root quota reservation. @default true
   */
  readonly durable?: boolean;
  /** Name of the temp file. @default `.<name>.<72 random bits>.tmp` */
  readonly tempName?: string;
  /** The file-system calls used (tests inject faults). @default the real file system */
  readonly fs?: FsLayer;
}

/**
 * Publish `name` in `dir` atomically: exclusive random temp, write, fsync, then rename
 * (or link) into place, then fsync the directory (no fsyncs with `durable: false`).
 * Readers see the old file or the whole new one, never a torn one. The temp is removed
 * on failure.
 *
 * @category storage
 * @example
 * ```ts
 * import { publishAtomic } from "@spool/sinks";
 * publishAtomic("/tmp/my-private-dir", "result.json", Buffer.from('{"ok":true}\n')); // exclusive: never replaces
 * ```
 */
export function publishAtomic(
  dir: string,
  name: string,
  data: Uint8Array,
  options: PublishOptions = {},
): void {
  const fsl = options.fs ?? nodeFs;
  const temp = path.join(
    dir,
    options.tempName ?? `.${name}.${randomBytes(9).toString("base64url")}.tmp`,
  );
  const target = path.join(dir, name);
  const fd = createExclusive(temp, fsl);
  let linked = false;
  try {
    try {
      writeFully(fd, data, fsl);
      if (options.durable !== false) fsl.fsyncSync(fd);
    } finally {
      fsl.closeSync(fd);
    }
    if (options.replace) {
      const existing = lstatIfAny(target, fsl);
      if (existing && (!existing.isFile() || !ownedByUs(existing))) {
        throw unsafe(`${name} exists and is ${describeEntry(existing)}; refusing to replace it`);
      }
      fsl.renameSync(temp, target);
      linked = true;
    } else {
      try {
        fsl.linkSync(temp, target); // fails with EEXIST rather than replace anything
      } catch (error) {
        if (errnoOf(error) === "EEXIST") {
          throw new SpoolError("SPOOL_E_EXISTS", COMPONENT, `${name} already exists`, {
            cause: error,
          });
        }
        throw error;
      }
      linked = true;
      fsl.unlinkSync(temp);
    }
    if (options.durable !== false) syncDir(dir, fsl);
  } catch (error) {
    if (!linked || !options.replace) tryUnlink(temp, fsl);
    if (error instanceof SpoolError) throw error;
    throw new SpoolError(
      "SPOOL_E_STORAGE",
      COMPONENT,
      `cannot publish ${name} (${errnoOf(error)})`,
      {
        cause: error,
      },
    );
  }
}

/**
 * Give a finished `.live` file its final name without overwriting anything there: a
 * hard link (fails on any existing entry, link or FIFO included), then unlink the old
 * name. `from` must be a regular file.
 *
 * @category storage
 * @example
 * ```ts
 * import { renameExclusive } from "@spool/sinks";
 * renameExclusive("/tmp/my-private-dir/stdout.live", "/tmp/my-private-dir/stdout.txt");
 * ```
 */
export function renameExclusive(from: string, to: string, fsl: FsLayer = nodeFs): void {
  const st = fsl.lstatSync(from);
  if (!st.isFile())
    throw unsafe(`${path.basename(from)} is ${describeEntry(st)}; refusing to rename it`);
  try {
    fsl.linkSync(from, to);
  } catch (error) {
    throw new SpoolError(
      errnoOf(error) === "EEXIST" ? "SPOOL_E_EXISTS" : "SPOOL_E_STORAGE",
      COMPONENT,
      `cannot name ${path.basename(to)} (${errnoOf(error)})`,
      { cause: error },
    );
  }
  fsl.unlinkSync(from);
}

/**
 * The `errno` code of an error, or `EIO` when it has none.
 *
 * @category storage
 * @example
 * ```ts
 * import { errnoOf } from "@spool/sinks";
 * declare const error: unknown;
 * if (errnoOf(error) === "ENOSPC") console.error("disk full");
 * ```
 */
export function errnoOf(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? "EIO";
}

function lstatOrThrow(p: string, fsl: FsLayer): fs.Stats {
  try {
    return fsl.lstatSync(p);
  } catch (error) {
    throw new SpoolError("SPOOL_E_STORAGE", COMPONENT, `cannot inspect ${p} (${errnoOf(error)})`, {
      cause: error,
    });
  }
}

/**
 * `lstat` of `p` (never following a link), or null when nothing is there; other errors throw.
 *
 * @category storage
 * @example
 * ```ts
 * import { lstatIfAny } from "@spool/sinks";
 * lstatIfAny("/tmp/does-not-exist"); // null
 * ```
 */
export function lstatIfAny(p: string, fsl: FsLayer = nodeFs): fs.Stats | null {
  try {
    return fsl.lstatSync(p);
  } catch (error) {
    if (errnoOf(error) === "ENOENT") return null;
    throw error;
  }
}

function ownedByUs(st: fs.Stats): boolean {
  return typeof process.getuid !== "function" || st.uid === process.getuid();
}

/** Unlink `p`, ignoring any failure (already gone, read-only). */
export function tryUnlink(p: string, fsl: FsLayer = nodeFs): void {
  try {
    fsl.unlinkSync(p);
  } catch {
    // already gone
  }
}

/**
 * What a directory entry is, as refusals name it ("a FIFO", "a file of another user", …).
 *
 * @example
 * ```ts
 * import * as fs from "node:fs";
 * import { describeEntry } from "./storage.js"; // internal to @spool/sinks
 * describeEntry(fs.lstatSync("/tmp")); // "a directory"
 * ```
 */
export function describeEntry(st: fs.Stats): string {
  if (st.isSymbolicLink()) return "a symbolic link";
  if (st.isFIFO()) return "a FIFO";
  if (st.isSocket()) return "a socket";
  if (st.isDirectory()) return "a directory";
  if (st.isFile()) return st.uid === process.getuid?.() ? "a file" : "a file of another user";
  return "a device or special file";
}

function unsafe(message: string): SpoolError {
  return new SpoolError("SPOOL_E_UNSAFE_PATH", COMPONENT, message);
}
