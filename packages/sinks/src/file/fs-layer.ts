/**
 * The file-system calls private storage makes, as one injectable object, so storage
 * faults (ENOSPC, EIO, short writes, a failure between write and publish) can be
 * injected where they happen instead of being simulated around the code.
 *
 * The writer runs in a worker thread, so faults travel to it as plain data
 * ({@link FaultSpec}) and are turned into a layer there by {@link createFaultyFs}.
 *
 * @example
 * ```ts
 * import { createFaultyFs, nodeFs } from "@spool/sinks";
 * // Behaves like a disk that fills up after 1 MiB: one short write, then ENOSPC.
 * const full = createFaultyFs(nodeFs, [{ op: "write", afterBytes: 1024 * 1024, code: "ENOSPC" }]);
 * ```
 */
import * as fs from "node:fs";

/**
 * The subset of `node:fs` (synchronous) that storage uses, as one injectable object:
 * `nodeFs` is the real one, `createFaultyFs` (in `@spool/sinks/testing`) injects faults.
 *
 * @category storage
 * @example
 * ```ts
 * import type { FsLayer } from "@spool/sinks";
 * import { nodeFs } from "@spool/sinks/testing";
 * const logged: FsLayer = { ...nodeFs, renameSync: (from, to) => { console.log("rename", to); nodeFs.renameSync(from, to); } };
 * ```
 */
export interface FsLayer {
  openSync(path: string, flags: number, mode?: number): number;
  closeSync(fd: number): void;
  writeSync(fd: number, data: Uint8Array, offset: number, length: number): number;
  fsyncSync(fd: number): void;
  /**
   * fsync on libuv's thread pool, so the caller goes on writing while the disk catches up;
   * `done` runs later, never before this returns. A layer without it syncs in the call
   * (see {@link fsyncInBackground}).
   */
  fsync?(fd: number, done: (error: Error | null) => void): void;
  ftruncateSync(fd: number, len: number): void;
  fstatSync(fd: number): fs.Stats;
  lstatSync(path: string): fs.Stats;
  fchmodSync(fd: number, mode: number): void;
  mkdirSync(path: string, options: { mode: number }): void;
  linkSync(existing: string, created: string): void;
  unlinkSync(path: string): void;
  renameSync(from: string, to: string): void;
  readdirSync(path: string): string[];
  readFileSync(path: string): Buffer;
}

/**
 * The real file system.
 *
 * @category testing
 * @example
 * ```ts
 * import { createFaultyFs, nodeFs } from "@spool/sinks/testing";
 * const fs = createFaultyFs(nodeFs, [{ op: "write", code: "ENOSPC", afterBytes: 1024 }]);
 * ```
 */
export const nodeFs: FsLayer = {
  openSync: (p, flags, mode) => fs.openSync(p, flags, mode),
  closeSync: (fd) => fs.closeSync(fd),
  writeSync: (fd, data, offset, length) => fs.writeSync(fd, data, offset, length),
  fsyncSync: (fd) => fs.fsyncSync(fd),
  fsync: (fd, done) => fs.fsync(fd, done),
  ftruncateSync: (fd, len) => fs.ftruncateSync(fd, len),
  fstatSync: (fd) => fs.fstatSync(fd),
  lstatSync: (p) => fs.lstatSync(p),
  fchmodSync: (fd, mode) => fs.fchmodSync(fd, mode),
  mkdirSync: (p, options) => {
    fs.mkdirSync(p, options);
    // mkdir's mode is filtered by the umask (577 would give 0200, 777 0000: a directory
    // its owner cannot use): the mode asked for is set on what was just made.
    fs.chmodSync(p, options.mode);
  },
  linkSync: (a, b) => fs.linkSync(a, b),
  unlinkSync: (p) => fs.unlinkSync(p),
  renameSync: (a, b) => fs.renameSync(a, b),
  readdirSync: (p) => fs.readdirSync(p),
  readFileSync: (p) => fs.readFileSync(p),
};

/**
 * Error codes an injected fault can raise.
 *
 * @category testing
 * @example
 * ```ts
 * import type { FaultCode } from "@spool/sinks/testing";
 * const codes: FaultCode[] = ["ENOSPC", "EIO", "EDQUOT"];
 * ```
 */
export type FaultCode = "ENOSPC" | "EIO" | "EDQUOT";

