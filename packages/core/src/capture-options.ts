/**
 * The shapes a capture is started with and answers with: its options (what to run, the
 * per-stream stage plan, the spool, budgets, and the injectable spawn and clock), its
 * lifecycle events, and the {@link Capture} handle.
 *
 * @example
 * ```ts
 * import type { CaptureOptions } from "@spool/core";
 * const timeouts: Pick<CaptureOptions, "timeoutMs" | "drainMs"> = { timeoutMs: 60_000, drainMs: 1000 };
 * ```
 */
import type { Subject } from "rxjs";
import type { SpawnChild } from "./child-spawn.js";
import type { Clock } from "./clock.js";
import type { Logger } from "./logger.js";
import type { PreviewBudget, PreviewSnapshot } from "./preview.js";
import type { Receipt } from "./receipt.js";
import type { CaptureReason, StreamName } from "./receipt-vocabulary.js";
import type { SpoolFactory } from "./spool.js";
import type { Stage } from "./stage.js";

/** A stage that also keeps the bounded head and tail the preview shows. */
export interface PreviewTap extends Stage {
  snapshot(): PreviewSnapshot;
}

/** The stages of one stream, ending with its preview tap. */
export interface StreamPlan {
  readonly stages: readonly Stage[];
  readonly tap: PreviewTap;
  /** "binary" keeps raw bytes (`--binary keep`). @default "text" */
  readonly representation?: "text" | "binary";
}

export interface CaptureOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Absolute root the spool lives under (reported in the receipt). */
  readonly root: string;
  /** @default a fresh random id */
  readonly captureId?: string;
  /** @default null */
  readonly callId?: string | null;
  /** Already sanitized; null to omit. @default null */
  readonly label?: string | null;
  /** Kill the process group after this long; null for none. @default null */
  readonly timeoutMs?: number | null;
  /** How long to keep draining pipes after the direct child exits. @default 1000 */
  readonly drainMs?: number;
  /** Between SIGTERM and SIGKILL. @default 2000 */
  readonly killGraceMs?: number;
  readonly preview: PreviewBudget;
  /** Fresh stages for each stream. */
  readonly plan: (stream: StreamName) => StreamPlan;
  readonly spool: SpoolFactory;
  /** How often `live.json` may be replaced while running (only when something changed). @default 250 */
  readonly liveIntervalMs?: number;
  /**
   * Open storage at launch instead of when output outgrows the preview, so a background
   * job has its directory, `.live` files and `live.json` (live refs) from the start.
   * @default false
   */
  readonly spillAtStart?: boolean;
  /** @default "ignore" (the child's stdin is /dev/null) */
  readonly stdin?: "ignore" | "inherit";
  /** @default systemClock */
  readonly clock?: Clock;
  /** How the child is started; tests pass a fake child. @default spawnChild */
  readonly spawn?: SpawnChild;
  readonly logger?: Logger;
}

export type CaptureEvent =
  | { type: "start"; receipt: Receipt }
  | { type: "spill"; receipt: Receipt }
  | { type: "persistence-stopped"; stream: StreamName; reason: CaptureReason }
  | { type: "exit"; receipt: Receipt }
  | { type: "final"; receipt: Receipt };

export interface CaptureResult {
  receipt: Receipt;
  /** What `spool run` exits with: the child's code, 128+signal, 124 on timeout, 126/127 on spawn failure. */
  exitStatus: number;
}

export interface Capture {
  readonly captureId: string;
  /** Lifecycle events; completes after "final". */
  readonly events: Subject<CaptureEvent>;
  /** The receipt as of now. */
  receipt(): Receipt;
  /** Signal the process group (escalating to SIGKILL after the grace period). */
  cancel(signal?: NodeJS.Signals): void;
  /**
   * Open storage now (promotion of a foreground run to a job): the bytes the writer queue
   * holds flow first, then the rest, so the file is the same as if it had spilled on its
   * own. Resolves true once spilled, false if the capture is already finalizing or storage
   * is unavailable.
   */
  spill(): Promise<boolean>;
  readonly done: Promise<CaptureResult>;
}
