/**
 * The preview of a `--binary keep` stream whose stored bytes stay raw: a first stage
 * feeds the bytes as they came, through a redactor of its own (every rule: the preview is
 * text a person or a model reads), to the preview tap, and passes them on unchanged to
 * the stream's own stages (a redactor of known values alone, say). The tap at the end of
 * the plan then only shows what the feed gave it.
 *
 * @example
 * ```ts
 * import { createPreviewTap, createRedactor, previewTapBudget } from "@spool/transforms";
 * import { createPreviewFeed } from "./redacted-preview.js"; // internal to @spool/transforms
 * const { feed, tap } = createPreviewFeed(createRedactor(), createPreviewTap({ ...previewTapBudget(100), binary: true }));
 * feed.push([Buffer.from("PW=q8Zr!x2Lm0Pw\n")]); // returned as given; the preview holds the marker
 * tap.snapshot();
 * ```
 */
import type { PreviewTap, Stage } from "@spool/core/runtime";

/** The name of the feed stage (never the redactor's: the plan's checks are about that one). */
export const PREVIEW_FEED = "preview-redactor";

/** A first stage that shows `shown` what `redactor` makes of the stream, and the tap that reads it. */
export function createPreviewFeed(
  redactor: Stage,
  shown: PreviewTap,
): { readonly feed: Stage; readonly tap: PreviewTap } {
  const feed: Stage = {
    name: PREVIEW_FEED,
    push(batch) {
      const out = redactor.push(batch);
      if (out.length > 0) shown.push(out);
      return batch as Uint8Array[];
    },
    end() {
      const rest = redactor.end();
      if (rest.length > 0) shown.push(rest);
      shown.end();
      return [];
    },
    held: 0,
    window: 0,
  };
  const tap: PreviewTap = {
    name: shown.name,
    push: (batch) => batch as Uint8Array[],
    end: () => [],
    held: 0,
    window: 0,
    snapshot: () => shown.snapshot(),
  };
  return { feed, tap };
}
