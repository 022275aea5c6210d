/**
 * Assemble a capture pipeline from built-in stages and one of your own, keep the spool in
 * memory, and watch lifecycle events. Run: `npx tsx examples/custom-pipeline.ts` (from the
 * repository root after the README's set-up; test/examples.test.ts runs that very command).
 */
import { DEFAULT_PREVIEW_BUDGET, type Stage } from "@spool/core";
import { createMemorySpool, startCapture } from "@spool/sinks";
import { createPreviewTap, createUtf8Decoder, previewTapBudget } from "@spool/transforms";

/** A user stage: masks every digit. Byte in, byte out: it holds nothing back. */
function createDigitMask(): Stage & { counters: { redactions: number } } {
  let masked = 0;
  return {
    name: "digit-mask",
    transform: "digit-mask",
    held: 0,
    push: (batch) =>
      batch.map((chunk) => {
        const out = Buffer.from(chunk);
        for (let i = 0; i < out.length; i++) {
          if (out[i]! >= 0x30 && out[i]! <= 0x39) {
            out[i] = 0x23; // '#'
            masked++;
          }
        }
        return out;
      }),
    end: () => [],
    get counters() {
      return { redactions: masked };
    },
  };
}

export async function main() {
  const memory = createMemorySpool();
  const capture = startCapture({
    command: "sh",
    args: ["-c", "echo pin 1234; echo done >&2"],
    root: "/nowhere",
    preview: DEFAULT_PREVIEW_BUDGET,
    redact: false, // this plan has no redactor: say so, or the capture refuses it
    plan: (stream) => ({
      stages: [createUtf8Decoder(), createDigitMask()],
      tap: createPreviewTap(previewTapBudget(stream === "stdout" ? 8192 : 2048)),
    }),
    spool: memory.factory,
  });
  const seen: string[] = [];
  capture.events.subscribe((event) => seen.push(event.type));
  const { receipt, exitStatus } = await capture.done;
  return {
    preview: receipt.preview.text,
    transforms: receipt.streams.stdout.transforms,
    exitStatus,
    events: seen,
  };
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await main(), null, 2));
