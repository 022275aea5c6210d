/**
 * Where each line of `spool mcp-proxy` goes. From the client: on to the wrapped server,
 * noting what the answer will need (a timer per call, tools to add to a listing), or to
 * the local `spool_*` tools. From the server: a call's answer to `onResult`, a listing or
 * `initialize` answer amended, anything else to the client byte for byte.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { onResult, timeOut } from "./relay-results.js";
import {
  fail,
  type Id,
  INTERNAL_ERROR,
  key,
  type Message,
  type PendingCall,
  type Relay,
  toClient,
  toServer,
} from "./relay-state.js";

const GONE = "spool mcp-proxy: the wrapped server has exited";

/** One line from the client. */
export function routeFromClient(relay: Relay, line: Buffer): void {
  const m = parseRequest(line);
  if (m === null) return;
  const id = m.id;
  if (m.method === "tools/call" && id !== undefined && id !== null) {
    const name = String(m.params?.name ?? "");
    if (relay.options.local.names.has(name)) {
      callLocal(relay, id, name, m.params?.arguments ?? {});
      return;
    }
    if (relay.upstreamGone) {
      fail(id, INTERNAL_ERROR, GONE);
      return;
    }
    const timer = setTimeout(() => timeOut(relay, id), relay.options.callTimeoutMs);
    relay.pending.set(key(id), { tool: name, timer });
  } else if (m.method === "tools/list" && id != null) {
    relay.listing.add(key(id));
  } else if (m.method === "initialize" && id != null) {
    relay.initializing.add(key(id));
  } else if (m.method === "notifications/cancelled" && m.params?.requestId !== undefined) {
    // The wrapped server will not answer a cancelled call: forget it.
    const p = relay.pending.get(key(m.params.requestId));
    if (p) clearTimeout(p.timer);
    relay.pending.delete(key(m.params.requestId));
  }
  if (relay.upstreamGone && id != null && m.method !== undefined) fail(id, INTERNAL_ERROR, GONE);
  else toServer(relay, line);
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
  let m: Message | null = null;
  try {
    m = JSON.parse(line.toString("utf8")) as Message;
  } catch {
    // Not ours to judge: the client sees what the server sent.
  }
  const id = m && m.method === undefined && m.id != null ? key(m.id) : null;
  if (m && id !== null && relay.pending.has(id)) {
    const call = relay.pending.get(id) as PendingCall;
    clearTimeout(call.timer);
    relay.pending.delete(id);
    onResult(relay, m, line, call.tool);
    return;
  }
  if (m?.result && id !== null && relay.listing.delete(id)) {
    if (Array.isArray(m.result.tools) && m.result.nextCursor === undefined) {
      (m.result.tools as Tool[]).push(...relay.options.local.tools);
      toClient(m);
      return;
    }
  }
  if (m?.result && id !== null && relay.initializing.delete(id)) {
    const caps = (m.result.capabilities ?? {}) as Record<string, unknown>;
    if (caps.tools === undefined) {
      m.result.capabilities = { ...caps, tools: {} };
      toClient(m);
      return;
    }
  }
  toClient(line);
}
