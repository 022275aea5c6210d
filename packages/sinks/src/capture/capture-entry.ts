/**
 * `startCapture` and `captureSource`: the capture with its defaults filled in and its plan
 * checked before anything runs. This package has both halves of a default: the plan
 * (`createStreamPlan` from `@spool/transforms`: decoder → ANSI strip → redactor → tap) and
 * the spool (`createMemorySpool`); the engine is `@spool/core`'s.
 *
 * @example
 * ```ts
 * import { captureSource } from "@spool/sinks";
 * const { receipt } = await captureSource((await fetch("http://127.0.0.1:8080/log")).body!).done;
 * ```
 */

import { runCommandCapture, runSourceCapture } from "@spool/core/internal";
import {
  type ByteSource,
  type Capture,
  type CaptureCommonOptions,
  type CaptureOptions,
  type CaptureSourceOptions,
  DEFAULT_PREVIEW_BUDGET,
  type PreviewBudget,
  type ResolvedCaptureOptions,
  type SourceCapture,
  SpoolError,
  type SpoolFactory,
  type StreamName,
  type StreamPlan,
} from "@spool/core/runtime";
import { checkStreamPlan, createStreamPlan } from "@spool/transforms";
import { createMemorySpool } from "../memory/memory-spool.js";

/**
 * Run a command without a shell and capture its stdout and stderr, from the first byte,
 * through the plan (by default the safe one: decoder → ANSI strip → redactor → tap) into
 * the spool (by default in memory). Resolves `done` with the receipt (bounded preview,
 * byte counts, refs) and the exit status `spool run` would use; never rejects for the
 * child's failure (that is in the receipt). A plan that fails `checkStreamPlan` is refused
 * here (`SPOOL_E_PLAN`), before the command starts, unless `unsafePlan: true`.
 *
 * @category capture
 * @example
 * ```ts
 * import { createFileSpool, startCapture } from "@spool/sinks";
 * const files = createFileSpool({ root: "/tmp/spools", missingRoot: "create" });
 * const capture = startCapture({ command: "make", args: ["test"], spool: files, timeoutMs: 600_000 });
 * const { receipt, exitStatus } = await capture.done;
 * await files.destroy();
 * ```
 */
export function startCapture(options: CaptureOptions): Capture {
  return runCommandCapture({ ...options, ...resolveDefaults(options) });
}

/**
 * Capture any byte source that is not a child process, as the `stdout` stream: a Node
 * `Readable`, a web `ReadableStream` or an `AsyncIterable<Uint8Array>` (an HTTP body, a
 * socket, a generator). The same defaults, plan check, stages, spill and receipt as
 * {@link startCapture}; the receipt has a `source` block instead of `process`. A source
 * error settles it `partial` with reason `source-error`; one that declares itself
 * truncated is never `complete`. Give the source alone, the source and options, or
 * options with `stdout`.
 *
 * @category capture
 * @example
 * ```ts
 * import { captureSource } from "@spool/sinks";
 * const response = await fetch("http://127.0.0.1:8080/report");
 * const { receipt } = await captureSource(response.body!).done; // redacted, previewed, kept in memory
 * receipt.streams.stdout.committed;
 * ```
 */
export function captureSource(
  source: ByteSource | CaptureSourceOptions,
  options: Omit<CaptureSourceOptions, "stdout"> = {},
): SourceCapture {
  const all: CaptureSourceOptions = isOptions(source) ? source : { ...options, stdout: source };
  return runSourceCapture({ ...all, ...resolveDefaults(all) });
}

function isOptions(value: ByteSource | CaptureSourceOptions): value is CaptureSourceOptions {
  return (
    typeof value === "object" &&
    value !== null &&
    "stdout" in value &&
    !(Symbol.asyncIterator in value) &&
    !("getReader" in value)
  );
}

/** Root, preview, spool and plan, each from the options or its default; the plans made and checked now. */
function resolveDefaults(options: CaptureCommonOptions): ResolvedCaptureOptions {
  const { factory, root } = spoolOf(options);
  const preview = options.preview ?? DEFAULT_PREVIEW_BUDGET;
  const redaction = options.redact !== false;
  const plan =
    options.plan ??
    ((stream: StreamName, budget: PreviewBudget) =>
      createStreamPlan({ preview: { budget, stream }, ...(redaction ? {} : { redactor: null }) }));
  // Both plans now: an unsafe one is refused before a child starts or a source is read.
  const plans: Record<StreamName, StreamPlan> = {
    stdout: plan("stdout", preview),
    stderr: plan("stderr", preview),
  };
  if (plans.stdout === plans.stderr || shareAStage(plans.stdout, plans.stderr)) {
    throw new SpoolError(
      "SPOOL_E_PLAN",
      "capture",
      "stdout and stderr share a stage instance: `plan` must make fresh stages on each call (a stage keeps the state of one stream)",
    );
  }
  if (options.unsafePlan !== true) {
    for (const p of Object.values(plans)) checkStreamPlan(p, { redaction });
  }
  return { root, preview, spool: factory, plan: (stream) => plans[stream] };
}

function shareAStage(a: StreamPlan, b: StreamPlan): boolean {
  const seen = new Set<object>([...a.stages, a.tap]);
  return [...b.stages, b.tap].some((stage) => seen.has(stage));
}

/** The spool's factory and root: the spool owns its root; a capture names one only for a spool that has none. */
function spoolOf(options: CaptureCommonOptions): { factory: SpoolFactory; root: string } {
  const spool = options.spool ?? createMemorySpool();
  const factory = typeof spool === "function" ? spool : spool.factory;
  const owned = typeof spool === "function" ? undefined : spool.root;
  if (owned !== undefined && options.root !== undefined && options.root !== owned) {
    throw new SpoolError(
      "SPOOL_E_OPTIONS",
      "capture",
      `the spool owns its root (${owned}): give \`root\` to the spool only, not to the capture`,
    );
  }
  const root = owned ?? options.root;
  if (root === undefined) {
    throw new SpoolError(
      "SPOOL_E_OPTIONS",
      "capture",
      "this spool owns no root: make it with one (createFileSpool({ root })) or give the capture `root`",
    );
  }
  return { factory, root };
}
