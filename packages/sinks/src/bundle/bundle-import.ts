/**
 * `spool import`: bring a bundle's captures into a file root, safely.
 *
 * 1. **Stage**: every entry is written into a private staging directory inside the root
 *    (`ROOT/.spool-import-<pid>-<start>-<random>/` (`import-staging.ts`: removed by `recover` once its importer is dead), `0700`; files `0600`, created exclusively), hashed
 *    on the way. Only regular files with a bundle name are accepted (`bundleFileOf`):
 *    links, devices, FIFOs, directories, `..`, absolute or unknown names, duplicates,
 *    oversized metadata and a truncated or corrupt tar are refused at once. Staged bytes
 *    never pass the root's allowance.
 * 2. **Verify** everything against the manifest (the tar's last entry): every file listed
 *    and no other, sizes and sha256 equal, receipts valid and agreeing with their files
 *    (committed bytes, sha256, refs), snapshots never final, no id already in the root.
 * 3. **Reserve** each capture's bytes in the root allowance, as any capture does.
 * 4. **Publish** each capture directory atomically by rename into `ROOT/tool-outputs/`,
 *    its receipt rewritten to this root with `provenance` (where it came from).
 *
 * A refused bundle leaves nothing behind: the staging directory is removed, no
 * reservation is kept, and `tool-outputs` is not touched. Ids are kept; an id that
 * already exists in the root refuses the whole import (`SPOOL_E_EXISTS`), never renames.
 *
 * @example
 * ```ts
 * import { importBundle } from "@spool/sinks";
 * const report = await importBundle({ root: "/abs/other-root", bundle: "/tmp/all.tar", quotaBytes: 128 * 1024 * 1024 });
 * report.imported; // the captureIds now in the root
 * ```
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  type Provenance,
  type Receipt,
  ReceiptSchema,
  SpoolError,
  STREAM_NAMES,
} from "@spool/core";
import { Parser, type ReadEntry } from "tar";
import {
  createExclusive,
  ensurePrivateDir,
  errnoOf,
  lstatIfAny,
  publishAtomic,
  syncDir,
  TOOL_OUTPUTS,
  writeFully,
} from "../file/storage.js";
import {
  createRootAllowance,
  keptOnDisk,
  ROOT_QUOTA_DIR,
  type RootAllowance,
  reconcileRootQuota,
} from "../quota/root-quota.js";
import {
  arrivedReceipt,
  type BundleManifest,
  BundleManifestSchema,
  bundleFileOf,
  bundlePath,
  indexFileName,
  MANIFEST_FILE,
  MAX_BUNDLE_CAPTURES,
  MAX_BUNDLE_ENTRIES,
  MAX_BUNDLE_RECEIPT_BYTES,
  MAX_MANIFEST_BYTES,
  MAX_TRAILING_BYTES,
  RECEIPT_FILE,
  streamFileName,
} from "./bundle.js";
import { stagingName } from "./import-staging.js";
import { type TarExtent, TarExtentError, tarExtent } from "./tar-extent.js";

const COMPONENT = "import";
/** Largest pax or long-name header accepted (node-tar ignores bigger ones; we refuse them). */
const MAX_META_BYTES = 64 * 1024;
const READ_CHUNK = 1024 * 1024;

/**
 * What {@link importBundle} takes (`spool import`).
 *
 * @category bundles
 * @example
 * ```ts
 * import { DEFAULT_ROOT_QUOTA, type ImportBundleOptions } from "@spool/sinks";
 * const options: ImportBundleOptions = { root: "/home/me/.spool", bundle: "/tmp/captures.tar", quotaBytes: DEFAULT_ROOT_QUOTA };
 * ```
 */
export interface ImportBundleOptions {
  /** The absolute root to import into (created if missing). */
  readonly root: string;
  /** A tar bundle, or a directory bundle (`spool export --out DIR`). */
  readonly bundle: string;
  /** The root's allowance (`--root-quota`): imported bytes are reserved against it. */
  readonly quotaBytes: number;
  /** What the receipts record as the capture's origin. @default imported from `bundle` */
  readonly provenance?: Omit<Provenance, "at">;
  /** Clock of the provenance's `at`. @default () => new Date() */
  readonly now?: () => Date;
}

