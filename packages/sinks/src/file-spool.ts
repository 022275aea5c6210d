/**
 * The file spool: each capture's streams go, through their bounded writer queues, to a
 * long-lived writer task in a piscina worker (fed through a MessagePort with a credit
 * window, not one task per chunk). No worker starts until a capture spills, so the
 * small-result path costs no thread and writes nothing.
 *
 * @example
 * ```ts
 * import { createFileSpool } from "@spool/sinks";
 * const files = createFileSpool({});
 * // startCapture({ ..., spool: files.factory }); then, when done with all captures:
 * await files.destroy();
 * ```
 */
import * as path from "node:path";
import { MessageChannel, type MessagePort } from "node:worker_threads";
import {
  type CaptureReason,
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
  systemClock,
} from "@spool/core/runtime";
import type { Piscina } from "piscina";
import type { FaultSpec } from "./fs-layer.js";
import type { FromWriter, ToWriter } from "./protocol.js";
import { DEFAULT_MAX_BYTES, DEFAULT_ROOT_QUOTA } from "./quota.js";
import { TOOL_OUTPUTS } from "./storage.js";
import { createWriterQueue, type WriterQueue, type WriterQueueOptions } from "./writer-queue.js";

export const FILE_SPOOL = "file-spool";

export interface FileSpoolOptions {
  /** The bounded writer queue of each stream. */
  readonly queue?: WriterQueueOptions;
  /** Keep raw bytes: final files are `stdout.bin` / `stderr.bin`. @default false */
  readonly binary?: boolean;
  /** Writer threads shared by all captures of this spool. @default 1 */
  readonly threads?: number;
  /**
   * How long opening, finishing or publishing waits for a writer that answers nothing.
   * Past it the writer counts as stuck (say, in a kernel write that never returns): the
   * capture keeps what was acknowledged and is never again made to wait for it.
   * @default 10000
   */
  readonly finishTimeoutMs?: number;
  /** The writer task's module; tests inject writers that stall. @default the file writer */
  readonly worker?: URL;
  readonly clock?: Clock;
  /** Bytes one capture may keep over both streams (`--max-bytes`); null for no ceiling. @default 32 MiB */
  readonly maxBytes?: number | null;
  /** The root's shared allowance (`--root-quota`); null for none. @default 128 MiB */
  readonly rootQuota?: number | null;
  /** Storage faults to inject in the writer (tests of fault handling). @default [] */
  readonly faults?: readonly FaultSpec[];
}

export interface FileSpool {
  readonly factory: SpoolFactory;
  /** Stop the writer threads (after every capture is done). */
  destroy(): Promise<void>;
}

const WORKER = new URL("../dist/file-writer.worker.js", import.meta.url);

export function createFileSpool(options: FileSpoolOptions): FileSpool {
  const clock = options.clock ?? systemClock;
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
    factory: (context) => createCaptureFileSpool(context, options, getPool),
    async destroy() {
      const p = pool;
      pool = null;
      if (!p) return;
      // A worker stuck in a syscall cannot be terminated: wait a bounded time, then let
      // the process exit without it.
      const threads = [...p.threads];
      const ended = await withTimeout(p.destroy(), options.finishTimeoutMs ?? 10_000, clock);
      if (ended === null) for (const thread of threads) thread.unref();
    },
  };
}

