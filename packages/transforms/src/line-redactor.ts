/**
 * The redactor for a command whose output is itself a secret (`op read …`, `gcloud secrets
 * versions access …`, `security find-generic-password -w`: see `printsSecret`): every line
 * becomes one `[REDACTED:<rule>]`, whatever its bytes, and the line feeds stay, so the
 * output keeps its line count and nothing of a value does. Nothing is held: a line's marker
 * goes out with its first byte and the rest of the line is swallowed as it comes, so the
 * output is the same however the input is split (the only state between chunks is whether a
 * line is open). Counted as the rules' redactions are (`redactedBytes`, `markerBytes`).
 *
 * @example
 * ```ts
 * import { runStage } from "@spool/core";
 * import { createLineRedactor } from "@spool/transforms";
 * runStage(createLineRedactor(), [Buffer.from("hunter2-prod\n\nsecond\n")]).toString();
 * // "[REDACTED:command-output]\n\n[REDACTED:command-output]\n"
 * ```
 */
import { DEFAULT_REDACTION_WINDOW } from "./compile-redaction.js";
import { markedPiece } from "./redaction-markers.js";
import { REDACTOR, type RedactorStage } from "./redactor.js";

/** The marker's rule name for a command's whole output. */
export const COMMAND_OUTPUT_RULE = "command-output";

/**
 * A {@link RedactorStage} that redacts every line whole (see the file comment).
 *
 * @category redaction
 * @example
 * ```ts
 * import { createLineRedactor, createStreamPlan } from "@spool/transforms";
 * const plan = createStreamPlan({ previewChars: 4000, redactor: createLineRedactor() });
 * ```
 */
export function createLineRedactor(rule: string = COMMAND_OUTPUT_RULE): RedactorStage {
  return new LineRedactor(rule);
}

const LF = 0x0a;

class LineRedactor implements RedactorStage {
  readonly name = REDACTOR;
  readonly transform = "redact";
  readonly window = DEFAULT_REDACTION_WINDOW;
  readonly held = 0;
  readonly counters = { redactions: 0, omissions: 0, redactedBytes: 0, markerBytes: 0 };
  readonly scanCounters = { filterStops: 0, anchorStarts: 0 };
  private readonly marker: Buffer;
  /** The current line's marker is out: its bytes are swallowed up to its line feed. */
  private inLine = false;

  constructor(private readonly rule: string) {
    this.marker = Buffer.from(`[REDACTED:${rule}]`, "latin1");
  }

  get namedCounters(): Readonly<Record<string, number>> {
    return this.counters.redactions > 0 ? { [this.rule]: this.counters.redactions } : {};
  }

  push(batch: readonly Uint8Array[]): Uint8Array[] {
    const parts: Uint8Array[] = [];
    const ranges: number[] = [];
    let size = 0;
    const counters = this.counters;
    for (const chunk of batch) {
      for (let at = 0; at < chunk.length; ) {
        const feed = chunk.indexOf(LF, at);
        const end = feed < 0 ? chunk.length : feed;
        if (end > at) {
          if (!this.inLine) {
            ranges.push(size, size + this.marker.byteLength);
            parts.push(this.marker);
            size += this.marker.byteLength;
            counters.redactions++;
            counters.markerBytes += this.marker.byteLength;
            this.inLine = true;
          }
          counters.redactedBytes += end - at;
        }
        if (feed < 0) break;
        let after = feed + 1;
        while (after < chunk.length && chunk[after] === LF) after++;
        parts.push(chunk.subarray(feed, after));
        size += after - feed;
        this.inLine = false;
        at = after;
      }
    }
    if (parts.length === 0) return [];
    // One piece a push, its markers registered as ranges of it (see redaction-markers.ts).
    return [markedPiece(Buffer.concat(parts, size), ranges)];
  }

  end(): Uint8Array[] {
    return [];
  }
}