/**
 * What an import did: the captures now in the root and the stream bytes they brought.
 *
 * @category bundles
 * @example
 * ```ts
 * import { importBundle } from "@spool/sinks";
 * const report = await importBundle({ root: "/home/me/.spool", bundle: "/tmp/captures.tar", quotaBytes: 128 * 1024 * 1024 });
 * console.log(`${report.imported.length} captures, ${report.bytes} bytes`);
 * ```
 */
export interface ImportReport {
  /** The captures now in the root, in manifest order. */
  readonly imported: string[];
  /** Stream bytes imported (what was reserved in the allowance). */
  readonly bytes: number;
  readonly manifest: BundleManifest;
}

/**
 * Import a bundle (tar or directory) into `root`: every file is staged privately and
 * checked against the manifest's sha256 before anything is published, and the bytes are
 * reserved in the root's allowance. Throws `SPOOL_E_BUNDLE`, `SPOOL_E_INTEGRITY`,
 * `SPOOL_E_EXISTS` or `SPOOL_E_QUOTA` with nothing written.
 *
 * @category bundles
 * @example
 * ```ts
 * import { importBundle } from "@spool/sinks";
 * const { imported } = await importBundle({ root: "/home/me/.spool", bundle: "/tmp/captures.tar", quotaBytes: 128 * 1024 * 1024 });
 * ```
 */
export async function importBundle(options: ImportBundleOptions): Promise<ImportReport> {
  const bundle = path.resolve(options.bundle);
  const st = fs.statSync(bundle, { throwIfNoEntry: false });
  if (!st || (!st.isFile() && !st.isDirectory())) {
    throw new SpoolError("SPOOL_E_USAGE", COMPONENT, `${bundle} is not a bundle file or directory`);
  }
  const stager = createStager(options.root, options.quotaBytes);
  try {
    if (st.isDirectory()) await stageDirectory(bundle, stager);
    else await stageTar(bundle, stager);
    return await publishStaged(stager, {
      root: options.root,
      quotaBytes: options.quotaBytes,
      provenance: { kind: "imported", from: bundle, ...options.provenance },
      now: options.now ?? (() => new Date()),
    });
  } finally {
    stager.discard();
  }
}

/** One file staged from a bundle. */
interface StagedFile {
  readonly bytes: number;
  /** Its sha256, or null for a file hard-linked from a parent root's final file (not re-read). */
  readonly sha256: string | null;
}

/**
 * Where a bundle's entries are written and accounted before anything is published
 * ({@link createStager}); {@link publishStaged} publishes it.
 *
 * @category bundles
 * @example
 * ```ts
 * import type { Stager } from "@spool/sinks";
 * declare const stager: Stager;
 * const sink = stager.open("tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/stdout.txt", 3);
 * sink.write(Buffer.from("hi\n"));
 * sink.end();
 * ```
 */
export interface Stager {
  /** The private staging directory (created on the first entry). */
  readonly dir: string;
  /** Accept one entry of `size` bytes at bundle path `name`; throws `SPOOL_E_BUNDLE` for anything a bundle may not hold. */
  open(name: string, size: number): EntrySink;
  /**
   * Stage `name` as a hard link to `file` (a final file of a parent root on the same file
   * system, `spool share`); false when it cannot be linked (nothing was done then).
   */
  link(name: string, file: string): boolean;
  /** The staging directory of a capture (created if missing). */
  captureDir(captureId: string): string;
  /** Staged data files by bundle path. */
  readonly files: Map<string, StagedFile>;
  /** Staged JSON documents (receipts, the manifest) by bundle path, held in memory. */
  readonly documents: Map<string, Buffer>;
  /** Remove the staging directory and everything in it (idempotent). */
  discard(): void;
}