function createCaptureFileSpool(
  context: SpoolContext,
  options: FileSpoolOptions,
  getPool: () => Promise<Piscina>,
): CaptureSpool {
  const { root, captureId } = context;
  const clock = options.clock ?? systemClock;
  const queues: Record<StreamName, WriterQueue> = {
    stdout: createWriterQueue(options.queue ?? {}, clock),
    stderr: createWriterQueue(options.queue ?? {}, clock),
  };
  const ext = options.binary ? "bin" : "txt";
  let port: MessagePort | null = null;
  let task: Promise<unknown> | null = null;
  let spillInfo: Promise<SpillInfo> | null = null;
  let dir: string | null = null;
  let closed = false;
  // Set once the writer failed to answer within finishTimeoutMs: never wait on it again.
  let stuck = false;
  const timeoutMs = options.finishTimeoutMs ?? 10_000;
  const waiting = new Map<string, (message: FromWriter) => void>();

  const post = (message: ToWriter, transfer?: ArrayBuffer[]) => {
    if (port && !closed) port.postMessage(message, transfer ?? []);
  };
  const expect = (op: FromWriter["op"]) =>
    new Promise<FromWriter>((resolve) => {
      waiting.set(op, resolve);
    });
  const onMessage = (message: FromWriter) => {
    switch (message.op) {
      case "ack": {
        const q = queues[STREAM_NAMES[message.stream]];
        q.recycle(message.buffer);
        q.ack(message.committed);
        return;
      }
      case "stream-error": {
        const q = queues[STREAM_NAMES[message.stream]];
        q.ack(message.committed);
        q.stop(message.reason);
        return;
      }
      case "failed":
        waiting.get("opened")?.(message);
        waiting.get("published")?.(message);
        waiting.get("finished")?.(message);
        return;
      default:
        waiting.get(message.op)?.(message);
    }
  };

  const spool: CaptureSpool = {
    streams: queues,
    get spilled() {
      return spillInfo !== null;
    },
    spill() {
      spillInfo ??= (async () => {
        const channel = new MessageChannel();
        port = channel.port1;
        port.on("message", onMessage);
        const pool = await getPool();
        task = pool.run({ port: channel.port2 }, { transferList: [channel.port2] });
        task.catch(() => {
          waiting.get("opened")?.({
            op: "failed",
            stage: "worker",
            code: "EWORKER",
            message: "writer task failed",
          });
        });
        const opened = expect("opened");
        post({
          op: "open",
          root,
          captureId,
          files: ["stdout.live", "stderr.live"],
          startedAt: context.startedAt,
          maxBytes: options.maxBytes === undefined ? DEFAULT_MAX_BYTES : options.maxBytes,
          rootQuota: options.rootQuota === undefined ? DEFAULT_ROOT_QUOTA : options.rootQuota,
          faults: [...(options.faults ?? [])],
        });
        const answer = await withTimeout(opened, timeoutMs, clock);
        if (answer?.op !== "opened") {
          if (answer === null) stuck = true;
          const why = answer === null ? "no answer" : answer.op === "failed" ? answer.code : "?";
          throw new SpoolError("SPOOL_E_STORAGE", FILE_SPOOL, `cannot open the spool (${why})`);
        }
        dir = answer.dir;
        STREAM_NAMES.forEach((name, i) => {
          queues[name].connect({
            send: (data) =>
              post({ op: "write", stream: i as 0 | 1, data }, [data.buffer as ArrayBuffer]),
          });
        });
        return {
          dir,
          refs: {
            stdout: refOf(captureId, "stdout.live"),
            stderr: refOf(captureId, "stderr.live"),
          },
          paths: { stdout: path.join(dir, "stdout.live"), stderr: path.join(dir, "stderr.live") },
        };
      })();
      return spillInfo;
    },
    publishLive(receipt: Receipt) {
      if (dir) post({ op: "live", json: `${JSON.stringify(receipt)}\n` });
    },
    async finish() {
      const none = (stopped: CaptureReason | null): StreamFinal => ({
        committed: 0,
        sha256: null,
        ref: null,
        path: null,
        stopped,
      });
      if (!spillInfo) return { stdout: none(null), stderr: none(null) };
      await spillInfo;
      // Bounded: each queue gives up after its stall budget without progress.
      await Promise.all(STREAM_NAMES.map((n) => queues[n].flushed()));
      const finished = expect("finished");
      post({ op: "finish", finalNames: [`stdout.${ext}`, `stderr.${ext}`] });
      const answer = stuck ? null : await withTimeout(finished, timeoutMs, clock);
      if (answer?.op !== "finished") {
        stuck = true;
        // The writer is stuck (or gone): keep what it acknowledged, as `.live`.
        const result = {} as Record<StreamName, StreamFinal>;
        for (const name of STREAM_NAMES) {
          queues[name].stop("writer-saturated");
          result[name] = {
            committed: queues[name].state.committed,
            sha256: null,
            ref: refOf(captureId, `${name}.live`),
            path: path.join(dir!, `${name}.live`),
            stopped: "writer-saturated",
          };
        }
        return result;
      }
      const result = {} as Record<StreamName, StreamFinal>;
      STREAM_NAMES.forEach((name, i) => {
        const s = answer.streams[i]!;
        const file = s.file ? path.basename(s.file) : `${name}.live`;
        // The writers carry commits and stop reasons to the capture (their one path).
        queues[name].ack(s.committed);
        if (s.error) queues[name].stop(s.error);
        result[name] = {
          committed: s.committed,
          sha256: s.sha256,
          ref: refOf(captureId, file),
          path: path.join(dir!, file),
          stopped: s.error ?? queues[name].state.stopped,
        };
      });
      return result;
    },
    async publishReceipt(receipt) {
      if (!dir) return;
      if (stuck) {
        throw new SpoolError("SPOOL_E_STORAGE", FILE_SPOOL, "the writer is stuck; no receipt.json");
      }
      const published = expect("published");
      post({ op: "receipt", json: `${JSON.stringify(receipt, null, 2)}\n` });
      const answer = await withTimeout(published, timeoutMs, clock);
      if (answer?.op !== "published") {
        stuck = true;
        throw new SpoolError("SPOOL_E_STORAGE", FILE_SPOOL, "receipt.json was not published");
      }
    },
    async close() {
      if (closed) return;
      post({ op: "close" });
      closed = true;
      if (task && !stuck) {
        const ended = await withTimeout(
          task.catch(() => undefined),
          timeoutMs,
          clock,
        );
        if (ended === null) stuck = true;
      }
      port?.close();
    },
  };
  return spool;
}

export function refOf(captureId: string, file: string): string {
  return `${TOOL_OUTPUTS}/${captureId}/${file}`;
}

function withTimeout<T>(promise: Promise<T>, ms: number, clock: Clock): Promise<T | null> {
  return new Promise<T | null>((resolve) => {
    const cancel = clock.setTimeout(() => resolve(null), ms);
    promise.then(
      (value) => {
        cancel();
        resolve(value);
      },
      () => {
        cancel();
        resolve(null);
      },
    );
  });
}
