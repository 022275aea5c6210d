/**
 * The `spool mcp` tools over jobs as a whole: `kill` one, `ls` them all. They call
 * `killCapture` and `listCaptureSummaries` (`ops/`), the functions `spool kill` and
 * `spool ls` call, and shape their typed results.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { killCapture, killReport } from "../ops/kill-capture.js";
import { type CaptureSummary, listCaptureSummaries } from "../ops/list-captures.js";
import { resultBytes } from "../result-budget.js";
import { defineTool, locateRef, maxBytesArg, READS, refArg, TextResultSchema } from "./tool.js";

/** A listed capture: its key fields named, the rest as `spool ls --json` gives it. */
const LsEntrySchema = z
  .looseObject({
    captureId: z.string(),
    process: z.string(),
    exitCode: z.number().int().nullable(),
    capture: z.string(),
    startedAt: z.string(),
  })
  .describe("as `spool ls --json`: states, times, committed bytes, refs, job, provenance");

const LsResultSchema = z.object({
  captures: z.array(LsEntrySchema),
  shown: z.number().int(),
  total: z.number().int(),
});

export const killTool = defineTool({
  name: "kill",
  title: "Stop a job",
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  description: "Cancel a job (its process group; SIGKILL after a grace period).",
  input: {
    ref: refArg,
    signal: z.enum(["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGKILL"]).optional(),
  },
  output: TextResultSchema,
  async handle(context, args) {
    const { store, captureId } = await locateRef(context, args.ref);
    const { ok, text: line } = killReport(
      await killCapture(store, captureId, args.signal ?? "SIGTERM"),
    );
    const text = `${line}\n`;
    return {
      isError: !ok,
      content: [{ type: "text", text }],
      structuredContent: { bytes: Buffer.byteLength(text), clipped: false },
    };
  },
});

export const lsTool = defineTool({
  name: "ls",
  title: "List captures",
  annotations: READS,
  description:
    "List the captures in the root, newest last (bounded: the oldest are left out if they do not fit).",
  input: {
    unseen: z
      .boolean()
      .optional()
      .describe("only ended jobs whose completion was not delivered yet (delivers it)"),
    max_bytes: maxBytesArg,
  },
  output: LsResultSchema,
  async handle(context, args) {
    const budget = context.budget(args.max_bytes);
    const { captures } = await listCaptureSummaries(context.store(), {
      unseen: args.unseen === true,
    });
    return lsPage(captures, budget);
  },
});

/** The newest captures that fit the budget, and how many older ones were left out. */
function lsPage(captures: readonly CaptureSummary[], budget: number): CallToolResult {
  const build = (n: number): CallToolResult => {
    const shown = captures.slice(captures.length - n);
    return {
      content: [
        {
          type: "text",
          text:
            shown.map(lsLine).join("\n") +
            (n < captures.length
              ? `\n[spool] ${captures.length - n} older captures not shown`
              : ""),
        },
      ],
      structuredContent: { captures: shown, shown: n, total: captures.length },
    };
  };
  let n = captures.length;
  while (n > 0 && resultBytes(build(n)) > budget)
    n = Math.max(0, Math.min(n - 1, Math.floor(n * 0.8)));
  return build(n);
}

/** `ID  PROCESS-STATE  CAPTURE-STATE  LABEL` (no label: nothing). */
function lsLine(c: CaptureSummary): string {
  return [c.captureId, c.process, c.capture, c.label ?? ""].join("  ");
}
