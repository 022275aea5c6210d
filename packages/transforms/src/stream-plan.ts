/**
 * The stage order of a stream, the one place it is decided (the CLI builds its plans
 * here too), and checked when a plan is built by hand: decoder → ANSI strip → redactor →
 * user stages → preview tap; a binary stream (`--binary keep`) has no decoder and no
 * ANSI strip: redactor → user stages → preview tap. The redactor must
 * see bytes after every built-in transform that can join bytes (the ANSI strip removes an
 * escape sequence and joins what was on either side: a token split by a colour code is
 * whole only after it), and a plan with redaction on must have a redactor.
 *
 * @example
 * ```ts
 * import { createStreamPlan, createRedactor } from "@spool/transforms";
 * const plan = createStreamPlan({ previewChars: 4000, redactor: createRedactor() });
 * plan.stages.map((s) => s.name); // ["utf8-decoder", "ansi-strip", "redactor"]
 * ```
 */
import {
  type Batch,
  DEFAULT_PREVIEW_BUDGET,
  type PreviewBudget,
  SpoolError,
  type Stage,
  type StreamName,
  type StreamPlan,
} from "@spool/core/runtime";
import { ANSI_STRIP, createAnsiStrip } from "./ansi-strip.js";
import { createPreviewTap, PREVIEW_TAP, previewTapBudget } from "./preview-tap.js";
import { createPreviewFeed } from "./redacted-preview.js";
import { createRedactor, REDACTOR } from "./redactor.js";
import { createUtf8Decoder, UTF8_DECODER } from "./utf8-decoder.js";

/**
 * What {@link createStreamPlan} takes, every field optional: the preview budget, the
 * redactor, your stages (before the redactor: what they emit is redacted) and your
 * observers (after it: they see redacted bytes and hand them on unchanged).
 *
 * @category stages
 * @example
 * ```ts
 * import { DEFAULT_PREVIEW_BUDGET } from "@spool/core";
 * import { createStreamPlan, type StreamPlanOptions } from "@spool/transforms";
 * const options: StreamPlanOptions = { preview: { budget: DEFAULT_PREVIEW_BUDGET, stream: "stdout" } };
 * const plan = createStreamPlan(options);
 * ```
 */
export interface StreamPlanOptions {
  /**
   * The preview budget, one for the whole capture: the one a capture hands its `plan`,
   * and the stream, and the tap derives its size from it (nothing to keep in step).
   * Either this or `previewChars`. @default the stdout share of `DEFAULT_PREVIEW_BUDGET`
   */
  readonly preview?: { readonly budget: PreviewBudget; readonly stream: StreamName };
  /** The preview budget of this stream in characters, when not given as `preview`. */
  readonly previewChars?: number;
  /** The redactor stage; null to capture without redaction (`--no-redact`). @default createRedactor() */
  readonly redactor?: Stage | null;
  /** Strip ANSI escape sequences before redacting. @default true */
  readonly stripAnsi?: boolean;
  /**
   * Your stages, run after the decoder and the ANSI strip and before the redactor, so the
   * redactor sees what they emit: a stage that joins bytes (drops `\r`, a separator) cannot
   * re-join a token behind it, and the redactor's markers never pass through them.
   * @default []
   */
  readonly stages?: readonly Stage[];
  /**
   * Stages run after the redactor, before the tap, that only watch (a live view, a
   * tally): each must hand on the very bytes it is given, or the capture stops that stream
   * with `stage-error` ({@link observeOnly} wraps each).
   * @default []
   */
  readonly observers?: readonly Stage[];
  /**
   * Keep the stream's raw bytes (`--binary keep`): no decoder and no ANSI strip (the
   * redactor works on bytes, so it still applies), a tap that describes the bytes instead
   * of showing them, and representation `binary`.
   * @default false
   */
  readonly binary?: boolean;
  /**
   * With `binary`: a redactor for the preview alone, so the stream is stored as it came
   * (only `redactor`'s changes, e.g. known values) while the preview, which a person or a
   * model reads, is redacted by every rule. @default none (the preview shows the stream)
   */
  readonly previewRedactor?: Stage | null;
}

/**
 * The plan, in the one order the checker accepts: decoder → ANSI strip (unless
 * `stripAnsi: false`) → your `stages` → redactor (unless `null`) → your `observers` → the
 * preview tap, sized from the capture's preview budget. With no options it is the
 * default plan every capture gets when it is given none.
 *
 * @category stages
 * @example
 * ```ts
 * import { captureSource } from "@spool/sinks";
 * import { createStreamPlan } from "@spool/transforms";
 * declare const body: ReadableStream<Uint8Array>;
 * captureSource(body, { plan: (stream, budget) => createStreamPlan({ preview: { budget, stream }, stripAnsi: false }) });
 * ```
 */
