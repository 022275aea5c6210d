/**
 * `spool mcp-proxy [options] [--] SERVER_CMD [ARGS...]`: a relay of newline-delimited
 * JSON-RPC between an MCP client (our stdin/stdout) and a wrapped stdio MCP server. Every
 * message passes byte for byte, except:
 *
 * - `tools/list` results get `spool_read`, `spool_grep` and `spool_tail` appended (on the
 *   last page; `--tool-prefix` names them, and one the server has too is left out), and
 *   `initialize` advertises tools; calls to those three are answered here by `spool mcp`'s
 *   own tools (an in-process server on an in-memory transport);
 * - a result of `tools/call`, `tasks/result`, `resources/read` or `prompts/get` is captured
 *   (`tool-result-capture.ts`); one whose message is at most `--budget` bytes is passed on
 *   unchanged (and captured after, unless its capture would keep nothing: `keepsNothing`),
 *   a larger one is replaced by its redacted preview, status line and receipt;
 * - a request the wrapped server never answers (it exited, `--call-timeout` passed, or it
 *   sent a line that is not JSON-RPC) gets a JSON-RPC error whose `data.receipt` is the
 *   capture of the bytes that had arrived.
 *
 * A server that cannot start or that exits ends the proxy (`mcp/relay.ts`), so that the
 * client sees it and can restart it.
 */

import { spawn } from "node:child_process";
import { statSync } from "node:fs";
import * as path from "node:path";
import { type CommandInput, shown, usageError } from "./args.js";
import type { MCP_PROXY } from "./commands.js";
import type { Io } from "./io.js";
import { createRelay, failBeforeStart, START_FAILED, startFailure } from "./mcp/relay.js";
import { resultBudget } from "./result-budget.js";
import type { ResultCaptureOptions } from "./tool-result-capture.js";

/** The tools the proxy adds, as `spool mcp` defines them. */
const LOCAL_TOOLS = ["read", "grep", "tail"] as const;

export async function mcpProxyCommand(
  parsed: CommandInput<typeof MCP_PROXY>,
  io: Io,
): Promise<number> {
  const o = parsed.options;
  const [command, ...args] = parsed.rest ?? [];
  if (command === undefined)
    throw usageError("missing SERVER_CMD (spool mcp-proxy [options] [--] SERVER_CMD [ARGS...])");
  const budget = resultBudget(o.budget, o["max-result-bytes"]);
  const env = { ...io.env, SPOOL_RUSAGE_FILE: undefined };
  const capture: ResultCaptureOptions = {
    root: o.root,
    previewBytes: Math.max(256, Math.floor(budget / 3)),
    io: { cwd: io.cwd, env, ...(io.invoke === undefined ? {} : { invoke: io.invoke }) },
  };
  if (!/^[A-Za-z0-9_.-]*$/.test(o["tool-prefix"]))
    throw usageError(`--tool-prefix ${shown(o["tool-prefix"])}: letters, digits, _ . - only`);
  const cwd = path.resolve(io.cwd, o.cwd ?? ".");
  const cwdProblem = missingDirectory(cwd);
  const status = await (cwdProblem === null
    ? relayTo(command, args, cwd, o, budget, capture, io)
    : failBeforeStart(`${START_FAILED} its working directory ${shown(cwd)} ${cwdProblem}`, 66));
  // Nothing else holds the process: reading stdin ends, and the process exits with status.
  process.stdin.destroy();
  return status;
}

/**
 * Start the server, then load spool's own tools (most of the start-up time: the SDK and
 * the tools' schemas), so that a server that cannot start is reported before they load.
 */
async function relayTo(
  command: string,
  args: string[],
  cwd: string,
  o: CommandInput<typeof MCP_PROXY>["options"],
  budget: number,
  capture: ResultCaptureOptions,
  io: Io,
): Promise<number> {
  const upstream = spawn(command, args, { cwd, env: io.env, stdio: ["pipe", "pipe", "inherit"] });
  // Writes to a server that never started fail (EPIPE); the relay answers for it.
  upstream.stdin?.on("error", () => {});
  let spawnError: NodeJS.ErrnoException | null = null;
  const failed = new Promise<null>((resolve) =>
    upstream.once("error", (error) => {
      if (upstream.pid !== undefined) return;
      spawnError = error;
      resolve(null);
    }),
  );
  const local = await Promise.race([
    localTools(o.root, o["max-result-bytes"], o["tool-prefix"], io),
    failed,
  ]);
  if (local === null || spawnError !== null) {
    const { line, status } = startFailure(command, spawnError ?? new Error("spawn"));
    return failBeforeStart(line, status);
  }
  const relay = createRelay({
    upstream,
    command,
    local,
    budget,
    callTimeoutMs: o["call-timeout"],
    maxMessageBytes: o["max-message-bytes"],
    capture,
    toolPrefix: o["tool-prefix"],
  });
  return relay.done;
}

/** Why `dir` cannot be a working directory ("does not exist", "is not a directory"), or null. */
function missingDirectory(dir: string): string | null {
  try {
    return statSync(dir).isDirectory() ? null : "is not a directory";
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "does not exist" : null;
  }
}

/** `spool mcp`'s read, grep and tail, served in this process, reached through a client. */
async function localTools(
  root: string | undefined,
  maxResultBytes: number,
  prefix: string,
  io: Io,
) {
  const [{ Client }, { InMemoryTransport }, { createSpoolMcpServer }] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/inMemory.js"),
    import("./mcp-server.js"),
  ]);
  const server = createSpoolMcpServer(
    {
      root,
      maxResultBytes,
      allowCmd: [],
      denyCmd: [],
      confineCwd: null,
      only: LOCAL_TOOLS,
      prefix,
    },
    io,
  );
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "spool-mcp-proxy", version: "0.1.0" });
  await Promise.all([server.connect(a), client.connect(b)]);
  const { tools } = await client.listTools();
  return { client, tools, names: new Set(tools.map((t) => t.name)) };
}
