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
 */
import { type ChildProcess, spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { type CommandInput, usageError } from "./args.js";
import { boundJson } from "./bounded-json.js";
import type { MCP_PROXY } from "./commands.js";
import { formatInline } from "./inline.js";
import type { Io } from "./io.js";
import { createJsonLines } from "./json-lines.js";
import { createSpoolMcpServer } from "./mcp-server.js";
import { resultBudget, resultBytes } from "./result-budget.js";
import {
  type CapturedResult,
  capturePartial,
  captureToolResult,
  keepsNothing,
  type ResultCaptureOptions,
} from "./tool-result-capture.js";

/** The tools the proxy adds, as `spool mcp` defines them. */
const LOCAL_TOOLS = ["read", "grep", "tail"] as const;
const PREFIX = "spool_";
/** JSON-RPC error codes: the SDK's request timeout, and an internal error. */
const REQUEST_TIMEOUT = -32001;
const INTERNAL_ERROR = -32603;

type Id = string | number;
interface Message {
  jsonrpc?: string;
  id?: Id | null;
  method?: string;
  params?: { name?: string; arguments?: Record<string, unknown>; requestId?: Id };
  result?: Record<string, unknown>;
  error?: unknown;
}

interface PendingCall {
  readonly tool: string;
  readonly timer: NodeJS.Timeout;
}

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
    io: { cwd: io.cwd, env },
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

interface RelayOptions {
  readonly upstream: ChildProcess;
  readonly local: { client: Client; tools: Tool[]; names: Set<string> };
  readonly budget: number;
  readonly callTimeoutMs: number;
  /** Most bytes of one unfinished message from the wrapped server before it counts as flooding. */
  readonly maxMessageBytes: number;
  readonly capture: ResultCaptureOptions;
}

function createRelay(options: RelayOptions): { done: Promise<number> } {
  const { upstream, local, budget, capture } = options;
  const pending = new Map<string, PendingCall>();
  const listing = new Set<string>();
  const initializing = new Set<string>();
  let upstreamGone = false;
  let flooded = false;
  // Results are captured one after another, in the order they arrived.
  let captures: Promise<unknown> = Promise.resolve();
  const key = (id: Id) => JSON.stringify(id);
  const toClient = (message: Buffer | object) =>
    process.stdout.write(
      Buffer.isBuffer(message)
        ? Buffer.concat([message, Buffer.from("\n")])
        : `${JSON.stringify(message)}\n`,
    );
  const toServer = (line: Buffer) => {
    if (!upstreamGone) upstream.stdin?.write(Buffer.concat([line, Buffer.from("\n")]));
  };
  const fail = (id: Id, code: number, message: string, data?: unknown) =>
    toClient({
      jsonrpc: "2.0",
      id,
      error: { code, message, ...(data === undefined ? {} : { data }) },
    });

  const fromClient = createJsonLines((line) => {
    let m: Message;
    try {
      m = JSON.parse(line.toString("utf8")) as Message;
    } catch {
      toClient({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
      return;
    }
    if (m === null || typeof m !== "object") {
      toClient({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } });
      return;
    }
    const id = m.id;
    if (m.method === "tools/call" && id !== undefined && id !== null) {
      const name = String(m.params?.name ?? "");
      if (local.names.has(name)) {
        callLocal(id, name, m.params?.arguments ?? {});
        return;
      }
      if (upstreamGone)
        return fail(id, INTERNAL_ERROR, "spool mcp-proxy: the wrapped server has exited");
      const timer = setTimeout(() => timeOut(id), options.callTimeoutMs);
      pending.set(key(id), { tool: name, timer });
    } else if (m.method === "tools/list" && id != null) {
      listing.add(key(id));
    } else if (m.method === "initialize" && id != null) {
      initializing.add(key(id));
    } else if (m.method === "notifications/cancelled" && m.params?.requestId !== undefined) {
      // The wrapped server will not answer a cancelled call: forget it.
      const p = pending.get(key(m.params.requestId));
      if (p) clearTimeout(p.timer);
      pending.delete(key(m.params.requestId));
    }
    if (upstreamGone && id != null && m.method !== undefined) {
      return fail(id, INTERNAL_ERROR, "spool mcp-proxy: the wrapped server has exited");
    }
    toServer(line);
  });

  const fromServer = createJsonLines((line) => {
    let m: Message | null = null;
    try {
      m = JSON.parse(line.toString("utf8")) as Message;
    } catch {
      // Not ours to judge: the client sees what the server sent.
    }
    const id = m && m.method === undefined && m.id != null ? key(m.id) : null;
    if (m && id !== null && pending.has(id)) {
      const call = pending.get(id) as PendingCall;
      clearTimeout(call.timer);
      pending.delete(id);
      onResult(m, line, call.tool);
      return;
    }
    if (m?.result && id !== null && listing.delete(id)) {
      if (Array.isArray(m.result.tools) && m.result.nextCursor === undefined) {
        (m.result.tools as Tool[]).push(...local.tools);
        return toClient(m);
      }
    }
    if (m?.result && id !== null && initializing.delete(id)) {
      const caps = (m.result.capabilities ?? {}) as Record<string, unknown>;
      if (caps.tools === undefined) {
        m.result.capabilities = { ...caps, tools: {} };
        return toClient(m);
      }
    }
    toClient(line);
  });

  function onResult(m: Message, line: Buffer, tool: string) {
    const id = m.id as Id;
    if (!m.result) return toClient(line); // errors pass through unchanged
    const result = m.result;
    if (line.length <= budget) {
      toClient(line);
      // Most calls: capturing them is most of the proxy's CPU and would keep nothing.
      if (keepsNothing(result, line.length, capture)) return;
      captures = captures
        .then(() => captureToolResult(tool, result, capture))
        .catch(reportCaptureError);
      return;
    }
    captures = captures
      .then(() => captureToolResult(tool, result, capture))
      .then((c) =>
        toClient({ jsonrpc: "2.0", id, result: replacement(tool, line.length, c, result, budget) }),
      )
      .catch((error: unknown) =>
        fail(
          id,
          INTERNAL_ERROR,
          `spool mcp-proxy: the result of ${tool} (${line.length} B) could not be spooled: ${(error as Error).message}`,
        ),
      );
  }

  function timeOut(id: Id) {
    const call = pending.get(key(id));
    if (!call) return;
    pending.delete(key(id));
    toServer(
      Buffer.from(
        JSON.stringify({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: id, reason: "spool mcp-proxy: --call-timeout" },
        }),
      ),
    );
    partialError(
      id,
      call.tool,
      fromServer.pending(),
      `the wrapped server did not answer ${call.tool} within ${options.callTimeoutMs / 1000} s`,
    );
  }

  function partialError(id: Id, tool: string, bytes: Buffer, why: string) {
    captures = captures
      .then(() => capturePartial(tool, bytes, capture))
      .then((c) =>
        fail(
          id,
          REQUEST_TIMEOUT,
          `spool mcp-proxy: ${why}; ${bytes.length} B of its answer kept as capture ${c.receipt.captureId} (partial)`,
          { receipt: c.receipt },
        ),
      )
      .catch((error: unknown) =>
        fail(id, INTERNAL_ERROR, `spool mcp-proxy: ${why} (${(error as Error).message})`),
      );
  }

  function callLocal(id: Id, name: string, args: Record<string, unknown>) {
    local.client
      .callTool({ name, arguments: args })
      .then((result) => toClient({ jsonrpc: "2.0", id, result }))
      .catch((error: unknown) => {
        const e = error as { code?: number; message?: string };
        fail(id, typeof e.code === "number" ? e.code : INTERNAL_ERROR, e.message ?? String(error));
      });
  }

  upstream.stdout?.on("data", (chunk: Buffer) => {
    fromServer.push(chunk);
    if (fromServer.pendingBytes > options.maxMessageBytes && !flooded) {
      // A message this large is a flood: stop the server; what arrived is kept below.
      flooded = true;
      upstream.kill("SIGKILL");
    }
  });
  process.stdin.on("data", (chunk: Buffer) => fromClient.push(chunk));

  const done = new Promise<number>((resolve) => {
    let clientGone = false;
    const finish = async (status: number) => {
      await captures;
      resolve(status);
    };
    process.stdin.once("end", () => {
      clientGone = true;
      upstream.stdin?.end();
      // A server that ignores the end of its input is stopped after a grace period.
      const grace = setTimeout(() => upstream.kill("SIGTERM"), 2000);
      grace.unref();
    });
    upstream.once("error", (error) => {
      process.stderr.write(`spool mcp-proxy: cannot run the server: ${error.message}\n`);
    });
    upstream.once("close", (code, signal) => {
      upstreamGone = true;
      const tail = fromServer.pending();
      const why = flooded
        ? `the wrapped server sent a message over --max-message-bytes (${options.maxMessageBytes} B) and was stopped before answering`
        : `the wrapped server exited (${signal ?? `code ${code}`}) before answering`;
      for (const [k, call] of pending) {
        clearTimeout(call.timer);
        partialError(JSON.parse(k) as Id, call.tool, tail, `${why} ${call.tool}`);
      }
      pending.clear();
      void finish(clientGone ? 0 : 70);
    });
  });
  return { done };
}

function reportCaptureError(error: unknown): void {
  process.stderr.write(
    `spool mcp-proxy: a result could not be spooled: ${(error as Error).message}\n`,
  );
}

/**
 * What the client gets instead of a result over the budget: preview, status line, what to
 * call next, the receipt (in `_meta`, its preview being the text), and `structuredContent`
 * cut to a quarter of the budget with its shape kept (clients check it against the schema).
 */
function replacement(
  tool: string,
  bytes: number,
  c: CapturedResult,
  original: Record<string, unknown>,
  budget: number,
) {
  const r = c.receipt;
  const build = (preview: boolean) => {
    const lines = [
      formatInline(
        preview ? r : { ...r, preview: { ...r.preview, text: "" } },
        c.exitStatus,
      ).trimEnd(),
      `[spool] the result of ${tool} was ${bytes} B, over this proxy's budget: it is spooled as capture ${r.captureId}; read on with spool_read {"ref":"${r.captureId}","offset":N}, spool_grep or spool_tail.`,
      ...c.binaries.map(
        (b) => `[spool] content[${b.index}] ${b.mimeType} stored as capture ${b.captureId}`,
      ),
    ];
    return {
      content: [{ type: "text", text: lines.join("\n") }],
      ...(original.structuredContent === undefined
        ? {}
        : {
            structuredContent: boundJson(
              original.structuredContent,
              Math.floor(budget / 4),
              `capture ${r.captureId}`,
            ),
          }),
      ...(original.isError === true ? { isError: true } : {}),
      _meta: {
        "spool/receipt": { ...r, preview: { ...r.preview, text: "" } },
        "spool/binaries": c.binaries,
      },
    };
  };
  const full = build(true);
  return resultBytes(full) + 64 <= budget ? full : build(false);
}
