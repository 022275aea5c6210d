/**
 * When a capture needs storage, decided from byte counts alone (never by rendering the
 * preview): while running, as soon as the produced bytes outgrow the preview budget; at
 * the end, unless every byte fits the preview whole, as itself, and the capture is
 * complete (the small-result path, which writes nothing).
 *
 * A stream fits whole when its tap holds all of it and it is text: a UTF-8 character is
 * at least one byte, so bytes within a stream's character budget are within it, and the
 * bodies plus the layout's own bytes must fit the byte ceiling. A binary-looking stream
 * is previewed as an escaped description, not as itself, so it is stored; so is text with
 * control characters or a look-alike of spool's markers, which the preview escapes.
 *
 * @example
 * ```ts
 * import { outgrowsPreview, DEFAULT_PREVIEW_BUDGET } from "@spool/core";
 * outgrowsPreview({ stdout: 9000, stderr: 0 }, DEFAULT_PREVIEW_BUDGET); // true
 * ```
 */
import { type PreviewBudget, previewLayoutBytes } from "./preview.js";
import { STREAM_NAMES, type StreamName } from "./receipt-vocabulary.js";

/**
 * What the end-of-capture decision ({@link keepsInline}) looks at for one stream.
 *
 * @category capture
 * @example
 * ```ts
 * import type { StreamSize } from "@spool/core";
 * const small: StreamSize = { produced: 120, heldWhole: true, binary: false };
 * ```
 */
export interface StreamSize {
  /** Representation bytes the stages emitted. */
  readonly produced: number;
  /** The preview tap holds every produced byte (nothing only counted). */
  readonly heldWhole: boolean;
  /** The preview shows it as an escaped description. */
  readonly binary: boolean;
  /**
   * The preview shows it with escapes (control characters, a look-alike of spool's own
   * text), not as itself. @default false
   */
  readonly escaped?: boolean;
}

/**
 * Whether produced bytes are past a stream's character budget, or past the combined byte
 * ceiling: the moment a running capture opens storage.
 *
 * @category capture
 * @example
 * ```ts
 * import { outgrowsPreview, DEFAULT_PREVIEW_BUDGET } from "@spool/core";
 * outgrowsPreview({ stdout: 9000, stderr: 0 }, DEFAULT_PREVIEW_BUDGET); // true
 * ```
 */
export function outgrowsPreview(
  produced: Readonly<Record<StreamName, number>>,
  budget: PreviewBudget,
): boolean {
  return (
    produced.stdout > budget.stdoutChars ||
    produced.stderr > budget.stderrChars ||
    produced.stdout + produced.stderr > budget.maxBytes
  );
}

/**
 * Whether a finished capture stays on the small-result path (no storage at all): it is
 * complete, and every stream fits the preview whole, as itself.
 *
 * @category capture
 * @example
 * ```ts
 * import { DEFAULT_PREVIEW_BUDGET, keepsInline } from "@spool/core";
 * const none = { produced: 0, heldWhole: true, binary: false };
 * keepsInline({ stdout: { ...none, produced: 3 }, stderr: none }, DEFAULT_PREVIEW_BUDGET, true); // true
 * ```
 */
export function keepsInline(
  streams: Readonly<Record<StreamName, StreamSize>>,
  budget: PreviewBudget,
  complete: boolean,
): boolean {
  if (!complete) return false;
  const out = streams.stdout.produced;
  const err = streams.stderr.produced;
  if (outgrowsPreview({ stdout: out, stderr: err }, budget)) return false;
  const shownAsIs = STREAM_NAMES.every(
    (name) =>
      streams[name].produced === 0 ||
      (streams[name].heldWhole && !streams[name].binary && streams[name].escaped !== true),
  );
  return shownAsIs && out + err + previewLayoutBytes(err) <= budget.maxBytes;
}
