/**
 * The file spool: each capture's streams go, through their bounded writer queues, to a
 * long-lived writer task in a piscina worker (fed through a MessagePort with a credit
 * window, not one task per chunk). No worker starts until a capture spills, so the
 * small-result path costs no thread and writes nothing. Requests to the writer and their
 * replies are matched by id (protocol.ts); `writer-link.ts` bounds every wait on it. The
 * spool keeps every byte it is offered: retention limits are `withQuotas` around it.
 *
 * @example
 * ```ts
 * import { createFileSpool } from "@spool/sinks";
 * const files = createFileSpool({});
 * // startCapture({ ..., spool: files.factory }); then, when done with all captures:
 * await files.destroy();
 * ```
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  type CaptureSpool,
  type Clock,
  type Receipt,
  type SpillInfo,
  type SpoolContext,
  SpoolError,
  type SpoolFactory,
  STREAM_NAMES,
  type StreamFinal,
  type StreamName,
  type StreamWriter,
  storageFailureOf,
  systemClock,
} from "@spool/core/runtime";
import type { Piscina } from "piscina";
import type { FaultSpec } from "../file/fs-layer.js";
import { makePrivateDirs } from "../file/root.js";
import { TOOL_OUTPUTS } from "../file/storage.js";
import { createOrderJournal, type OrderJournal } from "./order-journal.js";
import type {
  AckReply,
  FailedReply,
  FinishedReply,
  StreamErrorReply,
  SystemFailure,
} from "./protocol.js";
import { createWriterLink, type WriterLink, waitBounded } from "./writer-link.js";
import { createWriterQueue, type WriterQueue, type WriterQueueOptions } from "./writer-queue.js";
import { FILE_SPOOL_GATHER_MS } from "./writer-queue-options.js";

/**
 * The file spool's name, as errors and logs name it (`file-spool: …`).
 *
 * @category storage
 * @example
 * ```ts
 * import { isSpoolError } from "@spool/core";
 * import { FILE_SPOOL } from "@spool/sinks";
 * declare const error: unknown;
 * if (isSpoolError(error) && error.component === FILE_SPOOL) console.error("storage failed");
 * ```
 */
export const FILE_SPOOL = "file-spool";

/**
 * What {@link createFileSpool} takes. It sets no size limits: wrap its `factory` in
 * `withQuotas` for them.
 *
 * @category storage
 * @example
 * ```ts
 * import { createFileSpool, type FileSpoolOptions } from "@spool/sinks";
 * const options: FileSpoolOptions = { root: "/tmp/my-spools", missingRoot: "create", queue: { budgetBytes: 4 * 1024 * 1024 } };
 * const files = createFileSpool(options);
 * await files.destroy();
 * ```
 */
export interface FileSpoolOptions {
  /**
   * The root the captures will use, checked (or created) now, before any capture starts:
   * see {@link FileSpoolOptions.missingRoot}. Without it, each capture's root is looked at
   * only when it spills.
   */
  readonly root?: string;
  /**
   * A root that does not exist: `"refuse"` throws `SPOOL_E_STORAGE` (errno `ENOENT`, the
   * path) from `createFileSpool` when `root` is given, and otherwise makes a capture's
   * spill fail with that error; `"create"` makes it, and its missing parents, private
   * (0700) the same way. Neither ever follows a link below the root.
   * @default "refuse"
   */
  readonly missingRoot?: "refuse" | "create";
  /** The bounded writer queue of each stream (budget, stall timeout). @default WRITER_QUEUE_DEFAULTS */
  readonly queue?: WriterQueueOptions;
  /** Keep raw bytes: final files are `stdout.bin` / `stderr.bin`. @default false */
  readonly binary?: boolean;
  /** Writer threads shared by all captures of this spool. @default 1 */
  readonly threads?: number;
  /**
   * How long any request (opening, `live.json`, finishing, publishing, closing) waits for
   * a writer that answers nothing.
   * Past it the writer counts as stuck (say, in a kernel write that never returns): the
   * capture keeps what was acknowledged and is never again made to wait for it.
   * @default 10000
   */
  readonly finishTimeoutMs?: number;
  /** The writer task's module; tests inject writers that stall. @default the file writer */
  readonly worker?: URL;
  /** Time source of the writer queue's stall timeout and of `live.json`. @default systemClock */
  readonly clock?: Clock;
  /** Storage faults to inject in the writer (tests of fault handling). @default [] */
  readonly faults?: readonly FaultSpec[];
}