/**
 * One staged entry being written: exactly the size given to {@link Stager.open}, then `end`.
 *
 * @category bundles
 * @example
 * ```ts
 * import type { EntrySink } from "@spool/sinks";
 * declare const sink: EntrySink;
 * sink.write(Buffer.from("bytes"));
 * sink.end();
 * ```
 */
export interface EntrySink {
  write(chunk: Buffer): void;
  end(): void;
}

/**
 * A private staging directory under `root` that accepts at most `budgetBytes` of entries
 * and refuses anything a bundle may not hold (`SPOOL_E_BUNDLE`). Call `discard()` when done.
 *
 * @category bundles
 * @example
 * ```ts
 * import { createStager, publishStaged } from "@spool/sinks";
 * const stager = createStager("/home/me/.spool", 64 * 1024 * 1024);
 * try {
 *   // … stager.open(name, size) for each entry …
 *   await publishStaged(stager, { root: "/home/me/.spool", quotaBytes: 128 * 1024 * 1024, provenance: { kind: "imported", from: "/tmp/b" }, now: () => new Date() });
 * } finally {
 *   stager.discard();
 * }
 * ```
 */
export function createStager(root: string, budgetBytes: number): Stager {
  const dir = path.join(root, stagingName());
  const files = new Map<string, StagedFile>();
  const documents = new Map<string, Buffer>();
  const names = new Set<string>();
  let made = false;
  let rootMade = false;
  let staged = 0;
  const stagingDir = () => {
    if (!made) {
      if (lstatIfAny(root) === null) {
        fs.mkdirSync(root, { recursive: true, mode: 0o700 });
        fs.chmodSync(root, 0o700); // mkdir's mode is filtered by the umask
        rootMade = true;
      }
      ensurePrivateDir(dir, { exclusive: true });
      made = true;
    }
    return dir;
  };
  const captureDir = (captureId: string) => ensurePrivateDir(path.join(stagingDir(), captureId));
  const claim = (name: string) => {
    if (names.has(name)) throw refused(`${printableName(name)} appears twice`);
    names.add(name);
  };
  return {
    dir,
    files,
    documents,
    captureDir,
    link(name, file) {
      const target = bundleFileOf(name);
      const st = lstatIfAny(file);
      if (target === null || target.name === RECEIPT_FILE || st === null || !st.isFile())
        return false;
      const into = captureDir(target.captureId);
      if (st.dev !== fs.lstatSync(into).dev) return false;
      claim(name);
      const staged = path.join(into, target.name);
      if (!linkOrRelease(file, staged, name, () => names.delete(name))) return false;
      files.set(name, { bytes: checkLinked(staged, st, name).size, sha256: null });
      return true;
    },
    open(name, size) {
      claim(name);
      if (name === MANIFEST_FILE) return documentSink(name, size, MAX_MANIFEST_BYTES, documents);
      const file = bundleFileOf(name);
      if (file === null) throw refused(`${printableName(name)} is not a file a bundle may hold`);
      if (file.name === RECEIPT_FILE) {
        return documentSink(name, size, MAX_BUNDLE_RECEIPT_BYTES, documents);
      }
      staged += size;
      // The allowance bounds stream bytes; indexes add at most 8 bytes per 1024 of them.
      if (staged > budgetBytes + Math.ceil(budgetBytes / 128) + 1024 * 1024) {
        throw new SpoolError(
          "SPOOL_E_QUOTA",
          COMPONENT,
          `the bundle holds more than the root's allowance of ${budgetBytes} bytes`,
        );
      }
      const fd = createExclusive(path.join(captureDir(file.captureId), file.name));
      return stagedFileSink(fd, name, size, files);
    },
    discard() {
      if (!made) return;
      fs.rmSync(dir, { recursive: true, force: true });
      if (rootMade) removeEmptyRoot(root);
      made = false;
    },
  };
}

/**
 * Hard-link `file` as `staged`; false (after `release`) where the filesystem cannot, so the
 * caller copies instead.
 */
