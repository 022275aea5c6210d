/**
 * The {@link CaptureStore} of the memory spool: captures written through
 * `createMemorySpool().factory` read back through `createMemorySpool().store`, by the
 * same rules as the file store. A capture is stored from its spill on (the small-result
 * path stores nothing); it is `live` until its spool closes, `final` once its receipt is
 * published, and `crashed` when its spool closed without publishing one (the memory
 * analogue of an owner that died). Its refs are the file layout's
 * (`tool-outputs/<id>/stdout.live`, then `.txt`), and it keeps the same sparse line index.
 * `watch` is told by the writer (every commit, live and final receipt), never polls.
 *
 * @example
 * ```ts
 * import { createMemorySpool } from "@spool/sinks";
 * const memory = createMemorySpool();
 * // startCapture({ ..., spool: memory.factory }); then:
 * const states = await memory.store.list();
 * ```
 */
import {
  CALL_ID_PATTERN,
  CAPTURE_ID_PATTERN,
  type CaptureStore,
  CURSOR_NAME_PATTERN,
  producerOf,
  type Receipt,
  type RecoveryReport,
  SpoolError,
  STREAM_NAMES,
  type StoredCapture,
  type StreamName,
} from "@spool/core/runtime";
import { TOOL_OUTPUTS } from "../file/storage.js";
import {
  crashedFrom,
  createDataScan,
  type StoredData,
  skeletonReceipt,
} from "../recovery/crash-receipt.js";
import { createBoundedStream, readableLength } from "../store/bounded-stream.js";
import { LINE_INDEX_EVERY, seekLineEntries } from "../store/line-index.js";
import { parseRef, streamOfFile } from "../store/refs.js";
import { createStateWatch } from "../store/state-watch.js";

export const MEMORY_STORE = "memory-store";

/** One stream of a memory capture: its committed chunks and line index. */
export interface MemoryStreamData {
  readonly chunks: Buffer[];
  /** `ends[i]`: the offset just past `chunks[i]`. */
  readonly ends: number[];
  /** Offsets of every `LINE_INDEX_EVERY`th line, as the file writer's `stdout.idx` holds them. */
  readonly lineIndex: number[];
}

/** What the memory spool records of a capture, shared with its store. */
export interface MemoryCapture {
  readonly captureId: string;
  readonly root: string;
  readonly startedAt: string;
  readonly streams: Record<StreamName, MemoryStreamData>;
  live: Receipt | null;
  final: Receipt | null;
  closed: boolean;
  completionTaken: boolean;
  readonly cursors: Map<string, number>;
}

/** The memory store over the captures a memory spool records. */
export interface MemoryStoreHandle {
  readonly store: CaptureStore;
  /** The writer changed `captureId` (a commit, a receipt, a close): tell its watchers. */
  changed(captureId: string): void;
}

export function createMemoryStore(captures: Map<string, MemoryCapture>): MemoryStoreHandle {
  const find = (captureId: string): MemoryCapture => {
    const found = CAPTURE_ID_PATTERN.test(captureId) ? captures.get(captureId) : undefined;
    if (found === undefined) throw notFound(`no ${TOOL_OUTPUTS}/${captureId}`);
    return found;
  };
  const state = async (captureId: string) => stateOf(find(captureId));
  const watcher = createStateWatch({ read: state, intervalMs: null });
  const store: CaptureStore = {
    name: MEMORY_STORE,
    resolve: async (ref) => resolveIn(captures, ref),
    state,
    async list() {
      const all = [...captures.values()].map(stateOf);
      return all.sort((a, b) =>
        compare(producerOf(a.receipt).startedAt, producerOf(b.receipt).startedAt),
      );
    },
    async openStream(capture, stream) {
      return openMemoryStream(find(capture.captureId), capture, stream);
    },
    watch: (captureId, options) => watcher.watch(captureId, options),
    cursors: {
      async get(captureId, stream, name) {
        return find(captureId).cursors.get(cursorKey(stream, name)) ?? 0;
      },
      async advance(captureId, stream, name, offset) {
        find(captureId).cursors.set(cursorKey(stream, name), offset);
      },
    },
    completion: {
      async seen(captureId) {
        return find(captureId).completionTaken;
      },
      async take(captureId) {
        const capture = find(captureId);
        if (capture.completionTaken) return false;
        capture.completionTaken = true;
        return true;
      },
    },
    async reconcile(captureId) {
      const capture = find(captureId);
      const before = stateOf(capture);
      if (before.condition !== "crashed") return { ...before, recovered: false };
      capture.final = before.receipt;
      watcher.notify(captureId);
      return { ...before, condition: "final", recovered: true };
    },
    async recover() {
      const report: RecoveryReport = { recovered: [], live: [], final: [], errors: [] };
      for (const id of captures.keys()) {
        const after = await store.reconcile(id);
        if (after.recovered) report.recovered.push(id);
        else (after.condition === "live" ? report.live : report.final).push(id);
      }
      return report;
    },
    async usage(captureId) {
      return usageOf(find(captureId));
    },
    async remove(captureId) {
      const capture = find(captureId);
      if (stateOf(capture).condition === "live") {
        throw new SpoolError(
          "SPOOL_E_STATE",
          MEMORY_STORE,
          `${captureId} is still running; refusing to remove it`,
        );
      }
      captures.delete(captureId);
    },
  };
  return { store, changed: (captureId) => watcher.notify(captureId) };
}

