/**
 * The file layout's {@link CaptureStore}: reads what `createFileSpool` writes under
 * `ROOT/tool-outputs/<captureId>/` (SPEC §2) from outside the capture's owner. REFs are
 * resolved by `resolveRef` (no `..`, no absolute path, no link at any level), states by
 * `readCaptureState` (final / live while the owner in `owner.json` runs / crashed), stream
 * files are opened `O_NOFOLLOW` and read through the sparse line index (`stdout.idx`),
 * cursors live in `cursors/`, the completion notice is `completion.seen` (created
 * exclusively), and recovery publishes crash receipts as `receipt.json` exclusively.
 * `watch` polls every `watchIntervalMs`, one look per capture however many watch it.
 *
 * The layout is read in bounded steps (a read is at most `READ_CHUNK`): synchronously for
 * spans, lines and small reads, as the CLI always did; a stream's `chunks` (whole
 * downloads, exports) read on the thread pool, one chunk ahead of the consumer.
 *
 * @example
 * ```ts
 * import { createFileStore } from "@spool/sinks";
 * const store = createFileStore({ root: "/abs/root" });
 * for (const capture of await store.list()) console.log(capture.captureId, capture.condition);
 * ```
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  type CaptureStore,
  type Clock,
  SpoolError,
  type StoredCapture,
  type StoredStream,
  type StreamName,
  type StreamOrder,
} from "@spool/core";
import { openPrivateFile } from "../file/private-file.js";
import { lstatIfAny } from "../file/storage.js";
import { reconcileRootQuota } from "../quota/root-quota.js";
import { listCaptureStatuses, reconcileCapture, recoverRoot } from "../recovery/recovery.js";
import { ORDER_JOURNAL, ORDER_MAX_SWITCHES, orderEntries } from "../writer/order-journal.js";
import { createBoundedStream, readableLength } from "./bounded-stream.js";
import {
  type CaptureStateOptions,
  type CaptureStatus,
  readCaptureState,
} from "./capture-dir-state.js";
import { completionSeen, takeCompletion } from "./completion-marker.js";
import { loadCursor, saveCursor } from "./cursor-file.js";
import { readJobRecord } from "./job-record.js";
import { lineIndexName, seekLine } from "./line-index.js";
import { captureDir, resolveRef, streamOfFile } from "./refs.js";
import { createStateWatch } from "./state-watch.js";

/**
 * The file store's `name` (`CaptureStore.name`), as errors and logs name it.
 *
 * @category storage
 * @example
 * ```ts
 * import { createFileStore, FILE_STORE } from "@spool/sinks";
 * createFileStore({ root: "/tmp/my-spools" }).name === FILE_STORE; // true
 * ```
 */
export const FILE_STORE = "file-store";

/**
 * What {@link createFileStore} takes: the root, and how `watch` looks and decides.
 *
 * @category storage
 * @example
 * ```ts
 * import { createFileStore, type FileStoreOptions } from "@spool/sinks";
 * const options: FileStoreOptions = { root: "/tmp/my-spools", watchIntervalMs: 100 };
 * const store = createFileStore(options);
 * ```
 */
export interface FileStoreOptions {
  /** The absolute root (as `resolveRoot` returns it); captures are under `ROOT/tool-outputs`. */
  readonly root: string;
  /** How often `watch` looks at a watched capture's files. @default 20 */
  readonly watchIntervalMs?: number;
  /** Timers of `watch`. @default a clock whose timers keep the process alive */
  readonly clock?: Clock;
  /** How a capture's state is decided (init grace, time). @default readCaptureState's */
  readonly state?: CaptureStateOptions;
}

/**
 * The read side of a file root: resolve refs, list, read ranges, watch, remove.
 *
 * @category storage
 * @example
 * ```ts
 * import { createFileStore } from "@spool/sinks";
 * const store = createFileStore({ root: "/tmp/my-spools" });
 * for (const capture of await store.list()) {
 *   if (capture.condition !== "live") await store.remove(capture.captureId);
 * }
 * ```
 */