function linkOrRelease(file: string, staged: string, name: string, release: () => void): boolean {
  try {
    fs.linkSync(file, staged);
    return true;
  } catch (error) {
    release();
    if (errnoOf(error) === "EXDEV" || errnoOf(error) === "EPERM") return false;
    throw new SpoolError("SPOOL_E_STORAGE", COMPONENT, `cannot link ${name} (${errnoOf(error)})`, {
      cause: error,
    });
  }
}

/** The name must now be the very file that was checked (link(2) never follows a link). */
function checkLinked(staged: string, st: fs.Stats, name: string): fs.Stats {
  const now = fs.lstatSync(staged);
  if (now.ino !== st.ino || now.dev !== st.dev || !now.isFile()) {
    fs.unlinkSync(staged);
    throw new SpoolError("SPOOL_E_UNSAFE_PATH", COMPONENT, `${name} changed while it was linked`);
  }
  return now;
}

/** Write one staged stream file: exactly `size` bytes, hashed, fsynced, then recorded. */
function stagedFileSink(
  fd: number,
  name: string,
  size: number,
  files: Map<string, StagedFile>,
): EntrySink {
  const hash = createHash("sha256");
  let bytes = 0;
  let open = true;
  return {
    write(chunk) {
      bytes += chunk.byteLength;
      if (bytes > size) throw refused(`${printableName(name)} holds more than its header says`);
      hash.update(chunk);
      writeFully(fd, chunk);
    },
    end() {
      if (!open) return;
      open = false;
      try {
        if (bytes !== size) throw refused(`${printableName(name)} is truncated`);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      files.set(name, { bytes, sha256: hash.digest("hex") });
    },
  };
}

/** Only empty directories go (rmdir): anything another process put there stays. */
function removeEmptyRoot(root: string): void {
  for (const d of [path.join(root, ROOT_QUOTA_DIR), path.join(root, TOOL_OUTPUTS), root]) {
    try {
      fs.rmdirSync(d);
    } catch {
      // not there, or not empty: leave it
    }
  }
}

/**
 * Feed a tar file to the stager through node-tar's strict parser. Its headers are walked
 * first (`tarExtent`: positioned reads, bodies skipped), so too many entries, data after
 * the end marker and a missing manifest are refused before anything is staged, and the
 * parser is given exactly the archive: nothing after the end marker is ever read.
 */
async function stageTar(bundle: string, stager: Stager): Promise<void> {
  const fd = fs.openSync(bundle, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw refused(`${bundle} is not a regular file`);
    const head = Buffer.alloc(4);
    refuseCompressed(head.subarray(0, fs.readSync(fd, head, 0, 4, 0)));
    const extent = walkTar(fd, st.size);
    await parseTar(fd, extent.end, stager);
  } finally {
    fs.closeSync(fd);
  }
}

function walkTar(fd: number, size: number): TarExtent {
  try {
    const extent = tarExtent(fd, size, {
      maxEntries: MAX_BUNDLE_ENTRIES,
      maxTrailing: MAX_TRAILING_BYTES,
      maxMeta: MAX_META_BYTES,
    });
    if (extent.complete && !extent.names.has(MANIFEST_FILE))
      throw refused("it has no manifest.json");
    return extent;
  } catch (error) {
    if (error instanceof TarExtentError) throw refused(error.message);
    throw error;
  }
}

/** Give the parser the first `end` bytes of `fd`, staging each entry; stop at its end marker. */
async function parseTar(fd: number, end: number, stager: Stager): Promise<void> {
  let failure: unknown = null;
  const fail = (error: unknown) => {
    failure ??= error;
  };
  const failed = () => failure !== null;
  const parser = new Parser({ strict: true, maxMetaEntrySize: MAX_META_BYTES });
  let sawEnd = false;
  parser.on("eof", () => {
    sawEnd = true;
  });
  parser.on("entry", (entry: ReadEntry) => stageEntry(entry, stager, fail, failed));
  parser.on("ignoredEntry", (entry: ReadEntry) => {
    fail(refused(`${printableName(entry.path)} (${entry.type}) is an entry a bundle may not hold`));
  });
  parser.on("error", (error: unknown) =>
    fail(refused(`not a valid tar (${message(error)})`, error)),
  );
  const ended = new Promise<void>((resolve) => {
    parser.on("end", resolve);
    parser.on("abort", () => resolve());
  });
  const buffer = Buffer.allocUnsafe(READ_CHUNK);
  // Never past the end marker, whatever the walk said: the parser would buffer it all.
  for (let fed = 0; fed < end && !sawEnd && !failed(); ) {
    const n = fs.readSync(fd, buffer, 0, Math.min(buffer.byteLength, end - fed), fed);
    if (n === 0) break;
    fed += n;
    if (!parser.write(Buffer.from(buffer.subarray(0, n)))) {
      await new Promise<void>((resolve) => parser.once("drain", resolve));
    }
  }
  if (!failed()) {
    parser.end();
    await ended;
  }
  if (failure !== null) throw failure;
}

/** Stage one entry the parser read; a failure is kept by `fail` and the entry drained. */
function stageEntry(
  entry: ReadEntry,
  stager: Stager,
  fail: (error: unknown) => void,
  failed: () => boolean,
): void {
  if (failed()) {
    entry.resume();
    return;
  }
  try {
    if (entry.type !== "File" && entry.type !== "OldFile") {
      throw refused(`${printableName(entry.path)} is a ${entry.type}, not a regular file`);
    }
    const sink = stager.open(entry.path, entry.size);
    entry.on("data", (chunk: Buffer) => {
      if (failed()) return;
      try {
        sink.write(chunk);
      } catch (error) {
        fail(error);
      }
    });
    entry.on("end", () => {
      if (failed()) return;
      try {
        sink.end();
      } catch (error) {
        fail(error);
      }
    });
  } catch (error) {
    fail(error);
    entry.resume();
  }
}

/** One file of a directory bundle, as listed before anything is staged. */
interface DirEntry {
  readonly full: string;
  readonly entryPath: string;
  readonly st: fs.Stats;
}

/**
 * List a directory bundle with `lstat`, refusing anything that is not a plain file with a
 * single link under an allowed directory, and more than {@link MAX_BUNDLE_ENTRIES} files:
 * all before any of it is staged. `spool export --out DIR` copies every file, so its
 * files have one link each; a second link is someone else's file.
 */
function listDirectory(bundle: string): DirEntry[] {
  const out: DirEntry[] = [];
  const walk = (dir: string, rel: string): void => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const entryPath = rel === "" ? name : `${rel}/${name}`;
      const st = fs.lstatSync(full);
      if (st.isDirectory()) {
        if (entryPath !== TOOL_OUTPUTS && !entryPath.startsWith(`${TOOL_OUTPUTS}/`)) {
          throw refused(`${printableName(entryPath)}/ is a directory a bundle may not hold`);
        }
        walk(full, entryPath);
        continue;
      }
      if (!st.isFile()) throw refused(`${printableName(entryPath)} is not a regular file`);
      if (st.nlink !== 1) {
        throw refused(
          `${printableName(entryPath)} is a hard link (${st.nlink} links); a directory bundle holds only files of its own`,
        );
      }
      out.push({ full, entryPath, st });
      if (out.length > MAX_BUNDLE_ENTRIES) {
        throw refused(`it has more than ${MAX_BUNDLE_ENTRIES} entries`);
      }
    }
  };
  walk(bundle, "");
  if (!out.some((e) => e.entryPath === MANIFEST_FILE)) throw refused("it has no manifest.json");
  return out;
}