export function createStreamPlan(options: StreamPlanOptions = {}): StreamPlan {
  const binary = options.binary ?? false;
  const redactor = options.redactor === undefined ? createRedactor() : options.redactor;
  const stages: Stage[] = [];
  let tap = createPreviewTap({ ...previewTapBudget(previewCharsOf(options)), binary });
  if (binary && options.previewRedactor) {
    // The preview meets every rule on the bytes as they came; storage gets them raw.
    const preview = createPreviewFeed(options.previewRedactor, tap);
    stages.push(preview.feed);
    tap = preview.tap;
  }
  if (!binary) stages.push(createUtf8Decoder());
  // ANSI first: colour codes inside a secret must not hide it from the redactor.
  if (!binary && (options.stripAnsi ?? true)) stages.push(createAnsiStrip());
  stages.push(...(options.stages ?? []));
  if (redactor) stages.push(redactor);
  stages.push(...(options.observers ?? []).map(observeOnly));
  const plan: StreamPlan = binary ? { stages, tap, representation: "binary" } : { stages, tap };
  checkStreamPlan(plan, { redaction: redactor !== null });
  return plan;
}

/**
 * Refuse (`SPOOL_E_PLAN`) a plan that redacts before a built-in transform that joins
 * bytes or before the decoder, that has a stage after the redactor that is not an
 * observer ({@link observeOnly}: one that changes bytes there could join a secret the
 * redactor split, and would hide the redactor's markers), that has no redactor while
 * redaction is on, or whose preview tap is not last. A capture runs it on every plan.
 *
 * @category stages
 * @example
 * ```ts
 * import { checkStreamPlan, createRedactor, createAnsiStrip, createPreviewTap, previewTapBudget } from "@spool/transforms";
 * const tap = createPreviewTap(previewTapBudget(100));
 * checkStreamPlan({ stages: [createRedactor(), createAnsiStrip()], tap }, { redaction: true }); // throws SPOOL_E_PLAN
 * ```
 */
export function checkStreamPlan(
  plan: Pick<StreamPlan, "stages" | "tap">,
  options: { readonly redaction: boolean },
): void {
  const names = plan.stages.map((stage) => stage.name);
  const redactorAt = names.indexOf(REDACTOR);
  if (options.redaction && redactorAt < 0)
    refusePlan("redaction is on but the plan has no redactor");
  if (names.includes(PREVIEW_TAP)) refusePlan("the preview tap goes in `tap`, after every stage");
  if (redactorAt < 0) return;
  const joiner = names.findIndex((name, i) => i > redactorAt && JOINERS.has(name));
  if (joiner >= 0) {
    refusePlan(
      `${names[joiner]} runs after the redactor and can join a secret split by what it removes: put it before the redactor`,
    );
  }
  if (names.indexOf(UTF8_DECODER) > redactorAt)
    refusePlan("the decoder must run before the redactor");
  const after = plan.stages.findIndex(
    (stage, i) => i > redactorAt && stage.name !== REDACTOR && !OBSERVERS.has(stage),
  );
  if (after >= 0) {
    refusePlan(
      `stage "${names[after]}" runs after the redactor and may change bytes there (joining a secret the redactor split, hiding its markers): put it in \`stages\` (before the redactor), or make it an observer with observeOnly()`,
    );
  }
}

/**
 * `stage` as an observer, allowed after the redactor: it must hand on the very chunks it
 * is given (it may read them, count, show them). Handing on anything else throws, which
 * stops the stream with `stage-error`.
 *
 * @category stages
 * @example
 * ```ts
 * import type { Stage } from "@spool/core";
 * import { createStreamPlan, observeOnly } from "@spool/transforms";
 * let bytes = 0;
 * const tally: Stage = { name: "tally", held: 0, push: (batch) => { for (const c of batch) bytes += c.byteLength; return [...batch]; }, end: () => [] };
 * createStreamPlan({ observers: [tally] }); // observeOnly is applied for you
 * observeOnly(tally).push([Buffer.from("x")]);
 * ```
 */
export function observeOnly(stage: Stage): Stage {
  if (OBSERVERS.has(stage)) return stage;
  const observer: Stage = Object.create(stage, {
    push: {
      value: (batch: Batch) => {
        const out = stage.push(batch);
        if (out.length !== batch.length || out.some((chunk, i) => chunk !== batch[i])) {
          throw new SpoolError(
            "SPOOL_E_PLAN",
            stage.name,
            "an observer after the redactor must hand on the chunks it is given, unchanged",
          );
        }
        return out;
      },
    },
    end: {
      value: () => {
        if (stage.end().length > 0) {
          throw new SpoolError("SPOOL_E_PLAN", stage.name, "an observer holds nothing to end with");
        }
        return [];
      },
    },
  });
  OBSERVERS.add(observer);
  return observer;
}

function refusePlan(message: string): never {
  throw new SpoolError("SPOOL_E_PLAN", "stream-plan", message);
}

/** Stages wrapped by {@link observeOnly}. */
const OBSERVERS = new WeakSet<Stage>();

/** This stream's preview characters, from the capture's budget or as given. */
function previewCharsOf(options: StreamPlanOptions): number {
  const { preview, previewChars } = options;
  if (preview !== undefined && previewChars === undefined) {
    return preview.stream === "stdout" ? preview.budget.stdoutChars : preview.budget.stderrChars;
  }
  if (preview === undefined && previewChars !== undefined) return previewChars;
  if (preview === undefined && previewChars === undefined)
    return DEFAULT_PREVIEW_BUDGET.stdoutChars;
  throw new SpoolError(
    "SPOOL_E_OPTIONS",
    "stream-plan",
    "give the preview budget once: either `preview: { budget, stream }` or `previewChars`",
  );
}

/** Built-in stages that remove bytes between others and so can join a split token. */
const JOINERS = new Set([ANSI_STRIP]);
