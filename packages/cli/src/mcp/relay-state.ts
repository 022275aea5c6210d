/**
 * What `spool mcp-proxy`'s relay holds between messages, and its three ways out: a message
 * to the client, a line to the wrapped server, an error answer to the client.
 */
import type { ChildProcess } from "node:child_process";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { JsonLines } from "../json-lines.js";
import type { ResultCaptureOptions } from "../tool-result-capture.js";

/** JSON-RPC error codes: the SDK's request timeout, and an internal error. */
export const REQUEST_TIMEOUT = -32001;
export const INTERNAL_ERROR = -32603;

export type Id = string | number;

/** A JSON-RPC message, as much of it as the relay reads. */
export interface Message {
  jsonrpc?: string;
  id?: Id | null;
  method?: string;
  params?: { name?: string; arguments?: Record<string, unknown>; requestId?: Id };
  result?: Record<string, unknown>;
  error?: unknown;
}

export interface RelayOptions {
  readonly upstream: ChildProcess;
  readonly local: { client: Client; tools: Tool[]; names: Set<string> };
  readonly budget: number;
  readonly callTimeoutMs: number;
  /** Most bytes of one unfinished message from the wrapped server before it counts as flooding. */
  readonly maxMessageBytes: number;
  readonly capture: ResultCaptureOptions;
}

/** A `tools/call` forwarded to the wrapped server and not answered yet. */
export interface PendingCall {
  readonly tool: string;
  readonly timer: NodeJS.Timeout;
}

/** The relay between messages. */
export interface Relay {
  readonly options: RelayOptions;
  /** Forwarded calls not answered yet, by {@link key}. */
  readonly pending: Map<string, PendingCall>;
  /** `tools/list` requests whose answer gets the local tools appended. */
  readonly listing: Set<string>;
  /** `initialize` requests whose answer must advertise tools. */
  readonly initializing: Set<string>;
  /** Lines from the wrapped server (its unfinished message is kept for a partial capture). */
  readonly fromServer: JsonLines;
  upstreamGone: boolean;
  /** The wrapped server sent a message over `maxMessageBytes` and was killed. */
  flooded: boolean;
  /** Results are captured one after another, in the order they arrived. */
  captures: Promise<unknown>;
}

/** A JSON-RPC id as a map key (1 and "1" are different ids). */
export const key = (id: Id) => JSON.stringify(id);

/** A message to the client: a line as it came, or an object as JSON. */
export function toClient(message: Buffer | object): void {
  process.stdout.write(
    Buffer.isBuffer(message)
      ? Buffer.concat([message, Buffer.from("\n")])
      : `${JSON.stringify(message)}\n`,
  );
}

/** A line to the wrapped server, unless it has gone. */
export function toServer(relay: Relay, line: Buffer): void {
  if (!relay.upstreamGone)
    relay.options.upstream.stdin?.write(Buffer.concat([line, Buffer.from("\n")]));
}

/** A JSON-RPC error answer to request `id`. */
export function fail(id: Id, code: number, message: string, data?: unknown): void {
  toClient({
    jsonrpc: "2.0",
    id,
    error: { code, message, ...(data === undefined ? {} : { data }) },
  });
}