/** Feed a directory bundle to the stager: listed and checked first, then each file copied. */
async function stageDirectory(bundle: string, stager: Stager): Promise<void> {
  const buffer = Buffer.allocUnsafe(READ_CHUNK);
  for (const { full, entryPath, st } of listDirectory(bundle)) {
    const sink = stager.open(entryPath, st.size);
    const fd = fs.openSync(
      full,
      fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK,
    );
    try {
      const opened = fs.fstatSync(fd);
      if (!opened.isFile() || opened.ino !== st.ino || opened.nlink !== 1)
        throw refused(`${printableName(entryPath)} changed while read`);
      for (;;) {
        const n = fs.readSync(fd, buffer, 0, buffer.byteLength, null);
        if (n === 0) break;
        sink.write(Buffer.from(buffer.subarray(0, n)));
      }
      sink.end();
    } finally {
      fs.closeSync(fd);
    }
  }
}

/**
 * What {@link publishStaged} takes.
 *
 * @category bundles
 * @example
 * ```ts
 * import type { PublishStagedOptions } from "@spool/sinks";
 * const options: PublishStagedOptions = { root: "/home/me/.spool", quotaBytes: 128 * 1024 * 1024, provenance: { kind: "shared", from: "/srv/spool" }, now: () => new Date() };
 * ```
 */
