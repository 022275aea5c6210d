/**
 * Where an export bundle's files go: a tar file (`createTarBundleWriter`) or a directory
 * (`createDirBundleWriter`), each built in a private temp name beside its destination
 * and published only when the whole bundle is written, so an interrupted export leaves
 * no half bundle under the name the user asked for.
 *
 * Tar is written through `tar` (node-tar 7, Node ≥ 18: the library npm itself packs and
 * unpacks with; its parser bounds metadata entries and is strict about truncation, which
 * `spool import` relies on). Entries are fed one at a time with backpressure, so memory
 * stays bounded whatever the size.
 *
 * @example
 * ```ts
 * import { createTarBundleWriter } from "@spool/sinks";
 * const writer = createTarBundleWriter({ out: "/tmp/b.tar" });
 * await writer.add("manifest.json", 2, [Buffer.from("{}")]);
 * await writer.finish();
 * ```
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SpoolError } from "@spool/core";
import { Header, Pack, ReadEntry } from "tar";
import {
  createExclusive,
  ensurePrivateDir,
  errnoOf,
  lstatIfAny,
  renameExclusive,
  syncDir,
  writeFully,
} from "../file/storage.js";

const COMPONENT = "export";

/**
 * Where {@link writeBundle} puts a bundle's files: a tar file
 * ({@link createTarBundleWriter}) or a directory ({@link createDirBundleWriter}).
 *
 * @category bundles
 * @example
 * ```ts
 * import type { BundleWriter } from "@spool/sinks";
 * declare const writer: BundleWriter;
 * await writer.add("manifest.json", 2, [Buffer.from("{}")]);
 * await writer.finish();
 * ```
 */
export interface BundleWriter {
  /** Add file `name` (a bundle path) of exactly `size` bytes, given by `data` in order. */
  add(
    name: string,
    size: number,
    data: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  ): Promise<void>;
  /**
   * Hard-link `file` (a final file of ours) as `name` instead of copying it; false when
   * this writer cannot (a bundle file, another file system), and then nothing was done.
   */
  link(name: string, file: string): boolean;
  /** Publish the bundle under its name. */
  finish(): Promise<void>;
  /** Remove what was written (idempotent). */
  abort(): Promise<void>;
}

/**
 * Options of {@link createTarBundleWriter}.
 *
 * @category bundles
 * @example
 * ```ts
 * import { createTarBundleWriter, type TarBundleWriterOptions } from "@spool/sinks";
 * const options: TarBundleWriterOptions = { out: "/tmp/captures.tar", mtime: new Date(0) };
 * const writer = createTarBundleWriter(options);
 * ```
 */
export interface TarBundleWriterOptions {
  /** The tar file to create; nothing may be there yet. */
  readonly out: string;
  /** mtime of every entry. @default now */
  readonly mtime?: Date;
}

/**
 * A tar bundle written to a private temporary file and renamed to `out` by `finish()`;
 * `abort()` removes it. Refuses (`SPOOL_E_EXISTS`) an `out` that exists.
 *
 * @category bundles
 * @example
 * ```ts
 * import { createTarBundleWriter } from "@spool/sinks";
 * const writer = createTarBundleWriter({ out: "/tmp/captures.tar" });
 * await writer.abort(); // nothing left behind
 * ```
 */
export function createTarBundleWriter(options: TarBundleWriterOptions): BundleWriter {
  const out = path.resolve(options.out);
  refuseExisting(out);
  const dir = path.dirname(out);
  const temp = path.join(dir, `.${path.basename(out)}.${process.pid}.${Date.now()}.tmp`);
  const fd = createExclusive(temp);
  const file = fs.createWriteStream("", { fd, autoClose: false });
  const pack = new Pack({ portable: true, strict: true, noDirRecurse: true });
  const { drained, check } = pipeWatched(pack, file, out);
  const mtime = options.mtime ?? new Date();
  let done = false;
  return {
    async add(name, size, data) {
      check();
      const entry = new ReadEntry(
        new Header({ path: name, mode: 0o600, size, type: "File", mtime }),
      );
      pack.add(entry);
      let written = 0;
      for await (const chunk of data) {
        written += chunk.byteLength;
        if (written > size) throw storageError(`${name} grew past ${size} bytes while exported`);
        if (!entry.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))) {
          await drained(entry);
          check();
        }
      }
      if (written !== size) throw storageError(`${name} had ${written} of ${size} bytes`);
      entry.end();
      // Keep at most one entry in the pack: wait until the file has taken what it has.
      if (file.writableNeedDrain) await drained(file);
      check();
    },
    link: () => false,
    async finish() {
      check();
      pack.end();
      await new Promise<void>((resolve, reject) => {
        file.on("finish", resolve);
        file.on("error", reject);
        pack.on("error", reject);
      }).catch((e) => {
        throw storageError(`cannot write ${path.basename(out)}`, e);
      });
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      done = true;
      renameExclusive(temp, out);
      syncDir(dir);
    },
    async abort() {
      if (!done) {
        done = true;
        file.destroy();
        try {
          fs.closeSync(fd);
        } catch {
          // closed already
        }
      }
      fs.rmSync(temp, { force: true });
    },
  };
}