/**
 * A file spool ({@link createFileSpool}): give `factory` to captures, `destroy()` it after
 * the last one.
 *
 * @category storage
 * @example
 * ```ts
 * import { createFileSpool } from "@spool/sinks";
 * const files = createFileSpool({ root: "/tmp/my-spools", missingRoot: "create" });
 * try {
 *   // startCapture({ ..., spool: files.factory })
 * } finally {
 *   await files.destroy();
 * }
 * ```
 */
export interface FileSpool {
  /** What a capture's `spool` option runs (give the capture the spool itself). */
  readonly factory: SpoolFactory;
  /** The root given to `createFileSpool`, which its captures live under; undefined when none was (each capture then gives its own). */
  readonly root: string | undefined;
  /** Stop the writer threads (after every capture is done). */
  destroy(): Promise<void>;
}

const WORKER = new URL("../../dist/writer/file-writer.worker.js", import.meta.url);

/**
 * A spool of private files: give its `factory` to captures, `destroy()` it after the last.
 * With `root`, a missing root is refused (or created, `missingRoot: "create"`) here and now.
 * It sets no limits: wrap `factory` in {@link withQuotas} for them.
 *
 * @category storage
 * @example
 * ```ts
 * import { createFileSpool, resolveRoot } from "@spool/sinks";
 * const root = resolveRoot({ flag: "/tmp/my-spools", env: process.env });
 * const files = createFileSpool({ root });
 * // startCapture({ ..., root, spool: files.factory })
 * await files.destroy();
 * ```
 */
