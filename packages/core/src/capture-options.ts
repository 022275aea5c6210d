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

import type { CaptureEvents } from "./capture-events.js";
import type { SpawnChild } from "./child-spawn.js";
import type { Clock } from "./clock.js";
import type { Logger } from "./logger.js";
import type { PreviewBudget, PreviewSnapshot } from "./preview.js";
import type { ProcessReceipt, Receipt, SourceReceipt } from "./receipt.js";
import type { SourceDeclaration, StreamName } from "./receipt-vocabulary.js";
import type { ByteSource } from "./source-runner.js";
import type { SpoolFactory } from "./spool.js";
import type { Stage } from "./stage.js";

/**
 * The last stage of a stream's plan: it passes bytes on unchanged and keeps the bounded
 * head and tail the preview is rendered from. `createPreviewTap` in `@spool/transforms`
 * makes one; {@link StreamPlan} requires one.
 *
 * @category capture
 * @example
 * ```ts
 * import type { PreviewTap } from "@spool/core";
 * declare const tap: PreviewTap;
 * const { head, tail, total } = tap.snapshot(); // what the preview will show of this stream
 * ```
 */
export interface PreviewTap extends Stage {
  /** The head and tail held so far, and the stream's total size. */
  snapshot(): PreviewSnapshot;
}

/**
 * The stages of one stream, ending with its preview tap. A capture asks for a fresh plan
 * per stream (stages hold state); `createStreamPlan` in `@spool/transforms` builds one in
 * the safe order (decoder → ANSI strip → redactor → your stages → tap).
 *
 * @category capture
 * @example
 * ```ts
 * import type { StreamPlan } from "@spool/core";
 * import { createPreviewTap, createUtf8Decoder, previewTapBudget } from "@spool/transforms";
 * const plan: StreamPlan = { stages: [createUtf8Decoder()], tap: createPreviewTap(previewTapBudget(8192)) };
 * ```
 */
export interface StreamPlan {
  /** The stages in order, before the tap (decoder, ANSI strip, redactor, yours). */
  readonly stages: readonly Stage[];
  /** The preview tap, always last. */
  readonly tap: PreviewTap;
  /** "binary" keeps raw bytes (`--binary keep`). @default "text" */
  readonly representation?: "text" | "binary";
}

/**
 * A spool as `createFileSpool` and `createMemorySpool` in `@spool/sinks` return it: its
 * factory, and the root it owns (a file spool made with `root`; the memory spool's is
 * `"memory"`). A capture given a spool that owns a root takes it from there.
 *
 * @category storage
 * @example
 * ```ts
 * import type { Spool } from "@spool/core";
 * import { createMemorySpool } from "@spool/sinks";
 * const memory: Spool = createMemorySpool();
 * memory.root; // "memory"
 * ```
 */
export interface Spool {
  readonly factory: SpoolFactory;
  /** The root every capture of this spool lives under, when the spool owns one. */
  readonly root?: string | undefined;
}

/**
 * What every capture takes, of a child process or of any other source. Everything has a
 * default: the safe plan, the default preview budget, an in-memory spool.
 *
 * @category capture
 * @example
 * ```ts
 * import type { CaptureCommonOptions } from "@spool/core";
 * import { createFileSpool } from "@spool/sinks";
 * const common: CaptureCommonOptions = {
 *   spool: createFileSpool({ root: "/tmp/spools", missingRoot: "create" }), // owns its root
 *   label: "nightly report",
 *   signal: AbortSignal.timeout(60_000),
 * };
 * ```
 */