/**
 * Pipe the pack into the file, keeping the first failure of either: `check` throws it,
 * `drained` waits for a drain or a failure.
 */
function pipeWatched(pack: Pack, file: fs.WriteStream, out: string) {
  let failure: unknown = null;
  pack.on("error", (e: unknown) => {
    failure ??= e;
  });
  file.on("error", (e: unknown) => {
    failure ??= e;
  });
  pack.pipe(file);
  // One waiter at a time, woken by a drain or by a failure (no listener is left behind).
  let wake: (() => void) | null = null;
  const drained = (emitter: NodeJS.EventEmitter) =>
    new Promise<void>((resolve) => {
      const go = () => {
        emitter.off("drain", go);
        wake = null;
        resolve();
      };
      wake = go;
      emitter.on("drain", go);
    });
  pack.on("error", () => wake?.());
  file.on("error", () => wake?.());
  const check = () => {
    if (failure !== null) throw storageError(`cannot write ${path.basename(out)}`, failure);
  };
  return { drained, check };
}

/**
 * Options of {@link createDirBundleWriter}.
 *
 * @category bundles
 * @example
 * ```ts
 * import { createDirBundleWriter, type DirBundleWriterOptions } from "@spool/sinks";
 * const options: DirBundleWriterOptions = { out: "/tmp/bundle-dir" };
 * const writer = createDirBundleWriter(options);
 * ```
 */
export interface DirBundleWriterOptions {
  /** The directory to create; nothing may be there yet. */
  readonly out: string;
}

/**
 * A directory bundle: the same files as the tar, `0600` in `0700` directories, written
 * under a temporary name and renamed to `out` by `finish()`.
 *
 * @category bundles
 * @example
 * ```ts
 * import { createDirBundleWriter } from "@spool/sinks";
 * const writer = createDirBundleWriter({ out: "/tmp/bundle-dir" });
 * await writer.abort();
 * ```
 */
export function createDirBundleWriter(options: DirBundleWriterOptions): BundleWriter {
  const out = path.resolve(options.out);
  refuseExisting(out);
  const base = ensurePrivateDir(
    path.join(path.dirname(out), `.${path.basename(out)}.${process.pid}.${Date.now()}.tmp`),
    { exclusive: true },
  );
  const dirs = new Set<string>();
  const parentOf = (name: string) => {
    let at = base;
    for (const part of path.dirname(name).split("/")) {
      if (part === "." || part === "") continue;
      at = path.join(at, part);
      if (!dirs.has(at)) {
        ensurePrivateDir(at);
        dirs.add(at);
      }
    }
    return at;
  };
  return {
    async add(name, size, data) {
      const target = path.join(parentOf(name), path.basename(name));
      const fd = createExclusive(target);
      let written = 0;
      try {
        for await (const chunk of data) {
          written += chunk.byteLength;
          if (written > size) throw storageError(`${name} grew past ${size} bytes while exported`);
          writeFully(fd, chunk);
        }
        if (written !== size) throw storageError(`${name} had ${written} of ${size} bytes`);
        fs.fsyncSync(fd);
      } catch (error) {
        if (error instanceof SpoolError) throw error;
        throw storageError(`cannot write ${name} (${errnoOf(error)})`, error);
      } finally {
        fs.closeSync(fd);
      }
    },
    link: () => false,
    async finish() {
      for (const d of dirs) syncDir(d);
      fs.renameSync(base, out);
      syncDir(path.dirname(out));
    },
    async abort() {
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}

function refuseExisting(out: string): void {
  if (lstatIfAny(out) !== null) {
    throw new SpoolError(
      "SPOOL_E_EXISTS",
      COMPONENT,
      `${out} already exists; refusing to replace it`,
    );
  }
}

function storageError(message: string, cause?: unknown): SpoolError {
  return new SpoolError(
    "SPOOL_E_STORAGE",
    COMPONENT,
    message,
    cause === undefined ? {} : { cause },
  );
}
