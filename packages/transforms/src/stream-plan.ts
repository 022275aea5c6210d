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
  type PreviewBudget,
  SpoolError,
  type Stage,
  type StreamName,
  type StreamPlan,
} from "@spool/core/runtime";
import { ANSI_STRIP, createAnsiStrip } from "./ansi-strip.js";
import { createPreviewTap, PREVIEW_TAP, previewTapBudget } from "./preview-tap.js";
import { createPreviewFeed } from "./redacted-preview.js";
import { REDACTOR } from "./redactor.js";
import { createUtf8Decoder, UTF8_DECODER } from "./utf8-decoder.js";

/**
 * What {@link createStreamPlan} takes: the preview budget, the redactor (or null), and your
 * own stages, which run after the redactor and before the tap.
 *
 * @category stages
 * @example
 * ```ts
 * import { DEFAULT_PREVIEW_BUDGET } from "@spool/core";
 * import { createRedactor, createStreamPlan, type StreamPlanOptions } from "@spool/transforms";
 * const options: StreamPlanOptions = { preview: { budget: DEFAULT_PREVIEW_BUDGET, stream: "stdout" }, redactor: createRedactor() };
 * const plan = createStreamPlan(options);
 * ```
 */
export interface StreamPlanOptions {
  /**
   * The preview budget, one for the whole capture: the one a capture hands its `plan`,
   * and the stream, and the tap derives its size from it (nothing to keep in step).
   * Either this or `previewChars`.
   */
  readonly preview?: { readonly budget: PreviewBudget; readonly stream: StreamName };
  /** The preview budget of this stream in characters, when not given as `preview`. */
  readonly previewChars?: number;
  /** The redactor stage; null to capture without redaction (`--no-redact`). */
  readonly redactor: Stage | null;
  /** Strip ANSI escape sequences before redacting. @default true */
  readonly stripAnsi?: boolean;
  /** Stages run after the redactor and before the tap. @default [] */
  readonly stages?: readonly Stage[];
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
 * The default plan, in the one order the checker accepts: decoder → ANSI strip (unless
 * `stripAnsi: false`) → redactor (unless `null`) → your `stages` → the preview tap, sized
 * from the capture's preview budget.
 *
 * @category stages
 * @example
 * ```ts
 * import { DEFAULT_PREVIEW_BUDGET, startCapture } from "@spool/core";
 * import { createMemorySpool } from "@spool/sinks";
 * import { createRedactor, createStreamPlan } from "@spool/transforms";
 * startCapture({
 *   command: "make", args: ["test"], root: "/tmp/spools", spool: createMemorySpool().factory,
 *   preview: DEFAULT_PREVIEW_BUDGET, // given once: the capture hands it to `plan`
 *   plan: (stream, budget) => createStreamPlan({ preview: { budget, stream }, redactor: createRedactor() }),
 * });
 * ```
 */
export function createStreamPlan(options: StreamPlanOptions): StreamPlan {
  const binary = options.binary ?? false;
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
  if (options.redactor) stages.push(options.redactor);
  stages.push(...(options.stages ?? []));
  const plan: StreamPlan = binary ? { stages, tap, representation: "binary" } : { stages, tap };
  checkStreamPlan(plan, { redaction: options.redactor !== null });
  return plan;
}

/**
 * Refuse (`SPOOL_E_PLAN`) a plan that redacts before a built-in transform that joins
 * bytes, that has no redactor while redaction is on, or whose preview tap is not last.
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
  if (options.redaction && redactorAt < 0) {
    throw new SpoolError(
      "SPOOL_E_PLAN",
      "stream-plan",
      "redaction is on but the plan has no redactor",
    );
  }
  if (redactorAt >= 0) {
    const joiner = names.findIndex((name, i) => i > redactorAt && JOINERS.has(name));
    if (joiner >= 0) {
      throw new SpoolError(
        "SPOOL_E_PLAN",
        "stream-plan",
        `${names[joiner]} runs after the redactor and can join a secret split by what it removes: put it before the redactor`,
      );
    }
    const decoderAt = names.indexOf(UTF8_DECODER);
    if (decoderAt > redactorAt) {
      throw new SpoolError(
        "SPOOL_E_PLAN",
        "stream-plan",
        "the decoder must run before the redactor",
      );
    }
  }
  if (names.includes(PREVIEW_TAP)) {
    throw new SpoolError(
      "SPOOL_E_PLAN",
      "stream-plan",
      "the preview tap goes in `tap`, after every stage",
    );
  }
}

/** This stream's preview characters, from the capture's budget or as given. */
function previewCharsOf(options: StreamPlanOptions): number {
  const { preview, previewChars } = options;
  if (preview !== undefined && previewChars === undefined) {
    return preview.stream === "stdout" ? preview.budget.stdoutChars : preview.budget.stderrChars;
  }
  if (preview === undefined && previewChars !== undefined) return previewChars;
  throw new SpoolError(
    "SPOOL_E_OPTIONS",
    "stream-plan",
    "give the preview budget once: either `preview: { budget, stream }` or `previewChars`",
  );
}

/** Built-in stages that remove bytes between others and so can join a split token. */
const JOINERS = new Set([ANSI_STRIP]);
