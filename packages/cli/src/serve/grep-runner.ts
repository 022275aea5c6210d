/**
 * Grep for the server, bounded in every dimension a request controls: the pattern is
 * `spool grep`'s (`grep-pattern.ts`: RE2 syntax, linear time; lookaround and
 * backreferences refused with the CLI's message), the scan runs in a worker thread
 * (`grep-worker.ts`) that is terminated at `timeMs` (a long stream takes time in
 * proportion to its length), results stop at `max`, at most `concurrency` greps run at
 * once (others are refused `busy`, never queued without bound), and the bytes go to the
 * worker one chunk at a time, each acknowledged, so memory stays at a chunk or two
 * whatever the stream's length. A binary stream is matched byte for byte.
 *
 * @example
 * ```ts
 * import { createGrepRunner } from "./grep-runner.js";
 * declare const stream: import("@spool/core").StoredStream;
 * const grep = createGrepRunner({ timeMs: 2000, concurrency: 2 });
 * const result = await grep.run(stream, { pattern: "error", ignoreCase: true, max: 100, onlyMatching: false, columns: 2048 });
 * console.log(result.matches.length, result.cut); // cut: null | "max" | "time"
 * ```
 */
import { Worker } from "node:worker_threads";
import { type Clock, SpoolError, type StoredStream, systemClock } from "@spool/core";
import { compileGrepPattern } from "../grep-pattern.js";
import type { GrepMatch } from "../grep-scan.js";
import type { GrepJob, GrepReply, GrepRequest, WorkerJob } from "./grep-protocol.js";

const WORKER = new URL("../../dist/serve/grep-worker.js", import.meta.url);

export interface GrepRunnerOptions {
  /** Longest a grep may take before its worker is stopped. @default 2000 */
  readonly timeMs?: number;
  /** Greps at once; more are refused (`SPOOL_E_STATE`, busy). @default 2 */
  readonly concurrency?: number;
  readonly clock?: Clock;
  /** The compiled worker (tests of a build elsewhere). @default dist/serve/grep-worker.js */
  readonly worker?: URL;
}

export interface GrepResult {
  readonly matches: GrepMatch[];
  /** Why the results stop before the end of the stream: `max` results, or out of `time`. */
  readonly cut: "max" | "time" | null;
  /** Bytes of the stream the scan was given (all of them unless cut). */
  readonly scanned: number;
}

export interface GrepRunner {
  /** Throws `SPOOL_E_USAGE` for a pattern `spool grep` refuses, `SPOOL_E_STATE` when busy. */
  run(stream: StoredStream, job: GrepJob): Promise<GrepResult>;
}

export function createGrepRunner(options: GrepRunnerOptions = {}): GrepRunner {
  const timeMs = options.timeMs ?? 2000;
  const concurrency = options.concurrency ?? 2;
  const clock = options.clock ?? systemClock;
  let running = 0;
  return {
    async run(stream, job) {
      // Refused here, as `spool grep` refuses it (the same compiler, the same message).
      compileGrepPattern(job.pattern, job.ignoreCase, { bytes: stream.binary });
      if (running >= concurrency) {
        throw new SpoolError("SPOOL_E_STATE", "serve-grep", "busy: too many greps at once");
      }
      running++;
      try {
        const work = { ...job, binary: stream.binary };
        return await scanInWorker(stream, work, options.worker ?? WORKER, timeMs, clock);
      } finally {
        running--;
      }
    },
  };
}

async function scanInWorker(
  stream: StoredStream,
  job: WorkerJob,
  file: URL,
  timeMs: number,
  clock: Clock,
): Promise<GrepResult> {
  const worker = new Worker(file, {
    workerData: job,
    resourceLimits: { maxOldGenerationSizeMb: 64 },
  });
  const matches: GrepMatch[] = [];
  let scanned = 0;
  let timedOut = false;
  let wake: ((reply: GrepReply | null) => void) | null = null;
  const settle = (reply: GrepReply | null) => {
    const w = wake;
    wake = null;
    w?.(reply);
  };
  worker.on("message", (reply: GrepReply) => settle(reply));
  worker.on("error", () => settle(null));
  worker.on("exit", () => settle(null));
  const cancel = clock.setTimeout(() => {
    timedOut = true;
    void worker.terminate();
    settle(null);
  }, timeMs);
  const ask = (request: GrepRequest, transfer: ArrayBuffer[]) =>
    new Promise<GrepReply | null>((resolve) => {
      wake = resolve;
      worker.postMessage(request, transfer);
    });
  try {
    const { end } = await stream.span(0, stream.committed);
    let more = true;
    for await (const chunk of stream.chunks(0, end)) {
      if (timedOut) break;
      const copy = new Uint8Array(chunk); // its own buffer, transferred (a store's chunk may share one)
      const reply = await ask({ type: "chunk", bytes: copy }, [copy.buffer as ArrayBuffer]);
      if (reply === null) {
        if (timedOut) break;
        throw workerStopped();
      }
      scanned += chunk.length;
      matches.push(...reply.matches);
      if (!reply.more) {
        more = false;
        break;
      }
    }
    if (more && !timedOut) {
      const reply = await ask({ type: "end" }, []);
      if (reply) matches.push(...reply.matches);
      else if (!timedOut) throw workerStopped();
    }
    return {
      matches: matches.slice(0, job.max),
      cut: timedOut ? "time" : matches.length >= job.max ? "max" : null,
      scanned,
    };
  } finally {
    cancel();
    await worker.terminate();
  }
}

const workerStopped = () =>
  new SpoolError("SPOOL_E_WORKER", "serve-grep", "the grep worker stopped (out of memory?)");
