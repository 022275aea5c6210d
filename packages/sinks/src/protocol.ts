/** Messages between the file spool (main thread) and its writer task (worker). */
import type { MessagePort } from "node:worker_threads";
import type { CaptureReason } from "@spool/core/runtime";
import type { FaultSpec } from "./fs-layer.js";

export type ToWriter =
  | {
      op: "open";
      root: string;
      captureId: string;
      files: [string, string];
      /** When the capture started (ms since the epoch), recorded in `owner.json`. */
      startedAt: number;
      /** Per-capture retained ceiling over both streams, or null for none. */
      maxBytes: number | null;
      /** Per-root allowance, or null for none. */
      rootQuota: number | null;
      /** Injected storage faults (tests). */
      faults: FaultSpec[];
    }
  | { op: "write"; stream: 0 | 1; data: Uint8Array }
  | { op: "live"; json: string }
  | { op: "finish"; finalNames: [string, string] }
  | { op: "receipt"; json: string }
  | { op: "close" };

export interface FinishedStream {
  committed: number;
  sha256: string;
  file: string | null;
  error: CaptureReason | null;
}

export type FromWriter =
  | { op: "opened"; dir: string }
  /** `buffer` is the written message's buffer, handed back for reuse. */
  | { op: "ack"; stream: 0 | 1; committed: number; buffer: ArrayBuffer }
  | { op: "stream-error"; stream: 0 | 1; reason: CaptureReason; committed: number; code: string }
  | { op: "finished"; streams: [FinishedStream, FinishedStream] }
  | { op: "published" }
  | { op: "failed"; stage: string; code: string; message: string };

export interface WriterTask {
  port: MessagePort;
}