export function createFileStore(options: FileStoreOptions): CaptureStore {
  const { root } = options;
  const stateOptions = options.state ?? {};
  const dirOf = (captureId: string) => captureDir(root, captureId);
  const state = async (captureId: string) =>
    stored(readCaptureState(dirOf(captureId), stateOptions));
  const watcher = createStateWatch({
    read: state,
    intervalMs: options.watchIntervalMs ?? 20,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return {
    name: FILE_STORE,
    async resolve(ref) {
      const { captureId, stream } = resolveRef(root, ref);
      return { captureId, stream };
    },
    state,
    async list() {
      return listCaptureStatuses(root, stateOptions).map(stored);
    },
    async openStream(capture, stream) {
      return openFileStream(dirOf(capture.captureId), capture, stream);
    },
    async order(captureId) {
      return readOrder(dirOf(captureId));
    },
    watch: (captureId, watchOptions) => watcher.watch(captureId, watchOptions),
    cursors: {
      async get(captureId, stream, name) {
        return loadCursor(dirOf(captureId), stream, name);
      },
      async advance(captureId, stream, name, offset) {
        saveCursor(dirOf(captureId), stream, name, offset);
      },
    },
    completion: {
      async seen(captureId) {
        return completionSeen(dirOf(captureId));
      },
      async take(captureId) {
        return takeCompletion(dirOf(captureId));
      },
    },
    async reconcile(captureId) {
      const status = reconcileCapture(dirOf(captureId), stateOptions);
      return { ...stored(status), recovered: status.recovered };
    },
    async recover() {
      return recoverRoot(root, stateOptions);
    },
    async usage(captureId) {
      return usageOf(captureId, dirOf(captureId));
    },
    async remove(captureId) {
      const dir = dirOf(captureId);
      const status = readCaptureState(dir, stateOptions);
      if (status.condition === "live") {
        throw new SpoolError(
          "SPOOL_E_STATE",
          FILE_STORE,
          `${captureId} is still running; refusing to remove it`,
        );
      }
      // Only a directory of ours; rm does not follow links inside the tree, and the
      // directory itself was verified not to be one.
      const uid = process.getuid?.();
      if (uid !== undefined && lstatIfAny(dir)?.uid !== uid) {
        throw new SpoolError(
          "SPOOL_E_UNSAFE_PATH",
          FILE_STORE,
          `${captureId} is not ours; refusing to remove it`,
        );
      }
      fs.rmSync(dir, { recursive: true, force: true });
      reconcileRootQuota(root);
    },
  };
}

/** The contract's view of a capture directory's status (the directory stays behind it). */
function stored(status: CaptureStatus): StoredCapture {
  return {
    captureId: status.captureId,
    condition: status.condition,
    receipt: status.receipt,
    owner: status.owner,
    job: readJobRecord(status.dir),
  };
}

function openFileStream(dir: string, capture: StoredCapture, stream: StreamName): StoredStream {
  const committed = readableLength(capture.receipt, stream);
  const info = capture.receipt.streams[stream];
  const fd = committed > 0 ? openStreamFile(dir, stream, info.ref) : null;
  let indexFd: number | null | undefined;
  const index = () => {
    if (indexFd === undefined) indexFd = openNoFollow(path.join(dir, lineIndexName(stream)));
    return indexFd;
  };
  // Reads on the thread pool still use the descriptors: closing waits for them, so a
  // descriptor number is never reused under a read that was asked of it.
  let inFlight = 0;
  let closeWhenIdle = false;
  const closeAll = () => {
    for (const d of [fd, indexFd]) if (typeof d === "number") fs.closeSync(d);
  };
  const readIntoAsync = async (position: number, target: Uint8Array): Promise<number> => {
    if (fd === null) return 0;
    inFlight++;
    try {
      return await readFully(fd, target, position);
    } finally {
      if (--inFlight === 0 && closeWhenIdle) closeAll();
    }
  };
  return createBoundedStream(
    { captureId: capture.captureId, stream, committed, binary: info.representation === "binary" },
    {
      readAt(position, length) {
        // Unzeroed: only the bytes read are handed out.
        const buf = Buffer.allocUnsafe(length);
        if (fd === null) return buf.subarray(0, 0);
        let filled = 0;
        while (filled < length) {
          const n = fs.readSync(fd, buf, filled, length - filled, position + filled);
          if (n === 0) break;
          filled += n;
        }
        return buf.subarray(0, filled);
      },
      async readAtAsync(position, length) {
        const buf = Buffer.allocUnsafe(length);
        return buf.subarray(0, await readIntoAsync(position, buf));
      },
      readIntoAsync,
      seekLine: (line, bound) => seekLine(index(), line, bound),
      close() {
        if (inFlight > 0) closeWhenIdle = true;
        else closeAll();
      },
    },
  );
}

/** Fill `buf` from `fd` at `position` on the thread pool: how many bytes (fewer only at the end of the file). */
async function readFully(fd: number, buf: Uint8Array, position: number): Promise<number> {
  let filled = 0;
  while (filled < buf.length) {
    const n = await new Promise<number>((resolve, reject) =>
      fs.read(fd, buf, filled, buf.length - filled, position + filled, (error, bytes) =>
        error ? reject(error) : resolve(bytes),
      ),
    );
    if (n === 0) break;
    filled += n;
  }
  return filled;
}

/** The stream's file: the name the receipt gives, else `.live`, else the final names (a rename may have happened since). */
function openStreamFile(dir: string, stream: StreamName, ref: string | null): number {
  const names = [
    ...(ref ? [path.basename(ref)] : []),
    `${stream}.live`,
    `${stream}.txt`,
    `${stream}.bin`,
  ];
  for (const name of names) {
    const fd = openNoFollow(path.join(dir, name));
    if (fd !== null) return fd;
  }
  throw new SpoolError(
    "SPOOL_E_STORAGE",
    "read",
    `the ${stream} file of ${path.basename(dir)} is missing although bytes were committed`,
  );
}

/** The stream-switch journal (`order.jnl`, bounded), or null when the capture has none. */
function readOrder(dir: string): StreamOrder | null {
  const fd = openNoFollow(path.join(dir, ORDER_JOURNAL));
  if (fd === null) return null;
  try {
    const size = Math.min(fs.fstatSync(fd).size, ORDER_MAX_SWITCHES * 8);
    const bytes = Buffer.alloc(size);
    const n = size === 0 ? 0 : fs.readSync(fd, bytes, 0, size, 0);
    const switches = orderEntries(bytes.subarray(0, n));
    return { switches, full: switches.length >= ORDER_MAX_SWITCHES };
  } finally {
    fs.closeSync(fd);
  }
}

/** A stream file or index: a private regular file with one link (see `openPrivateFile`), or null. */
function openNoFollow(file: string): number | null {
  return openPrivateFile(file);
}

/** Bytes of every regular file in the capture directory (one level of subdirectories: `cursors/`). */
function usageOf(captureId: string, dir: string) {
  const streams: Record<StreamName, number> = { stdout: 0, stderr: 0 };
  let bytes = 0;
  for (const name of fs.readdirSync(dir)) {
    const st = lstatIfAny(path.join(dir, name));
    if (st?.isDirectory()) {
      for (const inner of fs.readdirSync(path.join(dir, name))) {
        const f = lstatIfAny(path.join(dir, name, inner));
        if (f?.isFile()) bytes += f.size;
      }
      continue;
    }
    if (!st?.isFile()) continue;
    bytes += st.size;
    const stream = streamOfFile(name);
    if (stream !== null) streams[stream] += st.size;
  }
  return { captureId, bytes, streams };
}
