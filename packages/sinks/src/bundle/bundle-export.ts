/**
 * `spool export`: write chosen captures of a store into a bundle (`bundle.ts`) through
 * the read-side store contract only (`state`, `openStream`): each stream's committed
 * bytes are copied in bounded chunks, hashed while copied (and checked against the
 * receipt's sha256 where it has one), and its sparse line index is rebuilt from the very
 * bytes copied, so a snapshot of a running job carries an index that matches its cut.
 *
 * A live capture is exported as a snapshot marked `partial` at its committed boundary;
 * a crashed one with its crash receipt (`partial`, `crash`) and the bytes it stored.
 * Supervisor and ownership records never leave the root.
 *
 * @example
 * ```ts
 * import { createFileStore, exportBundle } from "@spool/sinks";
 * const store = createFileStore({ root: "/abs/root" });
 * const ids = (await store.list()).map((c) => c.captureId);
 * const manifest = await exportBundle({ store, captureIds: ids, out: "/tmp/all.tar" });
 * ```
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  type CaptureStore,
  isSpoolError,
  SpoolError,
  STREAM_NAMES,
  type StoredCapture,
  type StreamName,
} from "@spool/core";
import { createExclusive, writeFully } from "../file/storage.js";
import { readableLength } from "../store/bounded-stream.js";
import { createLineIndexer } from "../store/line-index.js";
import {
  BUNDLE_FORMAT,
  type BundleCapture,
  type BundleFile,
  type BundleManifest,
  BundleManifestSchema,
  bundlePath,
  bundleReceipt,
  type CopiedStream,
  indexFileName,
  MANIFEST_FILE,
  MAX_BUNDLE_CAPTURES,
  RECEIPT_FILE,
  streamFileName,
} from "./bundle.js";
import {
  type BundleWriter,
  createDirBundleWriter,
  createTarBundleWriter,
} from "./bundle-writer.js";

const COMPONENT = "export";

/**
 * What {@link exportBundle} takes (`spool export`).
 *
 * @category bundles
 * @example
 * ```ts
 * import { createFileStore, type ExportBundleOptions } from "@spool/sinks";
 * const options: ExportBundleOptions = {
 *   store: createFileStore({ root: "/home/me/.spool" }),
 *   captureIds: ["AAAAAAAAAAAAAAAAAAAAAAAA"],
 *   out: "/tmp/captures.tar",
 * };
 * ```
 */
export interface ExportBundleOptions {
  /** The store the captures are read from (`createFileStore({ root })`). */
  readonly store: CaptureStore;
  /** The captures to export, in order. */
  readonly captureIds: readonly string[];
  /** Chosen captures the caller already had to leave out (recorded in the manifest). */
  readonly omitted?: BundleManifest["omitted"];
  /** `FILE.tar` for a tar bundle, any other name for a directory bundle; nothing may be there. */
  readonly out: string;
  /** Bundle layout: one tar file, or a directory of the same files. @default "tar" when `out` ends in `.tar`, else "dir" */
  readonly format?: "tar" | "dir";
  /** Clock of `createdAt` and of the tar entries' mtime. @default () => new Date() */
  readonly now?: () => Date;
  /**
   * Leave out (and record as `not-permitted`) a capture the store refuses to look into,
   * and skip one removed meanwhile, instead of failing (`--all`). @default false
   */
  readonly skipUnreadable?: boolean;
}

/**
 * Export captures into a new bundle (tar or directory) and return its manifest. Live
 * captures go in as snapshots at their committed boundary; what cannot go in is recorded
 * in the manifest's `omitted`. Nothing is left under `out` on failure.
 *
 * @category bundles
 * @example
 * ```ts
 * import { createFileStore, exportBundle } from "@spool/sinks";
 * const manifest = await exportBundle({
 *   store: createFileStore({ root: "/home/me/.spool" }),
 *   captureIds: ["AAAAAAAAAAAAAAAAAAAAAAAA"],
 *   out: "/tmp/captures.tar",
 * });
 * manifest.captures.length; // 1
 * ```
 */
