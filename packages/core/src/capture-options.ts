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

import type { EventStream } from "./capture-events.js";
import type { SpawnChild } from "./child-spawn.js";
import type { Clock } from "./clock.js";
import type { StorageFailure } from "./errors.js";
import type { Logger } from "./logger.js";
import type { PreviewBudget, PreviewSnapshot } from "./preview.js";
import type { ProcessReceipt, Receipt, SourceReceipt } from "./receipt.js";
import type { CaptureReason, SourceDeclaration, StreamName } from "./receipt-vocabulary.js";
import type { ByteSource } from "./source-runner.js";
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

/**
 * What every capture takes, of a child process or of any other source.
 *
 * @example
 * ```ts
 * import { DEFAULT_PREVIEW_BUDGET, type CaptureCommonOptions } from "@spool/core";
 * import { createFileSpool } from "@spool/sinks";
 * import { createStreamPlan } from "@spool/transforms";
 * const common: CaptureCommonOptions = {
 *   root: "/tmp/spools",
 *   preview: DEFAULT_PREVIEW_BUDGET,
 *   plan: (stream) => createStreamPlan({ preview: { budget: DEFAULT_PREVIEW_BUDGET, stream }, redactor: null }),
 *   spool: createFileSpool({ root: "/tmp/spools", missingRoot: "create" }).factory,
 * };
 * ```
 */
export interface CaptureCommonOptions {
  /** Absolute root the spool lives under (reported in the receipt). */
  readonly root: string;
  /** @default a fresh random id */
  readonly captureId?: string;
  /** @default null */
  readonly callId?: string | null;
  /** Already sanitized; null to omit. @default null */
  readonly label?: string | null;
  /** How long to keep draining pipes after the producer ends. @default 1000 */
  readonly drainMs?: number;
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
  /**
   * Persistence on purpose off: the capture keeps its preview and receipt, opens and
   * writes nothing (not even a directory), and settles `disabled`.
   * @default true
   */
  readonly persist?: boolean;
  /** @default systemClock */
  readonly clock?: Clock;
  readonly logger?: Logger;
}

/**
 * What {@link startCapture} takes: the common options plus the command and how to run it.
 *
 * @example
 * ```ts
 * import type { CaptureCommonOptions, CaptureOptions } from "@spool/core";
 * declare const common: CaptureCommonOptions;
 * const options: CaptureOptions = { ...common, command: "npm", args: ["test"], cwd: "/src/app", timeoutMs: 300_000 };
 * ```
 */
export interface CaptureOptions extends CaptureCommonOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Kill the process group after this long; null for none. @default null */
  readonly timeoutMs?: number | null;
  /** Between SIGTERM and SIGKILL. @default 2000 */
  readonly killGraceMs?: number;
  /** @default "ignore" (the child's stdin is /dev/null) */
  readonly stdin?: "ignore" | "inherit";
  /** How the child is started; tests pass a fake child. @default spawnChild */
  readonly spawn?: SpawnChild;
}

/**
 * A capture of a source that is not a child process: an HTTP body, a socket, a generator.
 * The receipt has a `source` block (kind, label, what the source declared) instead of
 * `process`; `label` is both the receipt's label and the source's.
 */
export interface CaptureSourceOptions extends CaptureCommonOptions {
  readonly stdout: ByteSource;
  /** @default an empty stream */
  readonly stderr?: ByteSource;
  /**
   * What the source says of its own completeness, read when it ends (a function may
   * compare the bytes received with a declared length). A "truncated" source is never a
   * complete capture (reason `source-truncated`); a source error gives `source-error`.
   */
  readonly declared: SourceDeclaration | (() => SourceDeclaration);
}

export type CaptureEvent =
  | { type: "start"; receipt: Receipt }
  | { type: "spill"; receipt: Receipt }
  | { type: "persistence-stopped"; stream: StreamName; reason: CaptureReason }
  /**
   * Storage failed: it could not be opened (the capture goes on with its preview only), a
   * stream's write or sync failed (`stream` names it; it keeps what was durable), or the
   * receipt could not be published. `storage` names errno, operation and redacted path.
   */
  | {
      type: "storage-error";
      stream?: StreamName;
      code: string;
      message: string;
      storage: StorageFailure | null;
    }
  | { type: "exit"; receipt: Receipt }
  | { type: "final"; receipt: Receipt };

/** A receipt of a process capture: `process` is always there. */
export type ProcessCaptureReceipt = Receipt & { process: ProcessReceipt; source?: undefined };
/** A receipt of a source capture: `source` is always there, `process` never. */
export type SourceCaptureReceipt = Receipt & { source: SourceReceipt; process?: undefined };

export interface CaptureResult {
  receipt: ProcessCaptureReceipt;
  /** What `spool run` exits with: the child's code, 128+signal, 124 on timeout, 126/127 on spawn failure. */
  exitStatus: number;
}

export interface SourceCaptureResult {
  receipt: SourceCaptureReceipt;
}

/** The handle of a running capture; `R` is its result. */
export interface CaptureHandle<R> {
  readonly captureId: string;
  /** Lifecycle events, read-only; completes after "final". */
  readonly events: EventStream<CaptureEvent>;
  /** The receipt as of now. */
  receipt(): R extends { receipt: infer T } ? T : Receipt;
  /** Signal the process group (escalating to SIGKILL after the grace period), or destroy the source. */
  cancel(signal?: NodeJS.Signals): void;
  /**
   * Open storage now (promotion of a foreground run to a job): the bytes the writer queue
   * holds flow first, then the rest, so the file is the same as if it had spilled on its
   * own. Resolves true once spilled, false if the capture is already finalizing or storage
   * is unavailable.
   */
  spill(): Promise<boolean>;
  readonly done: Promise<R>;
}

/** A capture of a child process. */
export type Capture = CaptureHandle<CaptureResult>;
/** A capture of any other source (`captureSource`). */
export type SourceCapture = CaptureHandle<SourceCaptureResult>;
