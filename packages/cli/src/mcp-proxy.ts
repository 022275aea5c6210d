/**
 * `spool mcp-proxy [options] -- SERVER_CMD [ARGS...]`: a relay of newline-delimited
 * JSON-RPC between an MCP client (our stdin/stdout) and a wrapped stdio MCP server. Every
 * message passes byte for byte, except:
 *
 * - `tools/list` results get `spool_read`, `spool_grep` and `spool_tail` appended (on the
 *   last page), and `initialize` advertises tools; calls to those three are answered here
 *   by `spool mcp`'s own tools (an in-process server on an in-memory transport);
 * - a `tools/call` result is captured (`tool-result-capture.ts`); one whose message is at
 *   most `--budget` bytes is passed on unchanged (and captured after, unless its capture
 *   would keep nothing: `keepsNothing`), a larger one is replaced by its preview, status
 *   line and receipt (`_meta["spool/receipt"]`);
 * - a call the wrapped server never answers (it exited, or `--call-timeout` passed) gets a
 *   JSON-RPC error whose `data.receipt` is the capture of whatever bytes of the answer had
 *   arrived.
 *
 * The relay itself is `mcp/relay.ts`.
 */
import { spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { type CommandInput, usageError } from "./args.js";
import type { MCP_PROXY } from "./commands.js";
import type { Io } from "./io.js";
import { createRelay } from "./mcp/relay.js";
import { createSpoolMcpServer } from "./mcp-server.js";
import { resultBudget } from "./result-budget.js";
import type { ResultCaptureOptions } from "./tool-result-capture.js";

/** The tools the proxy adds, as `spool mcp` defines them. */
const LOCAL_TOOLS = ["read", "grep", "tail"] as const;
const PREFIX = "spool_";

export async function mcpProxyCommand(
  parsed: CommandInput<typeof MCP_PROXY>,
  io: Io,
): Promise<number> {
  const o = parsed.options;
  const [command, ...args] = parsed.rest ?? [];
  if (command === undefined)
    throw usageError("missing -- SERVER_CMD (spool mcp-proxy [options] -- SERVER_CMD [ARGS...])");
  const budget = resultBudget(o.budget, o["max-result-bytes"]);
  const env = { ...io.env, SPOOL_RUSAGE_FILE: undefined };
  const capture: ResultCaptureOptions = {
    root: o.root,
    previewBytes: Math.max(256, Math.floor(budget / 3)),
    io: { cwd: io.cwd, env, ...(io.invoke === undefined ? {} : { invoke: io.invoke }) },
  };
  const local = await localTools(o.root, o["max-result-bytes"], io);
  const upstream = spawn(command, args, {
    cwd: io.cwd,
    env: io.env,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const relay = createRelay({
    upstream,
    local,
    budget,
    callTimeoutMs: o["call-timeout"],
    maxMessageBytes: o["max-message-bytes"],
    capture,
  });
  return relay.done;
}

/** `spool mcp`'s read, grep and tail, served in this process, reached through a client. */
async function localTools(root: string | undefined, maxResultBytes: number, io: Io) {
  const server = createSpoolMcpServer(
    {
      root,
      maxResultBytes,
      allowCmd: [],
      denyCmd: [],
      confineCwd: null,
      only: LOCAL_TOOLS,
      prefix: PREFIX,
    },
    io,
  );
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "spool-mcp-proxy", version: "0.1.0" });
  await Promise.all([server.connect(a), client.connect(b)]);
  const { tools } = await client.listTools();
  return { client, tools, names: new Set(tools.map((t) => t.name)) };
}
