/**
 * What a capture tells the world when it changes state: one pino line and one lifecycle
 * event per transition (start, spill, persistence stopped, exit, final), never per chunk
 * and never as a side effect of building a receipt. Event receipts are built only while
 * someone listens.
 *
 * @example
 * ```ts
 * import { createCaptureJournal } from "./capture-journal.js"; // internal to @spool/core
 * import { createEventBus } from "./capture-events.js";
 * declare const receipt: () => import("@spool/core").Receipt;
 * const journal = createCaptureJournal("AAAAAAAAAAAAAAAAAAAAAAAA", receipt, createEventBus(), undefined);
 * journal.exited();
 * ```
 */
import type { EventBus } from "./capture-events.js";
import { SpoolError } from "./errors.js";
import type { Logger } from "./logger.js";
import type { Receipt } from "./receipt.js";
import { producerOf } from "./receipt-producer.js";
import type { CaptureReason, StreamName } from "./receipt-vocabulary.js";

export interface CaptureJournal {
  started(pid: number | null): void;
  spilled(): void;
  spillFailed(error: unknown): void;
  /** Persistence of `stream` stopped; `error` when storage failed (also a `storage-error`). */
  stopped(stream: StreamName, reason: CaptureReason, error?: SpoolError): void;
  stageFailed(stream: StreamName, stage: string, message: string): void;
  /** A stream's line index could not be written (its bytes are all kept). */
  indexLost(stream: StreamName, error: SpoolError): void;
  exited(): void;
  publishFailed(error: unknown): void;
  finalized(receipt: Receipt): void;
}

/** `receipt` builds the receipt as of now; it is called only while someone listens. */
export function createCaptureJournal(
  captureId: string,
  receipt: () => Receipt,
  bus: EventBus,
  log: Logger | undefined,
): CaptureJournal {
  /** One log line and one `storage-error` event, with errno, operation and redacted path. */
  const storageFailed = (event: string, error: unknown, what: string, stream?: StreamName) => {
    const storage = error instanceof SpoolError ? error.storage : null;
    const code = codeOf(error);
    log?.error({ event, captureId, ...(stream ? { stream } : {}), code, ...storage }, what);
    bus.emit(() => ({
      type: "storage-error",
      ...(stream ? { stream } : {}),
      code: code ?? "SPOOL_E_STORAGE",
      message: error instanceof SpoolError ? error.message : what,
      storage,
    }));
  };
  return {
    started(pid) {
      // `pid` is the logging process (pino's base): the child's is `childPid`, so no line has a key twice.
      log?.info({ event: "start", captureId, childPid: pid }, "capture started");
      bus.emit(() => ({ type: "start", receipt: receipt() }));
    },
    spilled() {
      log?.info({ event: "spill", captureId }, "spooling to storage");
      bus.emit(() => ({ type: "spill", receipt: receipt() }));
    },
    spillFailed(error) {
      storageFailed("spill-failed", error, "storage unavailable");
    },
    stopped(stream, reason, error) {
      log?.warn({ event: "persistence-stopped", captureId, stream, reason }, "persistence stopped");
      bus.emit(() => ({ type: "persistence-stopped", stream, reason }));
      if (error) storageFailed("write-failed", error, "storage failed", stream);
    },
    indexLost(stream, error) {
      storageFailed("index-failed", error, "line index not written", stream);
    },
    stageFailed(stream, stage, message) {
      log?.error({ event: "stage-error", captureId, stream, stage, err: message }, "stage failed");
      bus.emit(() => ({ type: "stage-error", stream, stage, message }));
    },
    exited() {
      bus.emit(() => ({ type: "exit", receipt: receipt() }));
    },
    publishFailed(error) {
      storageFailed("publish-failed", error, "receipt not published");
    },
    finalized(final) {
      const { capture } = final;
      log?.info(
        {
          event: "finalize",
          captureId,
          process: producerOf(final).state,
          capture: capture.state,
          reasons: capture.reasons,
        },
        "capture finalized",
      );
      bus.emit(() => ({ type: "final", receipt: final }));
      bus.complete();
    },
  };
}

function codeOf(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}
