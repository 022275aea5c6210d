/**
 * The `spool mcp` `tail` tool: the last lines of a stream, the start cut to the budget.
 * The tailing is `tailCapture` (`ops/tail-capture.ts`), the function `spool tail` calls.
 */
import { z } from "zod";
import { tailCapture } from "../ops/tail-capture.js";
import { fitPage } from "../result-budget.js";
import {
  defineTool,
  locateRef,
  maxBytesArg,
  READS,
  refArg,
  streamArg,
  TextResultSchema,
} from "./tool.js";

export const tailTool = defineTool({
  name: "tail",
  title: "Last lines of a stream",
  annotations: READS,
  description:
    "The last lines of a capture's stream (bounded: the start is cut if they do not fit).",
  input: {
    ref: refArg,
    stream: streamArg,
    lines: z.number().int().min(0).optional().describe("how many lines (default 10)"),
    max_bytes: maxBytesArg,
  },
  output: TextResultSchema,
  async handle(context, args) {
    const budget = context.budget(args.max_bytes);
    const { store, captureId, stream } = await locateRef(context, args.ref);
    const chunks: Buffer[] = [];
    // Only the last `budget` bytes can be shown: no more are held.
    const { start, end } = await tailCapture(
      store,
      {
        captureId,
        stream: args.stream ?? stream ?? "stdout",
        lines: args.lines ?? 10,
        maxBytes: budget,
      },
      (chunk) => chunks.push(chunk),
    );
    const bytes = Buffer.concat(chunks);
    const { result } = fitPage(
      bytes,
      budget,
      (page) => ({
        content: [{ type: "text" as const, text: page.toString("utf8") }],
        structuredContent: { bytes: end - start, clipped: page.length < end - start },
      }),
      "end",
    );
    return result;
  },
});