export interface CaptureCommonOptions {
  /**
   * The root the capture lives under, only for a spool that owns none (a bare factory, or
   * `createFileSpool()` made without `root`). A spool that owns its root takes it from
   * there, and a different `root` here is refused (`SPOOL_E_OPTIONS`).
   * @default the spool's root
   */
  readonly root?: string;
  /** The capture's id (16-64 base64url characters), e.g. to name it before it starts. @default a fresh random id ({@link newCaptureId}) */
  readonly captureId?: string;
  /** The caller's own id for this call (matches {@link CALL_ID_PATTERN}); a REF can name the capture by it. @default null */
  readonly callId?: string | null;
  /** A short human label shown in listings and the receipt; already sanitized (nothing secret), null to omit. @default null */
  readonly label?: string | null;
  /** Milliseconds to keep draining pipes after the producer ends (a grandchild may hold them open). @default 1000 */
  readonly drainMs?: number;
  /** The preview's budget (characters per stream, bytes in all), handed to `plan`. @default DEFAULT_PREVIEW_BUDGET */
  readonly preview?: PreviewBudget;
  /**
   * Fresh stages for each stream, called once per stream (stages keep state) with the
   * capture's `preview` budget, which the stream's tap is sized from:
   * `(stream, budget) => createStreamPlan({ preview: { budget, stream }, stages: [yours] })`.
   * The capture checks it (`checkStreamPlan` in `@spool/transforms`) and refuses an unsafe
   * one with `SPOOL_E_PLAN` before anything runs, unless `unsafePlan: true`.
   * @default decoder → ANSI strip → redactor (the built-in rules) → preview tap
   */
  readonly plan?: (stream: StreamName, preview: PreviewBudget) => StreamPlan;
  /**
   * Redaction is on: the plan must have a redactor. `false` captures without one (the
   * default plan then has none). @default true
   */
  readonly redact?: boolean;
  /**
   * For experts: run `plan` unchecked (a redactor before the ANSI strip, a stage that
   * changes bytes after the redactor, no redactor at all). What it lets through is yours.
   * @default false
   */
  readonly unsafePlan?: boolean;
  /**
   * Where bytes go once they outgrow the preview: a spool from `@spool/sinks`
   * (`createFileSpool({ root })`, `createMemorySpool()`), or a bare {@link SpoolFactory}.
   * @default a fresh `createMemorySpool()` (bytes kept in memory until the capture is dropped)
   */
  readonly spool?: Spool | SpoolFactory;
  /** Cancels the capture when aborted, as `cancel()` does (SIGTERM to a process group; a source is destroyed). */
  readonly signal?: AbortSignal;
  /** Milliseconds between replacements of `live.json` while running (only when something changed). @default 250 */
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
  /** Time source for timeouts, drain and live receipts; tests pass `createManualClock()`. @default systemClock */
  readonly clock?: Clock;
  /** Where state changes (start, spill, saturation, finalize) are logged; never output content. @default no logs */
  readonly logger?: Logger;
}

/**
 * The options a capture runs with once every default is filled in (`@spool/sinks` fills
 * them): the engine in `@spool/core/internal` takes these.
 *
 * @category capture
 * @example
 * ```ts
 * import type { ResolvedCaptureOptions } from "@spool/core";
 * declare const resolved: ResolvedCaptureOptions;
 * resolved.spool({ captureId: "AAAAAAAAAAAAAAAAAAAAAAAA", root: resolved.root, startedAt: Date.now() });
 * ```
 */
export type ResolvedCaptureOptions = Omit<
  CaptureCommonOptions,
  "root" | "preview" | "plan" | "spool"
> & {
  /** The root the receipt names and the spool is opened under. */
  readonly root: string;
  /** The preview budget, handed to `plan`. */
  readonly preview: PreviewBudget;
  /** The plan of each stream, already checked. */
  readonly plan: (stream: StreamName, preview: PreviewBudget) => StreamPlan;
  /** The spool's factory. */
  readonly spool: SpoolFactory;
};

/**
 * What `startCapture` (in `@spool/sinks`) takes: the common options plus the command and how to run it.
 *
 * @category capture
 * @example
 * ```ts
 * import type { CaptureCommonOptions, CaptureOptions } from "@spool/core";
 * declare const common: CaptureCommonOptions;
 * const options: CaptureOptions = { ...common, command: "npm", args: ["test"], cwd: "/src/app", timeoutMs: 300_000 };
 * ```
 */
export interface CaptureOptions extends CaptureCommonOptions {
  /** The program to run, without a shell (looked up on `PATH`). */
  readonly command: string;
  /** Its arguments, passed as they are (no shell expansion). */
  readonly args: readonly string[];
  /** Working directory of the child. @default process.cwd() */
  readonly cwd?: string;
  /** Environment of the child. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** Milliseconds after which the process group is cancelled (state `timeout`, exit status 124); null for none. @default null */
  readonly timeoutMs?: number | null;
  /** Milliseconds between SIGTERM and SIGKILL when cancelling. @default 2000 */
  readonly killGraceMs?: number;
  /**
   * The child's stdin: "ignore" gives it /dev/null, "inherit" passes this process's stdin,
   * "withheld" gives it /dev/null where this process's stdin was a pipe or a terminal not
   * passed on purpose. The receipt's `process.stdin` says "inherited" or "withheld".
   * @default "ignore"
   */
  readonly stdin?: "ignore" | "inherit" | "withheld";
  /** How the child is started; tests pass a fake child. @default spawnChild */
  readonly spawn?: SpawnChild;
}

/**
 * What `captureSource` (in `@spool/sinks`) takes: a capture of a source that is not a child process (an
 * HTTP body, a socket, a generator). The receipt has a `source` block (kind, label, what
 * the source declared) instead of `process`; `label` is both the receipt's label and the
 * source's.
 *
 * @category capture
 * @example
 * ```ts
 * import type { CaptureCommonOptions, CaptureSourceOptions } from "@spool/core";
 * declare const common: CaptureCommonOptions;
 * const response = await fetch("http://127.0.0.1:8080/log");
 * const options: CaptureSourceOptions = {
 *   ...common,
 *   label: "GET /log",
 *   stdout: response.body!,
 *   declared: "unknown",
 * };
 * ```
 */
