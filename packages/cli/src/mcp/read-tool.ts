/**
 * The `spool mcp` `read` tool: one bounded page of a capture's committed bytes (from an
 * offset, lines A:B, or a named cursor), and the page shape `spool://` resources share.
 * The reading is `readCapture` (`ops/read-capture.ts`), the function `spool read` calls;
 * a cursor page is one call of it that advances the cursor past exactly the page returned.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { SpoolError } from "@spool/core";
import { z } from "zod";
import { parseLineRange, type ReadFrame, type ReadFrom, readCapture } from "../ops/read-capture.js";
import { fitPage } from "../result-budget.js";
import { defineTool, locateRef, maxBytesArg, READS, refArg, streamArg } from "./tool.js";

export const ReadResultSchema = z.object({
  captureId: z.string(),
  stream: z.enum(["stdout", "stderr"]),
  offset: z.number().int(),
  nextOffset: z.number().int().describe("where the next page starts (offset for the next read)"),
  committed: z.number().int(),
  running: z.boolean(),
  eof: z.boolean(),
  encoding: z.enum(["utf8", "base64"]),
});

export const readTool = defineTool({
  name: "read",
  title: "Read a stream",
  annotations: READS,
  description:
    "Committed bytes of a capture's stream, one bounded page: from offset (or lines A:B, or a named cursor); structuredContent.nextOffset is where the next page starts.",
  input: {
    ref: refArg,
    stream: streamArg,
    offset: z.number().int().min(0).optional(),
    length: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("most bytes (the page is also cut to max_bytes)"),
    lines: z.string().optional().describe("A:B, 1-based inclusive lines"),
    cursor: z
      .string()
      .optional()
      .describe("start where this consumer stopped, and advance its cursor"),
    max_bytes: maxBytesArg,
  },
  output: ReadResultSchema,
  async handle(context, args) {
    const budget = context.budget(args.max_bytes);
    if (args.cursor !== undefined && (args.offset !== undefined || args.lines !== undefined))
      throw new SpoolError("SPOOL_E_USAGE", "mcp", "cursor excludes offset and lines");
    const from: ReadFrom =
      args.cursor !== undefined
        ? { cursor: args.cursor }
        : args.lines !== undefined
          ? { lines: parseLineRange(args.lines) }
          : { offset: args.offset ?? 0 };
    // A page of lines A:B that fits is the answer as it is: no pager line.
    const pager = args.lines === undefined;
    const length = pager ? Math.min(args.length ?? budget, budget) : budget;
    const { store, captureId, stream } = await locateRef(context, args.ref);
    const page: { result?: CallToolResult } = {};
    const frame = await readCapture(
      store,
      { captureId, stream: args.stream ?? stream ?? "stdout", from, length },
      {
        // The page is cut to the budget inside the read, so that a cursor moves past
        // exactly what the client gets.
        keep: (read) => {
          const fitted = fitReadPage(read, budget, pager);
          page.result = fitted.result;
          return fitted.page.length;
        },
      },
    );
    return page.result ?? readPage(frame, budget, pager);
  },
});

/** A read page cut to the budget on a character boundary; nextOffset follows the cut. */
export function readPage(frame: ReadFrame, budget: number, pager = true): CallToolResult {
  return fitReadPage(frame, budget, pager).result;
}

function fitReadPage(frame: ReadFrame, budget: number, pager: boolean) {
  const { bytes, binary } = frame;
  const build = (page: Buffer): CallToolResult => {
    const nextOffset = frame.offset + page.length;
    const eof = frame.eof && nextOffset >= frame.committed;
    const body = binary ? page.toString("base64") : page.toString("utf8");
    const trailer =
      eof || (!pager && page.length === bytes.length)
        ? ""
        : `\n[spool] bytes ${frame.offset}–${nextOffset} of ${frame.committed}${frame.running ? " (running)" : ""} · next offset ${nextOffset}`;
    return {
      content: [{ type: "text", text: `${body}${trailer}` }],
      structuredContent: {
        captureId: frame.captureId,
        stream: frame.stream,
        offset: frame.offset,
        nextOffset,
        committed: frame.committed,
        running: frame.running,
        eof,
        encoding: binary ? "base64" : "utf8",
      },
    };
  };
  // Base64 grows by 4/3: fit raw bytes so that the encoded page fits.
  return fitPage(bytes, budget, build);
}