export interface PublishStagedOptions {
  /** The absolute root the captures are published into. */
  readonly root: string;
  /** The root's allowance in bytes: the staged stream bytes are reserved against it. */
  readonly quotaBytes: number;
  /** What the receipts record as the captures' origin. */
  readonly provenance: Omit<Provenance, "at">;
  /** Clock of the provenance's `at`. */
  readonly now: () => Date;
}

/**
 * Verify what `stager` holds against its manifest (sha256 of every file), reserve the
 * bytes in the root's allowance, and publish each capture. Throws `SPOOL_E_BUNDLE`,
 * `SPOOL_E_INTEGRITY`, `SPOOL_E_EXISTS` or `SPOOL_E_QUOTA`.
 *
 * @category bundles
 * @example
 * ```ts
 * import { publishStaged, type Stager } from "@spool/sinks";
 * declare const stager: Stager;
 * const report = await publishStaged(stager, { root: "/home/me/.spool", quotaBytes: 128 * 1024 * 1024, provenance: { kind: "imported", from: "/tmp/b.tar" }, now: () => new Date() });
 * ```
 */
export async function publishStaged(
  stager: Stager,
  options: PublishStagedOptions,
): Promise<ImportReport> {
  const { root } = options;
  const manifest = verifyStaged(stager);
  const outputs = path.join(root, TOOL_OUTPUTS);
  if (manifest.captures.length === 0) return { imported: [], bytes: 0, manifest };
  // Every capture gets its staged directory (and the root exists) before anything is reserved.
  for (const c of manifest.captures) stager.captureDir(c.captureId);
  for (const c of manifest.captures) {
    if (lstatIfAny(path.join(outputs, c.captureId)) !== null) {
      throw new SpoolError(
        "SPOOL_E_EXISTS",
        COMPONENT,
        `capture ${c.captureId} already exists in ${root}; refusing the whole import`,
      );
    }
  }
  const at = options.now().toISOString();
  const reservations: Array<{ allowance: RootAllowance; bytes: number; published: boolean }> = [];
  let total = 0;
  try {
    for (const c of manifest.captures) {
      const bytes = keptStreamBytes(c);
      const allowance = createRootAllowance({
        root,
        limit: options.quotaBytes,
        captureId: c.captureId,
      });
      const entry = { allowance, bytes, published: false };
      reservations.push(entry);
      if (allowance.reserve(bytes) < bytes) {
        throw new SpoolError(
          "SPOOL_E_QUOTA",
          COMPONENT,
          `the root's allowance has no room for ${c.captureId} (${bytes} bytes); nothing imported`,
        );
      }
      total += bytes;
    }
    ensurePrivateDir(outputs);
    for (const [i, c] of manifest.captures.entries()) {
      const staged = stager.captureDir(c.captureId);
      const bundled = receiptOf(stager, c.captureId);
      const receipt = arrivedReceipt(bundled, root, { ...options.provenance, at });
      publishAtomic(staged, RECEIPT_FILE, Buffer.from(`${JSON.stringify(receipt, null, 2)}\n`));
      syncDir(staged);
      publishDir(staged, path.join(outputs, c.captureId));
      reservations[i]!.published = true;
    }
    syncDir(outputs);
  } finally {
    // An unpublished capture keeps nothing of ours; if a concurrent import published the
    // same id meanwhile, the shared reservation is settled to what is on disk, not to 0.
    for (const [i, r] of reservations.entries()) {
      const id = manifest.captures[i]!.captureId;
      r.allowance.release(r.published ? r.bytes : keptOnDisk(outputs, id));
    }
    if (reservations.some((r) => !r.published)) reconcileRootQuota(root);
  }
  return { imported: manifest.captures.map((c) => c.captureId), bytes: total, manifest };
}