function stateOf(capture: MemoryCapture): StoredCapture {
  const base = { captureId: capture.captureId, owner: null, job: null };
  if (capture.final) return { ...base, condition: "final", receipt: capture.final };
  const live = capture.live ?? skeletonReceipt(capture.captureId, capture.root, capture.startedAt);
  if (!capture.closed) return { ...base, condition: "live", receipt: live };
  const stored = {} as Record<StreamName, StoredData | null>;
  for (const name of STREAM_NAMES) stored[name] = scanned(capture, name);
  return { ...base, condition: "crashed", receipt: crashedFrom(live, stored) };
}

function scanned(capture: MemoryCapture, stream: StreamName): StoredData {
  const scan = createDataScan();
  for (const chunk of capture.streams[stream].chunks) scan.update(chunk);
  const ref = `${TOOL_OUTPUTS}/${capture.captureId}/${stream}.live`;
  return { ...scan.result(), binary: false, ref, path: null };
}

function openMemoryStream(capture: MemoryCapture, state: StoredCapture, stream: StreamName) {
  const data = capture.streams[stream];
  const committed = readableLength(state.receipt, stream);
  const binary = state.receipt.streams[stream].representation === "binary";
  return createBoundedStream(
    { captureId: capture.captureId, stream, committed, binary },
    {
      readAt: (position, length) => slice(data, position, length),
      seekLine: (line, bound) =>
        seekLineEntries(
          (i) => data.lineIndex[i] ?? null,
          data.lineIndex.length,
          line,
          bound,
          LINE_INDEX_EVERY,
        ),
      close() {},
    },
  );
}

/** Bytes `[position, position + length)` of the stored chunks, copied. */
function slice(data: MemoryStreamData, position: number, length: number): Buffer {
  const parts: Buffer[] = [];
  // The first chunk that ends past `position`.
  let lo = 0;
  let hi = data.ends.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (data.ends[mid]! <= position) lo = mid + 1;
    else hi = mid;
  }
  let at = position;
  const stop = position + length;
  for (let i = lo; i < data.chunks.length && at < stop; i++) {
    const chunk = data.chunks[i]!;
    const begins = data.ends[i]! - chunk.length;
    const part = chunk.subarray(at - begins, Math.min(chunk.length, stop - begins));
    parts.push(part);
    at += part.length;
  }
  return Buffer.concat(parts);
}

function resolveIn(captures: Map<string, MemoryCapture>, ref: string) {
  const parsed = parseRef(ref);
  if (parsed.kind === "path") {
    if (!captures.has(parsed.captureId)) throw notFound(`no ${TOOL_OUTPUTS}/${parsed.captureId}`);
    const stream = parsed.file === null ? null : streamOfFile(parsed.file);
    if (parsed.file !== null && stream === null && !KNOWN_FILES.has(parsed.file)) {
      throw notFound(`no ${TOOL_OUTPUTS}/${parsed.captureId}/${parsed.file}`);
    }
    return { captureId: parsed.captureId, stream };
  }
  const name = parsed.name;
  if (CAPTURE_ID_PATTERN.test(name) && captures.has(name)) return { captureId: name, stream: null };
  if (!CALL_ID_PATTERN.test(name)) {
    throw new SpoolError(
      "SPOOL_E_REF_INVALID",
      MEMORY_STORE,
      `invalid REF: "${name.slice(0, 60)}" is neither a capture id, a call id nor a ref`,
    );
  }
  let best: { id: string; at: string } | null = null;
  for (const capture of captures.values()) {
    const receipt = capture.final ?? capture.live;
    if (receipt?.callId !== name) continue;
    const at = producerOf(receipt).startedAt;
    if (best === null || at > best.at) best = { id: capture.captureId, at };
  }
  if (best === null) throw notFound(`no capture with id or call id "${name}"`);
  return { captureId: best.id, stream: null };
}

/** Files of a capture that are not streams, as the file layout names them. */
const KNOWN_FILES = new Set(["receipt.json", "live.json"]);

function usageOf(capture: MemoryCapture) {
  const streams: Record<StreamName, number> = { stdout: 0, stderr: 0 };
  for (const name of STREAM_NAMES) streams[name] = capture.streams[name].ends.at(-1) ?? 0;
  const receipts = [capture.live, capture.final].map((r) =>
    r === null ? 0 : Buffer.byteLength(JSON.stringify(r)),
  );
  const cursors = capture.cursors.size * 8;
  const bytes = streams.stdout + streams.stderr + receipts[0]! + receipts[1]! + cursors;
  return { captureId: capture.captureId, bytes, streams };
}

function cursorKey(stream: StreamName, name: string): string {
  if (!CURSOR_NAME_PATTERN.test(name)) {
    throw new SpoolError(
      "SPOOL_E_REF_INVALID",
      MEMORY_STORE,
      "a cursor name is 1-64 characters of A-Z a-z 0-9 . _ - (not starting with .)",
    );
  }
  return `${stream}.${name}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function notFound(what: string): SpoolError {
  return new SpoolError("SPOOL_E_REF_NOT_FOUND", MEMORY_STORE, what);
}
