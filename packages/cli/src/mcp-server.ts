/**
 * `spool mcp`: the spool commands as MCP tools over stdio. Every reader tool calls the
 * typed function its CLI command calls (`ops/`), on the store of the server's root
 * (`store-choice.ts`), and turns the typed result into a tool result: the text a person
 * would read (the preview and status line of `spool run`) plus `structuredContent`
 * checked against an `outputSchema` (the receipt schema, the listing's schema). `run`
 * and `start` call the typed functions `spool run` and `spool start` call (`ops/run-capture.ts`). Every result fits its
 * byte budget (`max_bytes`, default 16 KiB, at most `--max-result-bytes`); `read` and
 * `grep` page with a next offset. Captures are resources `spool://ID/STREAM{?offset}`.
 * Each tool is one module in `mcp/`; this file registers them.
 */
import { realpathSync } from "node:fs";
import * as path from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { CommandInput } from "./args.js";
import { errorText } from "./collected-io.js";
import type { MCP } from "./commands.js";
import type { Io } from "./io.js";
import { grepTool } from "./mcp/grep-tool.js";
import { killTool, lsTool } from "./mcp/job-tools.js";
import { readTool } from "./mcp/read-tool.js";
import { runTool, startTool, statusTool, waitTool } from "./mcp/receipt-tools.js";
import { registerCaptureResources } from "./mcp/resources.js";
import { tailTool } from "./mcp/tail-tool.js";
import type { McpServerOptions, McpTool, ToolContext } from "./mcp/tool.js";
import { resultBudget } from "./result-budget.js";
import { openStore } from "./store-choice.js";

export type { McpServerOptions } from "./mcp/tool.js";

/** Every tool, in the order `tools/list` shows them. */
const TOOLS: readonly McpTool[] = [
  runTool,
  startTool,
  statusTool,
  waitTool,
  readTool,
  tailTool,
  grepTool,
  killTool,
  lsTool,
];

export async function mcpCommand(parsed: CommandInput<typeof MCP>, io: Io): Promise<number> {
  const o = parsed.options;
  const server = createSpoolMcpServer(
    {
      root: o.root,
      maxResultBytes: o["max-result-bytes"],
      allowCmd: o["allow-cmd"],
      denyCmd: o["deny-cmd"],
      confineCwd:
        o["confine-cwd"] === undefined
          ? null
          : realpathSync(path.resolve(io.cwd, o["confine-cwd"])),
    },
    io,
  );
  await serveStdio(server);
  return 0;
}

/** Serve `server` on this process's stdin/stdout until the client goes away. */
export async function serveStdio(server: McpServer): Promise<void> {
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  answerUnreadable(transport);
  await closed;
  await server.close();
}

/**
 * The SDK's transport drops a line that is not JSON, or not a JSON-RPC message, and only
 * reports it; JSON-RPC asks for an error with a null id (-32700 parse error, -32600 invalid
 * request), so the client is not left waiting. The server goes on reading.
 */
function answerUnreadable(transport: StdioServerTransport): void {
  const report = transport.onerror;
  transport.onerror = (error: Error) => {
    const code = error instanceof SyntaxError ? -32700 : error.name === "ZodError" ? -32600 : null;
    if (code !== null) {
      const message = code === -32700 ? "Parse error" : "Invalid Request";
      void transport.send({ jsonrpc: "2.0", id: null, error: { code, message } } as never);
    }
    report?.(error);
  };
}

/**
 * The `spool mcp` server (not yet connected): its tools and resources.
 *
 * Its tools read captures through `io.openStore` when given (else the file store of
 * `options.root`).
 *
 * @example
 * const server = createSpoolMcpServer({ root, maxResultBytes: 1 << 20, allowCmd: [], denyCmd: [], confineCwd: null }, processIo);
 * await serveStdio(server);
 */
export function createSpoolMcpServer(
  options: McpServerOptions,
  io: Pick<Io, "cwd" | "env" | "openStore">,
): McpServer {
  const server = new McpServer(
    { name: "spool", version: "0.1.0" },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  // Commands this server runs must not write the benchmarks' usage file of the server.
  const env = { ...io.env, SPOOL_RUSAGE_FILE: undefined };
  const context: ToolContext = {
    options,
    cwd: io.cwd,
    // Opened per call, as each command did: the root may not exist until the first `run`.
    store: () => openStore(io, options.root),
    env,
    budget: (maxBytes) => resultBudget(maxBytes, options.maxResultBytes),
  };
  for (const tool of TOOLS)
    if ((options.only ?? [tool.name]).includes(tool.name)) registerTool(server, context, tool);
  if (options.only === undefined) registerCaptureResources(server, context);
  return server;
}

/** What the server tells a client's model once, at `initialize`. */
export const INSTRUCTIONS = [
  "spool runs commands with their output captured to private files; every result is bounded (max_bytes, default 16 KiB).",
  "run answers with the preview (head, tail, the final error) and a status line as text, and the receipt (refs, byte counts, states) as structured content.",
  "The rest of any output is one call away: read (by offset, lines A:B or a named cursor that continues where it stopped), tail, grep (LINE:OFFSET:TEXT; pass an OFFSET to read). Follow the next offset a page names; never re-run a command to see more.",
  "A command that may outlast your client's tool timeout: give run a background_after (seconds) or use start, then status, wait, read, tail and kill on the job. A cancelled run stops its whole process group.",
].join("\n");

/** `tool` on `server` under the server's prefix; a thrown error is the tool's error result. */
function registerTool(server: McpServer, context: ToolContext, tool: McpTool): void {
  server.registerTool(
    `${context.options.prefix ?? ""}${tool.name}`,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: tool.input,
      outputSchema: tool.output,
      annotations: tool.annotations,
    },
    (async (args: Parameters<McpTool["handle"]>[1], extra: { signal?: AbortSignal }) => {
      try {
        return await tool.handle(context, args, extra?.signal);
      } catch (error) {
        return { isError: true, content: [{ type: "text", text: errorText(tool.name, error) }] };
      }
    }) as never,
  );
}

/** `io`'s command runner, if it has one, as a field to spread. */