/** Everything the manifest says, checked against what was staged; returns the manifest. */
function verifyStaged(stager: Stager): BundleManifest {
  const raw = stager.documents.get(MANIFEST_FILE);
  if (raw === undefined) throw refused("it has no manifest.json");
  const parsed = BundleManifestSchema.safeParse(parseJson(raw, MANIFEST_FILE));
  if (!parsed.success) throw refused("its manifest.json is not a spool bundle manifest");
  const manifest = parsed.data;
  if (manifest.captures.length > MAX_BUNDLE_CAPTURES) {
    throw refused(`its manifest lists more than ${MAX_BUNDLE_CAPTURES} captures`);
  }
  const listed = new Set<string>();
  for (const c of manifest.captures) {
    if (listed.has(`${c.captureId}/`)) throw lie(`${c.captureId} is listed twice`);
    listed.add(`${c.captureId}/`);
    for (const f of c.files) {
      const name = bundlePath(c.captureId, f.name);
      if (listed.has(name)) throw lie(`${name} is listed twice`);
      listed.add(name);
      const got =
        f.name === RECEIPT_FILE
          ? documentRecord(stager.documents.get(name))
          : stager.files.get(name);
      if (got === undefined) throw lie(`${name} is listed but not in the bundle`);
      if (got.bytes !== f.bytes || (got.sha256 !== null && got.sha256 !== f.sha256)) {
        throw new SpoolError(
          "SPOOL_E_INTEGRITY",
          COMPONENT,
          `${name} does not match its sha256 or size in the manifest; refusing the bundle`,
        );
      }
    }
    verifyReceipt(stager, manifest, c);
  }
  for (const name of [...stager.files.keys(), ...stager.documents.keys()]) {
    if (name !== MANIFEST_FILE && !listed.has(name)) throw lie(`${name} is not in the manifest`);
  }
  return manifest;
}

function verifyReceipt(
  stager: Stager,
  _manifest: BundleManifest,
  c: BundleManifest["captures"][number],
) {
  const receipt = receiptOf(stager, c.captureId);
  if (receipt.captureId !== c.captureId)
    throw lie(`the receipt in ${c.captureId} names another capture`);
  if (receipt.root !== ".") throw lie(`the receipt of ${c.captureId} is not a bundle receipt`);
  if (c.snapshot && receipt.capture.state === "complete") {
    throw lie(`${c.captureId} is a snapshot but its receipt says complete`);
  }
  const names = new Set(c.files.map((f) => f.name));
  for (const stream of STREAM_NAMES) {
    const info = receipt.streams[stream];
    if (info.ref === null) continue;
    const name = streamFileName(stream, info);
    const file = stager.files.get(bundlePath(c.captureId, name));
    if (
      info.ref !== bundlePath(c.captureId, name) ||
      file === undefined ||
      !names.has(indexFileName(stream))
    ) {
      throw lie(`the ${stream} of ${c.captureId} is not where its receipt says`);
    }
    if (file.bytes !== info.committed) {
      throw lie(
        `the ${stream} of ${c.captureId} has ${file.bytes} bytes, its receipt says ${info.committed}`,
      );
    }
    if (info.sha256 !== null && file.sha256 !== null && info.sha256 !== file.sha256) {
      throw new SpoolError(
        "SPOOL_E_INTEGRITY",
        COMPONENT,
        `the ${stream} of ${c.captureId} does not match its receipt's sha256`,
      );
    }
  }
  for (const f of c.files) {
    const stream = f.name.startsWith("stdout")
      ? "stdout"
      : f.name.startsWith("stderr")
        ? "stderr"
        : null;
    const info = stream === null ? null : receipt.streams[stream];
    if (info !== null && info !== undefined && info.ref === null) {
      throw lie(`${c.captureId} carries ${f.name} although its receipt has no ${stream} file`);
    }
    if (
      info &&
      f.name.endsWith(".txt") !== (info.representation !== "binary") &&
      !f.name.endsWith(".idx")
    ) {
      throw lie(`${c.captureId}/${f.name} does not match its representation`);
    }
  }
}

