/** The `spool mcp` `tail` tool: the last lines of a stream, the start cut to the budget. */
import { z } from "zod";
import { fitPage } from "../result-budget.js";
import { defineTool, maxBytesArg, refArg, streamArg, TextResultSchema } from "./tool.js";

export const tailTool = defineTool({
  name: "tail",
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
    const argv = [args.ref, "-n", String(args.lines ?? 10)];
    if (args.stream) argv.push("--stream", args.stream);
    const out = await context.call("tail", argv);
    const { result } = fitPage(
      out.stdout,
      budget,
      (page) => ({
        content: [{ type: "text" as const, text: page.toString("utf8") }],
        structuredContent: { bytes: out.stdout.length, clipped: page.length < out.stdout.length },
      }),
      "end",
    );
    return result;
  },
});
