/**
 * The receipt of a capture as of now, built from its state with no side effects: it
 * reads the process, the ledgers, the stage counters and the preview taps, logs nothing
 * and sends no event. Live, launch and final receipts all come from here.
 *
 * @example
 * ```ts
 * import { buildReceipt } from "./capture-receipt.js"; // internal to @spool/core
 * declare const run: import("./capture-state.js").CaptureRun;
 * buildReceipt(run).capture.state; // "pending" while running
 * ```
 */
import { createHash } from "node:crypto";
import type { CaptureRun } from "./capture-state.js";
import { type PreviewSnapshot, renderPreview } from "./preview.js";
import type { Receipt, StreamReceipt } from "./receipt.js";
import type { Representation, StreamName } from "./receipt-vocabulary.js";
import { sumCounters } from "./stage.js";
import { stageCountersOf } from "./stage-counters.js";

export function buildReceipt(run: CaptureRun): Receipt {
  const streams = { stdout: streamReceipt(run, "stdout"), stderr: streamReceipt(run, "stderr") };
  const snapshots = {
    stdout: run.plans.stdout.tap.snapshot(),
    stderr: run.plans.stderr.tap.snapshot(),
  };
  const refs =
    run.storage.status === "open"
      ? { stdout: streams.stdout.ref, stderr: streams.stderr.ref }
      : null;
  const failed = run.producer.failed();
  const preview = renderPreview(snapshots, run.options.preview, { failed, refs });
  return {
    version: 1,
    captureId: run.captureId,
    callId: run.options.callId ?? null,
    label: run.options.label ?? null,
    root: run.options.root,
    ...run.producer.block(),
    capture: {
      state: run.outcome,
      reasons: [...run.reasons].sort(),
      ...(run.storageError ? { storageError: { ...run.storageError } } : {}),
    },
    streams,
    preview: { ...preview, budget: { ...run.options.preview } },
  };
}

/**
 * The small-result path: settled complete without storage, so every produced byte is in
 * the inline preview (and counts as committed there).
 */
export function isInline(run: CaptureRun): boolean {
  return run.outcome === "complete" && run.storage.status === "none";
}

function streamReceipt(run: CaptureRun, name: StreamName): StreamReceipt {
  const pipeline = run.pipelines[name];
  const final = run.finals?.[name];
  const snap = pipeline.ledger.snapshot();
  const counters = sumCounters(pipeline.stages);
  const stageCounters = stageCountersOf(pipeline.stages);
  const inline = isInline(run);
  const stored = run.storage.status === "open";
  // The writer's final count is what is durable: after a failed sync it is below what
  // was acknowledged, and only it is claimed (then lines are unknown).
  const committed = final ? Math.min(final.committed, snap.committed) : snap.committed;
  const short = committed < snap.committed;
  return {
    representation: representationOf(run, name, counters.replacements),
    transforms: pipeline.stages.flatMap((stage) => (stage.transform ? [stage.transform] : [])),
    raw: snap.raw,
    produced: snap.produced,
    committed,
    retained: inline || stored ? { start: 0, end: committed } : null,
    ...counters,
    ...(stageCounters.length > 0 ? { stageCounters } : {}),
    lines: short ? null : snap.lines,
    endsWithNewline: short ? null : snap.endsWithNewline,
    ref: stored ? (final?.ref ?? run.storage.info?.refs[name] ?? null) : null,
    path: stored ? (final?.path ?? run.storage.info?.paths?.[name] ?? null) : null,
    sha256: final?.sha256 ?? (inline ? sha256Of(run.plans[name].tap.snapshot()) : null),
  };
}

function representationOf(run: CaptureRun, name: StreamName, replacements: number): Representation {
  if (run.plans[name].representation === "binary") return "binary";
  return replacements > 0 ? "utf8-replaced" : "utf8";
}

function sha256Of(snap: PreviewSnapshot): string {
  // Inline results are held whole in the tap's head.
  return createHash("sha256").update(snap.head).update(snap.tail).digest("hex");
}