function receiptOf(stager: Stager, captureId: string): Receipt {
  const name = bundlePath(captureId, RECEIPT_FILE);
  const raw = stager.documents.get(name);
  if (raw === undefined) throw lie(`${captureId} has no receipt`);
  const parsed = ReceiptSchema.safeParse(parseJson(raw, name));
  if (!parsed.success) throw refused(`${name} is not a valid receipt`);
  return parsed.data;
}

/** Give `staged` the name `target` atomically: an empty directory made exclusively, then replaced by rename. */
function publishDir(staged: string, target: string): void {
  try {
    fs.mkdirSync(target, { mode: 0o700 });
  } catch (error) {
    throw new SpoolError(
      errnoOf(error) === "EEXIST" ? "SPOOL_E_EXISTS" : "SPOOL_E_STORAGE",
      COMPONENT,
      `cannot create ${path.basename(target)} (${errnoOf(error)})`,
      { cause: error },
    );
  }
  try {
    fs.renameSync(staged, target);
  } catch (error) {
    fs.rmdirSync(target);
    throw new SpoolError(
      "SPOOL_E_STORAGE",
      COMPONENT,
      `cannot publish ${path.basename(target)} (${errnoOf(error)})`,
      {
        cause: error,
      },
    );
  }
}

function keptStreamBytes(c: BundleManifest["captures"][number]): number {
  return c.files.filter((f) => /\.(txt|bin)$/.test(f.name)).reduce((sum, f) => sum + f.bytes, 0);
}

function documentSink(
  name: string,
  size: number,
  max: number,
  into: Map<string, Buffer>,
): EntrySink {
  if (size > max) throw refused(`${printableName(name)} is ${size} bytes, more than ${max}`);
  const parts: Buffer[] = [];
  let bytes = 0;
  return {
    write(chunk) {
      bytes += chunk.byteLength;
      if (bytes > size) throw refused(`${printableName(name)} holds more than its header says`);
      parts.push(Buffer.from(chunk));
    },
    end() {
      if (bytes !== size) throw refused(`${printableName(name)} is truncated`);
      into.set(name, Buffer.concat(parts));
    },
  };
}

function documentRecord(bytes: Buffer | undefined): StagedFile | undefined {
  if (bytes === undefined) return undefined;
  return { bytes: bytes.byteLength, sha256: createHash("sha256").update(bytes).digest("hex") };
}

function parseJson(raw: Buffer, name: string): unknown {
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch (error) {
    throw refused(`${name} is not JSON`, error);
  }
}

/**
 * A compressed bundle is refused before anything is decompressed: `spool export` writes a
 * plain tar, and a small compressed file can inflate without bound (the parser would
 * decompress gzip and zstd on its own).
 */
function refuseCompressed(head: Buffer): void {
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  const zstd = head.length >= 4 && head.readUInt32LE(0) === 0xfd2fb528;
  if (gzip || zstd)
    throw refused(
      `it is ${gzip ? "gzip" : "zstd"}-compressed; spool export writes a plain tar (decompress it first)`,
    );
}

function refused(what: string, cause?: unknown): SpoolError {
  return new SpoolError(
    "SPOOL_E_BUNDLE",
    COMPONENT,
    `refusing the bundle: ${what}`,
    cause === undefined ? {} : { cause },
  );
}

function lie(what: string): SpoolError {
  return refused(`its manifest does not match its contents (${what})`);
}

function message(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/[^\x20-\x7e]/g, "?").slice(0, 160);
}

function printableName(s: string): string {
  const safe = s.replace(/[^\x20-\x7e]/g, "?");
  return safe.length > 80 ? `${safe.slice(0, 77)}...` : safe;
}
