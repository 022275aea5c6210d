/**
 * What every `spool mcp` tool is made of: a name, a description, an input shape and an
 * output schema, and a handler that calls the typed function its CLI command calls
 * (`ops/`) on the server's store (`ToolContext.store`) and turns the typed result into a
 * tool result within its byte budget. Only `run` and `start`, which launch captures, run
 * their CLI command in-process (`ToolContext.call`).
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { CaptureStore, StoreRef } from "@spool/core";
import { z } from "zod";
import { MIN_RESULT_BYTES } from "../result-budget.js";

/** What `spool mcp` was started with. */
export interface McpServerOptions {
  /** The spool root (else the CLI's default). */
  readonly root: string | undefined;
  /** Most bytes of any tool result. */
  readonly maxResultBytes: number;
  /** run/start only these argv[0] (empty: any). */
  readonly allowCmd: readonly string[];
  /** never these argv[0] (or base names). */
  readonly denyCmd: readonly string[];
  /** Commands run only here or below (null: anywhere). */
  readonly confineCwd: string | null;
  /** Only these tools (default all), and no resources: what `mcp-proxy` adds to a server. */
  readonly only?: readonly string[];
  /** Put before each tool's name (`mcp-proxy` uses `spool_`). @default "" */
  readonly prefix?: string;
}

/** What a tool's handler may use: the server's options, its store, and the CLI's commands. */
export interface ToolContext {
  readonly options: McpServerOptions;
  /** The server's working directory. */
  readonly cwd: string;
  /** The store of the server's root, opened for this call (`store-choice.ts`). */
  store(): CaptureStore;
  /** The environment commands run with (`run`, `start`). */
  readonly env: NodeJS.ProcessEnv;
  /** A call's byte budget: its `max_bytes` (default 16 KiB) within `--max-result-bytes`. */
  budget(maxBytes: number | undefined): number;
}

/** One tool of `spool mcp`. */
/** What a client may assume of a tool (MCP tool annotations). */
export interface ToolHints {
  /** It changes nothing (reads only). */
  readonly readOnlyHint: boolean;
  /** It may destroy or stop something (a command it runs, a job it kills). */
  readonly destructiveHint: boolean;
  /** It reaches outside spool's own captures (runs a command). */
  readonly openWorldHint: boolean;
}

export interface McpTool<I extends z.ZodRawShape = z.ZodRawShape> {
  readonly name: string;
  /** A short human name. */
  readonly title: string;
  readonly annotations: ToolHints;
  readonly description: string;
  readonly input: I;
  readonly output: z.ZodType;
  /** `signal` aborts when the client cancels the call (or gives up on it). */
  handle(
    context: ToolContext,
    args: z.infer<z.ZodObject<I>>,
    signal?: AbortSignal,
  ): Promise<CallToolResult>;
}

/** A REF resolved in the server's store: the capture, the stream it names, and the store. */
export async function locateRef(
  context: Pick<ToolContext, "store">,
  ref: string,
): Promise<StoreRef & { readonly store: CaptureStore }> {
  const store = context.store();
  return { ...(await store.resolve(ref)), store };
}

/** A tool with its argument type checked here, kept in a list of tools of any shape. */
export function defineTool<I extends z.ZodRawShape>(tool: McpTool<I>): McpTool {
  return tool as unknown as McpTool;
}

/** The argument naming a capture, shared by every tool that reads one. */
export const refArg = z
  .string()
  .min(1)
  .describe("a capture id, a --call-id, or a ref (path) printed by spool");
export const streamArg = z
  .enum(["stdout", "stderr"])
  .optional()
  .describe("the stream (default: stdout)");
export const maxBytesArg = z
  .number()
  .int()
  .min(MIN_RESULT_BYTES)
  .optional()
  .describe("most bytes of this result (default 16384, at most the server's --max-result-bytes)");

/** The result of a tool that returns a command's text. */
export const TextResultSchema = z.object({
  bytes: z.number().int().describe("bytes of the command's output"),
  clipped: z.boolean().describe("true if the text shown is only part of it"),
});

/** Hints of the tools that only read captures. */
export const READS: ToolHints = {
  readOnlyHint: true,
  destructiveHint: false,
  openWorldHint: false,
};
