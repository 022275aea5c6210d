/**
 * Where each line of `spool mcp-proxy` goes. From the client: on to the wrapped server,
 * noting what the answer will need (a timer per request, tools to add to a listing), or to
 * the local `spool_*` tools. From the server: an answer to a request the proxy bounds to
 * `onResult`, a listing or `initialize` answer amended, a line that is not JSON-RPC to
 * `onGarbage`, anything else to the client byte for byte.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { onGarbage, onResult, timeOut } from "./relay-results.js";
import { shapeOf } from "./relay-shapes.js";
import {
  fail,
  type Id,
  INTERNAL_ERROR,
  key,
  type Message,
  type Relay,
  toClient,
  toServer,
} from "./relay-state.js";

const GONE = "spool mcp-proxy: the wrapped server has exited";

/** One line from the client, while the wrapped server runs or after it has gone. */
export function routeFromClient(relay: Relay, line: Buffer): void {
  const m = parseRequest(line);
  if (m === null) return;
  const id = m.id;
  const request = m.method !== undefined && id !== undefined && id !== null;
  if (request && m.method === "tools/call") {
    const name = String(m.params?.name ?? "");
    if (relay.options.local.names.has(name)) {
      callLocal(relay, id, name, m.params?.arguments ?? {});
      return;
    }
  }
  if (relay.phase.name !== "running") {
    if (request) fail(id, INTERNAL_ERROR, GONE);
    return;
  }
  if (request) track(relay, id, m);
  else if (m.method === "notifications/cancelled" && m.params?.requestId !== undefined) {
    // The wrapped server will not answer a cancelled request: forget it.
    const p = relay.pending.get(key(m.params.requestId));
    if (p) clearTimeout(p.timer);
    relay.pending.delete(key(m.params.requestId));
  }
  toServer(relay, line);
}

/** Note a request forwarded to the wrapped server: its timer, and what its answer needs. */
function track(relay: Relay, id: Id, m: Message): void {
  const method = m.method ?? "";
  const timer = setTimeout(() => timeOut(relay, id), relay.options.callTimeoutMs);
  relay.pending.set(key(id), { method, tool: labelOf(method, m), timer });
  if (method === "tools/list") relay.listing.add(key(id));
  else if (method === "initialize") relay.initializing.add(key(id));
}

/** What a request is called in errors and capture labels: its tool, prompt or URI. */
function labelOf(method: string, m: Message): string {
  if (method === "tools/call" || method === "prompts/get") return String(m.params?.name ?? "");
  if (method === "resources/read") return String(m.params?.uri ?? "");
  return method;
}

/** The client's line as a message, or null once answered as unreadable (JSON-RPC -32700/-32600). */
function parseRequest(line: Buffer): Message | null {
  let m: Message;
  try {
    m = JSON.parse(line.toString("utf8")) as Message;
  } catch {
    toClient({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
    return null;
  }
  if (m === null || typeof m !== "object") {
    toClient({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } });
    return null;
  }
  return m;
}

/** A call of a `spool_*` tool, answered by the in-process `spool mcp` tools. */
function callLocal(relay: Relay, id: Id, name: string, args: Record<string, unknown>) {
  relay.options.local.client
    .callTool({ name, arguments: args })
    .then((result) => toClient({ jsonrpc: "2.0", id, result }))
    .catch((error: unknown) => {
      const e = error as { code?: number; message?: string };
      fail(id, typeof e.code === "number" ? e.code : INTERNAL_ERROR, e.message ?? String(error));
    });
}

/** One line from the wrapped server. */
export function routeFromServer(relay: Relay, line: Buffer): void {
  const m = parseFromServer(line);
  if (m === null) {
    onGarbage(relay, line);
    return;
  }
  const id = m.method === undefined && m.id != null ? key(m.id) : null;
  const call = id === null ? undefined : relay.pending.get(id);
  if (id !== null && call !== undefined) {
    clearTimeout(call.timer);
    relay.pending.delete(id);
    if (shapeOf(call.method) !== undefined) {
      onResult(relay, m, line, call);
      return;
    }
  }
  if (m.result && id !== null && relay.listing.delete(id) && amendListing(relay, m.result)) {
    toClient(m);
    return;
  }
  if (m.result && id !== null && relay.initializing.delete(id)) {
    const caps = (m.result.capabilities ?? {}) as Record<string, unknown>;
    if (caps.tools === undefined) {
      m.result.capabilities = { ...caps, tools: {} };
      toClient(m);
      return;
    }
  }
  toClient(line);
}

/** The server's line as a JSON-RPC message, or null if it is not one. */
function parseFromServer(line: Buffer): Message | null {
  try {
    const m = JSON.parse(line.toString("utf8")) as Message | null;
    return m !== null && typeof m === "object" && m.jsonrpc === "2.0" ? m : null;
  } catch {
    return null;
  }
}

/**
 * A page of the wrapped server's tools: noted, and on the last page spool's own appended,
 * but for a name the server has too (its own tool keeps the name; spool's is left out and
 * its calls go to the server). True when the page was amended.
 */
function amendListing(relay: Relay, result: Record<string, unknown>): boolean {
  if (!Array.isArray(result.tools)) return false;
  const tools = result.tools as Tool[];
  for (const t of tools) relay.upstreamTools.add(t.name);
  if (result.nextCursor !== undefined) return false;
  const { local } = relay.options;
  for (const t of local.tools) {
    if (relay.upstreamTools.has(t.name) && local.names.delete(t.name)) {
      process.stderr.write(
        `spool mcp-proxy: the wrapped server has a tool named ${t.name}: spool's is left out (choose another --tool-prefix)\n`,
      );
    }
  }
  tools.push(...local.tools.filter((t) => local.names.has(t.name)));
  return true;
}