export interface CaptureSourceOptions extends CaptureCommonOptions {
  /** The bytes to capture as the `stdout` stream: a Node `Readable`, a web `ReadableStream` or an `AsyncIterable<Uint8Array>`. */
  readonly stdout: ByteSource;
  /** A second stream captured as `stderr` (e.g. a child's diagnostics beside its body). @default an empty stream */
  readonly stderr?: ByteSource;
  /**
   * What the source says of its own completeness, read when it ends (a function may
   * compare the bytes received with a declared length). A "truncated" source is never a
   * complete capture (reason `source-truncated`); a source error gives `source-error`.
   * @default "unknown"
   */
  readonly declared?: SourceDeclaration | (() => SourceDeclaration);
}

/**
 * A receipt of a process capture: `process` is always there.
 *
 * @category capture
 * @example
 * ```ts
 * import type { ProcessCaptureReceipt } from "@spool/core";
 * declare const receipt: ProcessCaptureReceipt;
 * receipt.process.exitCode; // no undefined check needed
 * ```
 */
export type ProcessCaptureReceipt = Receipt & { process: ProcessReceipt; source?: undefined };
/**
 * A receipt of a source capture: `source` is always there, `process` never.
 *
 * @category capture
 * @example
 * ```ts
 * import type { SourceCaptureReceipt } from "@spool/core";
 * declare const receipt: SourceCaptureReceipt;
 * if (receipt.source.declared === "truncated") console.warn("the body was cut short upstream");
 * ```
 */
export type SourceCaptureReceipt = Receipt & { source: SourceReceipt; process?: undefined };

/**
 * What a process capture settles with ({@link Capture}'s `done`): the final receipt and
 * the exit status to report for it.
 *
 * @category capture
 * @example
 * ```ts
 * import type { Capture } from "@spool/core";
 * declare const capture: Capture;
 * const { receipt, exitStatus } = await capture.done;
 * console.log(receipt.preview.text);
 * process.exitCode = exitStatus;
 * ```
 */
export interface CaptureResult {
  /** The final receipt (published last, atomically, when the capture was stored). */
  receipt: ProcessCaptureReceipt;
  /** What `spool run` exits with: the child's code, 128+signal, 124 on timeout, 126/127 on spawn failure. */
  exitStatus: number;
}

/**
 * What a source capture settles with ({@link SourceCapture}'s `done`): the final receipt.
 *
 * @category capture
 * @example
 * ```ts
 * import type { SourceCapture } from "@spool/core";
 * declare const capture: SourceCapture;
 * const { receipt } = await capture.done;
 * receipt.capture.state; // "complete" unless the source failed, was truncated or storage stopped
 * ```
 */
export interface SourceCaptureResult {
  /** The final receipt (published last, atomically, when the capture was stored). */
  receipt: SourceCaptureReceipt;
}

/**
 * The handle of a running capture; `R` is its result. {@link Capture} and
 * {@link SourceCapture} name the two kinds.
 *
 * @category capture
 * @example
 * ```ts
 * import type { CaptureHandle, CaptureResult } from "@spool/core";
 * declare const capture: CaptureHandle<CaptureResult>;
 * setTimeout(() => capture.cancel("SIGTERM"), 30_000);
 * const { receipt } = await capture.done;
 * ```
 */
export interface CaptureHandle<R> {
  /** The capture's id: its directory under `tool-outputs/` and the REF that reads it. */
  readonly captureId: string;
  /** Lifecycle events: an rxjs `Observable` (and `AsyncIterable`) that completes after "final". */
  readonly events: CaptureEvents;
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
  /** Settles once the capture is final; never rejects for a failed producer or storage (see the receipt). */
  readonly done: Promise<R>;
}

/**
 * A capture of a child process, as `startCapture` (in `@spool/sinks`) returns it.
 *
 * @category capture
 * @example
 * ```ts
 * import type { Capture } from "@spool/core";
 * declare const capture: Capture;
 * capture.receipt().process.state; // "running" while the child runs
 * ```
 */
export type Capture = CaptureHandle<CaptureResult>;
/**
 * A capture of any other source, as `captureSource` (in `@spool/sinks`) returns it.
 *
 * @category capture
 * @example
 * ```ts
 * import type { SourceCapture } from "@spool/core";
 * declare const capture: SourceCapture;
 * capture.receipt().source.state; // "running" until the source ends
 * ```
 */
export type SourceCapture = CaptureHandle<SourceCaptureResult>;