export async function exportBundle(options: ExportBundleOptions): Promise<BundleManifest> {
  const now = options.now ?? (() => new Date());
  const format = options.format ?? (options.out.endsWith(".tar") ? "tar" : "dir");
  const writer =
    format === "tar"
      ? createTarBundleWriter({ out: options.out, mtime: now() })
      : createDirBundleWriter({ out: options.out });
  try {
    const manifest = await writeBundle(options.store, options.captureIds, writer, {
      omitted: options.omitted ?? [],
      now,
      skipUnreadable: options.skipUnreadable ?? false,
    });
    await writer.finish();
    return manifest;
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/**
 * What {@link writeBundle} takes beyond the store, ids and writer.
 *
 * @category bundles
 * @example
 * ```ts
 * import type { WriteBundleOptions } from "@spool/sinks";
 * const options: WriteBundleOptions = { omitted: [], now: () => new Date(), linkDir: () => null };
 * ```
 */
export interface WriteBundleOptions {
  /** Chosen captures the caller already left out (recorded in the manifest). */
  readonly omitted: BundleManifest["omitted"];
  /** Clock of the manifest's `createdAt`. */
  readonly now: () => Date;
  /**
   * The directory of a capture's stored files, when final files may be hard-linked
   * instead of copied (`spool share` on one file system); null to copy.
   */
  readonly linkDir?: (capture: StoredCapture) => string | null;
  /** See {@link ExportBundleOptions.skipUnreadable}. @default false */
  readonly skipUnreadable?: boolean;
}

/**
 * Write every capture and then the manifest into `writer`, which the caller finishes or
 * aborts: {@link exportBundle} with a writer of your choice (how `spool share` links
 * files instead of copying them).
 *
 * @category bundles
 * @example
 * ```ts
 * import { createDirBundleWriter, createFileStore, writeBundle } from "@spool/sinks";
 * const writer = createDirBundleWriter({ out: "/tmp/bundle-dir" });
 * try {
 *   await writeBundle(createFileStore({ root: "/home/me/.spool" }), ["AAAAAAAAAAAAAAAAAAAAAAAA"], writer, { omitted: [], now: () => new Date() });
 *   await writer.finish();
 * } catch (error) {
 *   await writer.abort();
 *   throw error;
 * }
 * ```
 */
export async function writeBundle(
  store: CaptureStore,
  captureIds: readonly string[],
  writer: BundleWriter,
  options: WriteBundleOptions,
): Promise<BundleManifest> {
  const captures: BundleCapture[] = [];
  const omitted = [...options.omitted];
  const seen = new Set<string>();
  if (new Set(captureIds).size > MAX_BUNDLE_CAPTURES) {
    throw new SpoolError(
      "SPOOL_E_USAGE",
      COMPONENT,
      `a bundle holds at most ${MAX_BUNDLE_CAPTURES} captures (${new Set(captureIds).size} chosen); export them in parts (--since, or REFs)`,
    );
  }
  for (const captureId of captureIds) {
    if (seen.has(captureId)) continue;
    seen.add(captureId);
    let state: StoredCapture;
    try {
      state = await store.state(captureId);
    } catch (error) {
      if (!options.skipUnreadable) throw error;
      if (isSpoolError(error, "SPOOL_E_REF_NOT_FOUND")) continue;
      if (!isSpoolError(error, "SPOOL_E_UNSAFE_PATH", "SPOOL_E_REF_OUTSIDE_ROOT")) throw error;
      omitted.push({ captureId, reason: "not-permitted", detail: error.message });
      continue;
    }
    captures.push(await exportCapture(store, state, writer, options.linkDir?.(state) ?? null));
  }
  const manifest = BundleManifestSchema.parse({
    format: BUNDLE_FORMAT,
    version: 1,
    createdAt: options.now().toISOString(),
    captures,
    omitted,
  });
  const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  await writer.add(MANIFEST_FILE, bytes.byteLength, [bytes]);
  return manifest;
}

async function exportCapture(
  store: CaptureStore,
  state: StoredCapture,
  writer: BundleWriter,
  linkDir: string | null,
): Promise<BundleCapture> {
  const { captureId, condition, receipt } = state;
  const files: BundleFile[] = [];
  const copied = {} as Record<StreamName, CopiedStream | null>;
  const canLink = linkDir !== null && condition === "final";
  for (const stream of STREAM_NAMES) {
    const info = receipt.streams[stream];
    if (info.ref === null) {
      copied[stream] = null;
      continue;
    }
    const name = streamFileName(stream, info);
    const linked = canLink ? await linkStream(writer, linkDir, state, stream) : null;
    const got = linked ?? (await copyStream(store, state, stream, writer));
    if (!linked && info.sha256 !== null && readableLength(receipt, stream) === info.committed) {
      if (got.data.sha256 !== info.sha256) {
        throw new SpoolError(
          "SPOOL_E_INTEGRITY",
          COMPONENT,
          `${captureId} ${stream}: the stored bytes do not match the receipt's sha256; not exporting it`,
        );
      }
    }
    copied[stream] = got.data;
    files.push({ name, ...got.data }, { name: indexFileName(stream), ...got.index });
  }
  const out = bundleReceipt(receipt, condition, copied);
  const bytes = Buffer.from(`${JSON.stringify(out, null, 2)}\n`);
  await writer.add(bundlePath(captureId, RECEIPT_FILE), bytes.byteLength, [bytes]);
  files.push({ name: RECEIPT_FILE, bytes: bytes.byteLength, sha256: sha256Hex(bytes) });
  return {
    captureId,
    condition,
    snapshot: condition === "live",
    files,
    omitted: omissions(state, copied),
  };
}

interface CopiedFiles {
  readonly data: CopiedStream;
  readonly index: CopiedStream;
}

/** Copy `[0, committed)` of a stream, hashing it and rebuilding its line index on the way. */
async function copyStream(
  store: CaptureStore,
  state: StoredCapture,
  stream: StreamName,
  writer: BundleWriter,
): Promise<CopiedFiles> {
  const info = state.receipt.streams[stream];
  const reader = await store.openStream(state, stream);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "spool-export-"));
  const indexFile = path.join(scratch, "index");
  const indexFd = createExclusive(indexFile);
  const indexer = createLineIndexer();
  const dataHash = createHash("sha256");
  const indexHash = createHash("sha256");
  let indexBytes = 0;
  try {
    const committed = reader.committed;
    async function* tapped(): AsyncIterable<Uint8Array> {
      for await (const chunk of reader.chunks(0, committed)) {
        dataHash.update(chunk);
        const entries = indexer.scan(chunk);
        if (entries) {
          writeFully(indexFd, entries);
          indexHash.update(entries);
          indexBytes += entries.byteLength;
        }
        yield chunk;
      }
    }
    await writer.add(
      bundlePath(state.captureId, streamFileName(stream, info)),
      committed,
      tapped(),
    );
    fs.closeSync(indexFd);
    await writer.add(
      bundlePath(state.captureId, indexFileName(stream)),
      indexBytes,
      fileChunks(indexFile),
    );
    return {
      data: { bytes: committed, sha256: dataHash.digest("hex") },
      index: { bytes: indexBytes, sha256: indexHash.digest("hex") },
    };
  } finally {
    try {
      fs.closeSync(indexFd);
    } catch {
      // closed above
    }
    fs.rmSync(scratch, { recursive: true, force: true });
    await reader.close();
  }
}

