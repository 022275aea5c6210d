/**
 * The `spool mcp` `grep` tool: matching lines as LINE:OFFSET:TEXT, paged by offset. The
 * search is `grepCapture` (`ops/grep-capture.ts`), the function `spool grep` calls.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { grepCapture } from "../ops/grep-capture.js";
import { resultBytes } from "../result-budget.js";
import { defineTool, locateRef, maxBytesArg, READS, refArg, streamArg } from "./tool.js";

const GrepResultSchema = z.object({
  matches: z.array(
    z.object({ line: z.number().int(), offset: z.number().int(), text: z.string() }),
  ),
  nextOffset: z
    .number()
    .int()
    .nullable()
    .describe("pass as `from` for the next page (null: no more)"),
});

type GrepHit = { line: number; offset: number; text: string };

export const grepTool = defineTool({
  name: "grep",
  title: "Search a stream",
  annotations: READS,
  description:
    "Matching lines of a capture's stream as LINE:OFFSET:TEXT (OFFSET for read). Paged: pass structuredContent.nextOffset as from for the next page.",
  input: {
    ref: refArg,
    pattern: z
      .string()
      .describe(
        "a regular expression in RE2 syntax (linear time: no lookaround, no backreferences)",
      ),
    stream: streamArg,
    from: z.number().int().min(0).optional().describe("only results at this byte offset or later"),
    max: z.number().int().min(1).optional().describe("most matches (default 100)"),
    ignore_case: z.boolean().optional(),
    only_matching: z.boolean().optional(),
    max_columns: z.number().int().min(1).optional(),
    max_bytes: maxBytesArg,
  },
  output: GrepResultSchema,
  async handle(context, args) {
    const budget = context.budget(args.max_bytes);
    const max = args.max ?? 100;
    const { store, captureId, stream } = await locateRef(context, args.ref);
    const all: GrepHit[] = [];
    const request = {
      captureId,
      stream: args.stream ?? stream ?? "stdout",
      pattern: args.pattern,
      ignoreCase: args.ignore_case === true,
      max,
      onlyMatching: args.only_matching === true,
      columns: Math.min(args.max_columns ?? 2048, Math.floor(budget / 4)),
      from: args.from ?? 0,
    };
    await grepCapture(store, request, ({ line, offset, text }) => all.push({ line, offset, text }));
    return grepPage(all, max, budget);
  },
});

/** The matches that fit the budget; the next page starts after the last one shown. */
function grepPage(all: readonly GrepHit[], max: number, budget: number): CallToolResult {
  const build = (n: number): CallToolResult => {
    const shown = all.slice(0, n);
    const more = n < all.length || all.length >= max;
    const last = shown[shown.length - 1];
    const nextOffset = !more
      ? null
      : n < all.length
        ? (all[n] as GrepHit).offset
        : (last?.offset ?? -1) + 1;
    const lines = shown.map((m) => `${m.line}:${m.offset}:${m.text}`);
    if (nextOffset !== null) lines.push(`[spool] more matches: grep again with from ${nextOffset}`);
    if (all.length === 0) lines.push("[spool] no match");
    return {
      content: [{ type: "text", text: lines.join("\n") }],
      structuredContent: { matches: shown, nextOffset },
    };
  };
  let n = all.length;
  while (n > 0 && resultBytes(build(n)) > budget)
    n = Math.max(0, Math.min(n - 1, Math.floor(n * 0.9)));
  return build(n);
}
