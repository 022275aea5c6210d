/** The `spool mcp` tools over jobs as a whole: `kill` one, `ls` them all. */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { resultBytes } from "../result-budget.js";
import { defineTool, maxBytesArg, refArg, TextResultSchema } from "./tool.js";

const LsResultSchema = z.object({
  captures: z.array(z.record(z.string(), z.unknown())),
  shown: z.number().int(),
  total: z.number().int(),
});

export const killTool = defineTool({
  name: "kill",
  description: "Cancel a job (its process group; SIGKILL after a grace period).",
  input: {
    ref: refArg,
    signal: z.enum(["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGKILL"]).optional(),
  },
  output: TextResultSchema,
  async handle(context, args) {
    const out = await context.call("kill", [
      args.ref,
      ...(args.signal ? ["--signal", args.signal] : []),
    ]);
    const text = `${out.stdout.toString()}${out.stderr}`;
    return {
      isError: out.status !== 0,
      content: [{ type: "text", text }],
      structuredContent: { bytes: Buffer.byteLength(text), clipped: false },
    };
  },
});

export const lsTool = defineTool({
  name: "ls",
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
    const out = await context.call("ls", ["--json", ...(args.unseen ? ["--unseen"] : [])]);
    const captures = JSON.parse(out.stdout.toString()) as Record<string, unknown>[];
    return lsPage(captures, budget);
  },
});

/** The newest captures that fit the budget, and how many older ones were left out. */
function lsPage(captures: readonly Record<string, unknown>[], budget: number): CallToolResult {
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

function lsLine(c: Record<string, unknown>): string {
  const p = (c.process ?? {}) as Record<string, unknown>;
  return [c.captureId, p.state ?? c.state, c.capture ?? "", c.label ?? ""]
    .map((v) => (typeof v === "object" ? JSON.stringify(v) : String(v)))
    .join("  ");
}