/**
 * One injected fault, as plain data (it crosses into the writer worker).
 *
 * - `write` with `afterBytes`: writes pass until the total written through the layer
 *   (to files whose path contains `match`, if given) would pass `afterBytes`; that write is cut short at `afterBytes` (as a filling disk
 *   does) and every later write fails with `code`.
 * - `write` with `shortBytes`: every write moves at most `shortBytes` bytes and
 *   succeeds (a correct writer loops; nothing is lost).
 * - `fsync`, `link`, `rename`, `open`: the call fails with `code`; `match` limits the
 *   fault to paths containing it (for fsync, the path the descriptor was opened with).
 *
 * @category testing
 * @example
 * ```ts
 * import { createFileSpool } from "@spool/sinks";
 * import type { FaultSpec } from "@spool/sinks/testing";
 * const faults: FaultSpec[] = [{ op: "fsync", code: "EIO", match: "stdout" }];
 * const files = createFileSpool({ faults });
 * await files.destroy();
 * ```
 */
export type FaultSpec =
  | {
      readonly op: "write";
      readonly afterBytes: number;
      readonly code: FaultCode;
      readonly match?: string;
    }
  | { readonly op: "write"; readonly shortBytes: number; readonly match?: string }
  | {
      readonly op: "fsync" | "link" | "rename" | "open";
      readonly code: FaultCode;
      readonly match?: string;
    };

/**
 * A layer over `base` that raises the given faults.
 *
 * @category testing
 * @example
 * ```ts
 * import { createFileSpool } from "@spool/sinks";
 * // In a file spool's writer: a write past 4 KiB fails with ENOSPC.
 * const files = createFileSpool({ faults: [{ op: "write", code: "ENOSPC", afterBytes: 4096 }] });
 * ```
 */
export function createFaultyFs(base: FsLayer, faults: readonly FaultSpec[]): FsLayer {
  let written = 0;
  let full = false;
  const paths = new Map<number, string>();
  const failing = (op: string, p?: string) =>
    faults.find(
      (f): f is Extract<FaultSpec, { code: FaultCode; match?: string }> =>
        f.op === op &&
        "code" in f &&
        (!("match" in f) || f.match === undefined || (p?.includes(f.match) ?? false)),
    );
  return {
    ...base,
    openSync(p, flags, mode) {
      const f = failing("open", p);
      if (f) throw errno(f.code, "open", p);
      const fd = base.openSync(p, flags, mode);
      paths.set(fd, p);
      return fd;
    },
    closeSync(fd) {
      paths.delete(fd);
      base.closeSync(fd);
    },
    writeSync(fd, data, offset, length) {
      let n = length;
      let counted = false;
      for (const f of faults) {
        if (f.op !== "write") continue;
        if (f.match !== undefined && !(paths.get(fd) ?? "").includes(f.match)) continue;
        if ("shortBytes" in f) n = Math.min(n, Math.max(1, f.shortBytes));
        else {
          counted = true;
          if (full) throw errno(f.code, "write");
          if (written + n > f.afterBytes) {
            full = true;
            n = f.afterBytes - written;
            if (n <= 0) throw errno(f.code, "write");
          }
        }
      }
      const done = base.writeSync(fd, data, offset, n);
      if (counted) written += done;
      return done;
    },
    fsyncSync(fd) {
      const f = failing("fsync", paths.get(fd));
      if (f) throw errno(f.code, "fsync");
      base.fsyncSync(fd);
    },
    fsync(fd, done) {
      const f = failing("fsync", paths.get(fd));
      if (f) setImmediate(done, errno(f.code, "fsync"));
      else fsyncInBackground(base, fd, done);
    },
    linkSync(a, b) {
      const f = failing("link", b);
      if (f) throw errno(f.code, "link", b);
      base.linkSync(a, b);
    },
    renameSync(a, b) {
      const f = failing("rename", b);
      if (f) throw errno(f.code, "rename", b);
      base.renameSync(a, b);
    },
  };
}

/**
 * fsync `fd` through `fsl` without waiting: on the thread pool where the layer can, else
 * in the call; `done` runs on a later turn of the event loop either way.
 *
 * @example
 * ```ts
 * import { fsyncInBackground, nodeFs } from "./fs-layer.js"; // internal to @spool/sinks
 * fsyncInBackground(nodeFs, fd, (error) => console.log(error ? "not durable" : "durable"));
 * ```
 */
export function fsyncInBackground(
  fsl: FsLayer,
  fd: number,
  done: (error: Error | null) => void,
): void {
  if (fsl.fsync) {
    fsl.fsync(fd, done);
    return;
  }
  let error: Error | null = null;
  try {
    fsl.fsyncSync(fd);
  } catch (e) {
    error = e instanceof Error ? e : new Error(String(e));
  }
  setImmediate(done, error);
}

function errno(code: FaultCode, syscall: string, p?: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(
    `${code}: injected fault, ${syscall}${p ? ` '${p}'` : ""}`,
  );
  error.code = code;
  error.syscall = syscall;
  if (p !== undefined) error.path = p;
  return error;
}
