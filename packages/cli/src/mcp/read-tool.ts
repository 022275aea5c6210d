/**
 * The `spool mcp` `read` tool: one bounded page of a capture's committed bytes (from an
 * offset, lines A:B, or a named cursor), and the page shape `spool://` resources share.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { SpoolError } from "@spool/core";
import { z } from "zod";
import { fitPage } from "../result-budget.js";
import { defineTool, maxBytesArg, refArg, streamArg, type ToolContext } from "./tool.js";

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

/** The `read --json` frame. */
export interface ReadFrame {
  captureId: string;
  stream: "stdout" | "stderr";
  offset: number;
  nextOffset: number;
  committed: number;
  running: boolean;
  eof: boolean;
  text?: string;
  base64?: string;
}

type FrameOf = (more: string[]) => Promise<ReadFrame>;

export const readTool = defineTool({
  name: "read",
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
    const frameOf = readFrames(context, args.ref, args.stream);
    const length = String(Math.min(args.length ?? budget, budget));
    if (args.cursor !== undefined) {
      if (args.offset !== undefined || args.lines !== undefined)
        throw new SpoolError("SPOOL_E_USAGE", "mcp", "cursor excludes offset and lines");
      return readAtCursor(frameOf, args.cursor, length, budget);
    }
    const more =
      args.lines !== undefined
        ? ["--lines", args.lines]
        : [
            ...(args.offset === undefined ? [] : ["--offset", String(args.offset)]),
            "--length",
            length,
          ];
    // A page of lines A:B that fits is the answer as it is: no pager line.
    return readPage(await frameOf(more), budget, args.lines === undefined);
  },
});

/** `spool read REF --json [--stream S] MORE…` as a function of MORE. */
function readFrames(context: ToolContext, ref: string, stream: string | undefined): FrameOf {
  const head = [ref, "--json", ...(stream ? ["--stream", stream] : [])];
  return async (more) =>
    JSON.parse((await context.call("read", [...head, ...more])).stdout.toString()) as ReadFrame;
}

/**
 * The page at a named cursor. The page is cut to fit the budget after it is read, so the
 * cursor must move only past what the client gets: where it stands (a read of 0 bytes),
 * the page from there, then the cursor advanced by exactly the page.
 */
async function readAtCursor(
  frameOf: FrameOf,
  cursor: string,
  length: string,
  budget: number,
): Promise<CallToolResult> {
  const at = (await frameOf(["--cursor", cursor, "--length", "0"])).offset;
  const page = readPage(await frameOf(["--offset", String(at), "--length", length]), budget);
  const next = (page.structuredContent as { nextOffset: number }).nextOffset;
  await frameOf(["--cursor", cursor, "--length", String(next - at)]);
  return page;
}

/** A read page cut to the budget on a character boundary; nextOffset follows the cut. */
export function readPage(frame: ReadFrame, budget: number, pager = true): CallToolResult {
  const binary = frame.base64 !== undefined;
  const bytes = binary
    ? Buffer.from(frame.base64 ?? "", "base64")
    : Buffer.from(frame.text ?? "", "utf8");
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
  return fitPage(bytes, budget, build).result;
}