/**
 * Hard-link a final stream file and its index (`spool share`), or null to copy instead:
 * the file must be a regular file whose size is what the receipt committed and whose
 * receipt has a sha256 (the link is the same bytes; nothing is re-read).
 */
async function linkStream(
  writer: BundleWriter,
  dir: string,
  state: StoredCapture,
  stream: StreamName,
): Promise<CopiedFiles | null> {
  const info = state.receipt.streams[stream];
  const name = streamFileName(stream, info);
  const data = path.join(dir, name);
  const index = path.join(dir, indexFileName(stream));
  if (info.sha256 === null || info.ref === null || path.basename(info.ref) !== name) return null;
  const dataSt = fs.lstatSync(data, { throwIfNoEntry: false });
  const indexSt = fs.lstatSync(index, { throwIfNoEntry: false });
  if (!dataSt?.isFile() || dataSt.size !== info.committed || !indexSt?.isFile()) return null;
  if (!writer.link(bundlePath(state.captureId, name), data)) return null;
  const indexSha = fileSha256(index);
  const indexName = bundlePath(state.captureId, indexFileName(stream));
  if (!writer.link(indexName, index)) await writer.add(indexName, indexSt.size, fileChunks(index));
  return {
    data: { bytes: info.committed, sha256: info.sha256 },
    index: { bytes: indexSt.size, sha256: indexSha },
  };
}

/** What a bundle leaves out of this capture, and why. */
function omissions(state: StoredCapture, copied: Record<StreamName, CopiedStream | null>) {
  const out: BundleCapture["omitted"] = [];
  const { receipt } = state;
  // Crashed now, or crashed before and recovered (a final receipt with reason `crash`).
  const crashed = state.condition === "crashed" || receipt.capture.reasons.includes("crash");
  if (state.owner !== null) out.push({ what: "owner record", reason: "not-permitted" });
  if (state.job !== null) out.push({ what: "supervisor record", reason: "not-permitted" });
  for (const stream of STREAM_NAMES) {
    const got = copied[stream];
    const produced = receipt.streams[stream].produced;
    if (state.condition === "live") {
      out.push({
        what: `${stream} bytes past ${got?.bytes ?? 0} (still being written)`,
        reason: "running",
      });
    } else if (crashed && (got?.bytes ?? 0) < produced) {
      out.push({
        what: `${stream} bytes past ${got?.bytes ?? 0} (not stored before the crash)`,
        reason: "crashed",
      });
    }
  }
  if (crashed && !out.some((o) => o.reason === "crashed")) {
    out.push({ what: "anything its owner had not stored", reason: "crashed" });
  }
  for (const stream of STREAM_NAMES) {
    const info = receipt.streams[stream];
    // Invalid bytes were stored as U+FFFD (`--binary text`): the raw bytes never were.
    if (
      info.representation === "utf8-replaced" ||
      receipt.capture.reasons.includes("binary-not-retained")
    ) {
      out.push({
        what: `raw ${stream} bytes (${info.replacements} invalid sequence(s) kept as U+FFFD)`,
        reason: "binary-not-retained",
      });
    }
  }
  return out;
}

function* fileChunks(file: string): Iterable<Uint8Array> {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  try {
    const buffer = Buffer.allocUnsafe(1024 * 1024);
    for (;;) {
      const n = fs.readSync(fd, buffer, 0, buffer.byteLength, null);
      if (n === 0) return;
      yield Buffer.from(buffer.subarray(0, n));
    }
  } finally {
    fs.closeSync(fd);
  }
}

function fileSha256(file: string): string {
  const hash = createHash("sha256");
  for (const chunk of fileChunks(file)) hash.update(chunk);
  return hash.digest("hex");
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