export function createFileSpool(options: FileSpoolOptions = {}): FileSpool {
  const clock = options.clock ?? systemClock;
  const missingRoot = options.missingRoot ?? "refuse";
  if (missingRoot !== "refuse" && missingRoot !== "create") {
    throw new SpoolError("SPOOL_E_OPTIONS", FILE_SPOOL, 'missingRoot must be "refuse" or "create"');
  }
  if (options.root !== undefined) prepareRoot(options.root, missingRoot, true);
  let pool: Piscina | null = null;
  // piscina is loaded on the first spill: the small-result path loads no worker code at all.
  const getPool = async () => {
    const { Piscina } = await import("piscina");
    pool ??= new Piscina({
      filename: (options.worker ?? WORKER).href,
      minThreads: 0,
      maxThreads: options.threads ?? 1,
      concurrentTasksPerWorker: 256,
      atomics: "disabled",
      idleTimeout: 1000,
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
    return pool;
  };
  return {
    root: options.root,
    factory: (context) => {
      // Never throws here (a child may already run): a root still missing fails the spill.
      if (missingRoot === "create") prepareRoot(context.root, missingRoot, false);
      return createCaptureFileSpool(context, options, getPool);
    },
    async destroy() {
      const p = pool;
      pool = null;
      if (!p) return;
      // A worker stuck in a syscall cannot be terminated: wait a bounded time, then let
      // the process exit without it.
      const threads = [...p.threads];
      const ended = await waitBounded(p.destroy(), options.finishTimeoutMs ?? 10_000, clock);
      if (ended === null) for (const thread of threads) thread.unref();
    },
  };
}

function createCaptureFileSpool(
  context: SpoolContext,
  options: FileSpoolOptions,
  getPool: () => Promise<Piscina>,
): CaptureSpool {
  const clock = options.clock ?? systemClock;
  const queue = { gatherMs: FILE_SPOOL_GATHER_MS, ...options.queue };
  const queues: Record<StreamName, WriterQueue> = {
    stdout: createWriterQueue(queue, clock),
    stderr: createWriterQueue(queue, clock),
  };
  const journal = createOrderJournal();
  const s: SpillState = {
    link: null,
    task: null,
    spillInfo: null,
    dir: null,
    closed: false,
    exitRecorded: false,
  };

  const spool: CaptureSpool = {
    streams: {
      stdout: journaled(queues.stdout, 0, journal),
      stderr: journaled(queues.stderr, 1, journal),
    },
    get spilled() {
      return s.spillInfo !== null;
    },
    spill() {
      s.spillInfo ??= spillToWriter(s, queues, context, options, getPool);
      return s.spillInfo;
    },
    async publishLive(receipt: Receipt) {
      if (!s.dir || !s.link || s.closed) return false;
      recordExitOnce(s, receipt);
      const order = journal.take() ?? undefined;
      const json = `${JSON.stringify(receipt)}\n`;
      const answer = await s.link.request({ op: "live", json, ...(order ? { order } : {}) });
      return answer?.op === "live-replaced" && answer.ok;
    },
    async finish() {
      if (!s.spillInfo) return { stdout: unstored(), stderr: unstored() };
      await s.spillInfo;
      return finishFiles(s.link!, queues, context.captureId, s.dir!, {
        ext: options.binary ? "bin" : "txt",
        journal,
      });
    },
    async publishReceipt(receipt) {
      if (!s.dir || !s.link) return;
      if (s.link.stuck) {
        throw new SpoolError("SPOOL_E_STORAGE", FILE_SPOOL, "the writer is stuck; no receipt.json");
      }
      recordExitOnce(s, receipt, true);
      const json = `${JSON.stringify(receipt, null, 2)}\n`;
      const answer = await s.link.request({ op: "receipt", json });
      if (answer?.op === "failed") {
        throw failedError(
          answer,
          "receipt.json was not published",
          path.join(s.dir, "receipt.json"),
        );
      }
      if (answer?.op !== "published") {
        throw new SpoolError("SPOOL_E_STORAGE", FILE_SPOOL, "receipt.json was not published");
      }
    },
    async close() {
      if (s.closed) return;
      s.link?.post({ op: "close" });
      s.closed = true;
      if (s.task && s.link) await s.link.bounded(s.task.catch(() => undefined));
      s.link?.close();
    },
  };

  return spool;
}

/**
 * A stream's queue that notes in `journal` where each batch it takes starts, so the
 * order of bytes across the two streams is kept (`order-journal.ts`).
 */
function journaled(queue: WriterQueue, stream: 0 | 1, journal: OrderJournal): StreamWriter {
  let offered = 0;
  return {
    offer(batch) {
      const result = queue.offer(batch);
      if (result !== "stopped") {
        let bytes = 0;
        for (const chunk of batch) bytes += chunk.byteLength;
        journal.note(stream, offered, bytes);
        offered += bytes;
      }
      return result;
    },
    ready: () => queue.ready(),
    flushed: () => queue.flushed(),
    stop: (reason, error) => queue.stop(reason, error),
    watch: (listener) => queue.watch(listener),
    get state() {
      return queue.state;
    },
  };
}

/** What one capture's spool has of its writer: each is set as the spill gets that far. */
interface SpillState {
  link: WriterLink | null;
  task: Promise<unknown> | null;
  spillInfo: Promise<SpillInfo> | null;
  dir: string | null;
  closed: boolean;
  /** The child's fate has been sent to the writer's `exit.json`. */
  exitRecorded: boolean;
}

/**
 * Once the child's fate is in a receipt, have the writer record it in its preallocated
 * `exit.json` (final-records.ts), so it outlives a receipt that cannot be published or
 * an owner that dies first. `final`: record the final receipt's process block again.
 */
function recordExitOnce(s: SpillState, receipt: Receipt, final = false): void {
  const proc = receipt.process;
  if (!s.link || !proc || proc.state === "running" || (s.exitRecorded && !final)) return;
  s.exitRecorded = true;
  s.link.post({ op: "exit", process: proc, reasons: final ? receipt.capture.reasons : null });
}

/** Start a writer task on the pool, open the capture there and connect the queues to it. */
async function spillToWriter(
  s: SpillState,
  queues: Record<StreamName, WriterQueue>,
  context: SpoolContext,
  options: FileSpoolOptions,
  getPool: () => Promise<Piscina>,
): Promise<SpillInfo> {
  const { captureId } = context;
  // The global MessageChannel (worker_threads' own class): importing node:worker_threads
  // would load the Worker machinery at start-up, which piscina loads on the first spill.
  const channel = new MessageChannel();
  const writer = createWriterLink(channel.port1, {
    timeoutMs: options.finishTimeoutMs ?? 10_000,
    onStream: (reply) => onStreamReply(queues, reply),
    clock: options.clock ?? systemClock,
  });
  s.link = writer;
  const pool = await getPool();
  s.task = pool.run({ port: channel.port2 }, { transferList: [channel.port2] });
  s.task.catch(() => writer.gone("EWORKER", "writer task failed"));
  const dir = await openOnWriter(writer, context, options);
  s.dir = dir;
  connectQueues(queues, writer, () => s.closed);
  return {
    dir,
    refs: { stdout: refOf(captureId, "stdout.live"), stderr: refOf(captureId, "stderr.live") },
    paths: { stdout: path.join(dir, "stdout.live"), stderr: path.join(dir, "stderr.live") },
  };
}

/** Flush both queues, then have the writer rename the live files to their final names. */
async function finishFiles(
  link: WriterLink,
  queues: Record<StreamName, WriterQueue>,
  captureId: string,
  dir: string,
  { ext, journal }: { ext: "bin" | "txt"; journal: OrderJournal },
) {
  // Bounded: each queue gives up after its stall budget without progress.
  await Promise.all(STREAM_NAMES.map((n) => queues[n].flushed()));
  const order = journal.take() ?? undefined;
  const answer = await link.request({
    op: "finish",
    finalNames: [`stdout.${ext}`, `stderr.${ext}`],
    ...(order ? { order } : {}),
  });
  if (answer?.op !== "finished") return keptAsLive(queues, captureId, dir);
  return finalsOf(answer, queues, captureId, dir);
}

/** Ask the writer to open the capture; its directory, or a storage error. */
async function openOnWriter(
  writer: WriterLink,
  context: SpoolContext,
  options: FileSpoolOptions,
): Promise<string> {
  const answer = await writer.request({
    op: "open",
    root: context.root,
    captureId: context.captureId,
    files: ["stdout.live", "stderr.live"],
    startedAt: context.startedAt,
    faults: [...(options.faults ?? [])],
  });
  if (answer?.op === "opened") return answer.dir;
  if (answer?.op === "failed") {
    const where = path.join(context.root, TOOL_OUTPUTS, context.captureId);
    throw failedError(answer, "cannot open the spool", where);
  }
  const why = answer === null ? "the writer did not answer" : `unexpected reply ${answer.op}`;
  throw new SpoolError("SPOOL_E_STORAGE", FILE_SPOOL, `cannot open the spool (${why})`);
}

/** Let each queue's held and later bytes flow to the writer (until the spool closes). */
function connectQueues(
  queues: Record<StreamName, WriterQueue>,
  writer: WriterLink,
  closed: () => boolean,
): void {
  STREAM_NAMES.forEach((name, i) => {
    queues[name].connect({
      send: (data) => {
        if (closed()) return;
        writer.post({ op: "write", stream: i as 0 | 1, data }, [data.buffer as ArrayBuffer]);
      },
    });
  });
}

/** A write's reply: the credit (and the message buffer) back to its queue, or a stop. */
function onStreamReply(
  queues: Record<StreamName, WriterQueue>,
  reply: AckReply | StreamErrorReply,
) {
  const name = STREAM_NAMES[reply.stream];
  const q = queues[name];
  if (reply.op === "ack") q.recycle(reply.buffer);
  q.ack(reply.committed);
  if (reply.op === "stream-error") q.stop(reply.reason, streamError(name, reply.failure));
}

/** A writer request that failed, as the error the caller meets (its path redacted). */
function failedError(answer: FailedReply, message: string, where: string): SpoolError {
  return new SpoolError("SPOOL_E_STORAGE", FILE_SPOOL, message, {
    storage: storageFailureOf(
      { code: answer.code, syscall: answer.syscall, path: answer.path },
      answer.stage,
      where,
    ),
  });
}

/** Why a stream stopped keeping bytes (or its index): errno, system call and (redacted) path. */
function streamError(name: StreamName, failure: SystemFailure, what = "cannot store"): SpoolError {
  return new SpoolError("SPOOL_E_STORAGE", FILE_SPOOL, `${what} ${name}`, {
    storage: storageFailureOf(failure, failure.syscall, failure.path ?? undefined),
  });
}

/** What the writer reports once each stream is closed and renamed. */
function finalsOf(
  answer: FinishedReply,
  queues: Record<StreamName, WriterQueue>,
  captureId: string,
  dir: string,
): Record<StreamName, StreamFinal> {
  const result = {} as Record<StreamName, StreamFinal>;
  STREAM_NAMES.forEach((name, i) => {
    const s = answer.streams[i]!;
    const file = s.file ? path.basename(s.file) : `${name}.live`;
    // The writers carry commits and stop reasons to the capture (their one path).
    queues[name].ack(s.committed);
    if (s.error) queues[name].stop(s.error, s.failure ? streamError(name, s.failure) : undefined);
    result[name] = {
      committed: s.committed,
      sha256: s.sha256,
      lines: s.lines,
      endsWithNewline: s.endsWithNewline,
      ref: refOf(captureId, file),
      path: path.join(dir, file),
      stopped: s.error ?? queues[name].state.stopped,
      ...(s.indexFailure && !s.failure
        ? { indexError: streamError(name, s.indexFailure, "cannot index the lines of") }
        : {}),
    };
  });
  return result;
}

/** The writer is stuck (or gone): keep what it acknowledged, as `.live`. */
function keptAsLive(
  queues: Record<StreamName, WriterQueue>,
  captureId: string,
  dir: string,
): Record<StreamName, StreamFinal> {
  const result = {} as Record<StreamName, StreamFinal>;
  for (const name of STREAM_NAMES) {
    queues[name].stop("writer-saturated");
    result[name] = {
      committed: queues[name].state.committed,
      sha256: null,
      ref: refOf(captureId, `${name}.live`),
      path: path.join(dir, `${name}.live`),
      stopped: "writer-saturated",
    };
  }
  return result;
}

function unstored(): StreamFinal {
  return { committed: 0, sha256: null, ref: null, path: null, stopped: null };
}

/**
 * A missing root refused (`SPOOL_E_STORAGE` with errno, operation and path) or created
 * private; an existing one is left to the writer's checks.
 */
function prepareRoot(root: string, missing: "refuse" | "create", loud: boolean): void {
  try {
    fs.lstatSync(root);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") return;
    if (missing === "refuse") {
      if (!loud) return;
      throw new SpoolError("SPOOL_E_STORAGE", FILE_SPOOL, "the root does not exist", {
        storage: storageFailureOf(error, "lstat", root),
        cause: error,
      });
    }
  }
  try {
    makePrivateDirs(root);
  } catch (error) {
    if (!loud) return;
    throw new SpoolError("SPOOL_E_STORAGE", FILE_SPOOL, "cannot create the root", {
      storage: storageFailureOf(error, "mkdir", root),
      cause: error,
    });
  }
}

/**
 * The root-relative ref of a capture's file (`tool-outputs/<captureId>/<file>`), as
 * receipts and `spool read` use it.
 *
 * @category storage
 * @example
 * ```ts
 * import { refOf } from "@spool/sinks";
 * refOf("AAAAAAAAAAAAAAAAAAAAAAAA", "stdout.txt"); // "tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/stdout.txt"
 * ```
 */
export function refOf(captureId: string, file: string): string {
  return `${TOOL_OUTPUTS}/${captureId}/${file}`;
}
