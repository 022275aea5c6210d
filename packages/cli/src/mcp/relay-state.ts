/**
 * What `spool mcp-proxy`'s relay holds between messages, and its three ways out: a message
 * to the client, a line to the wrapped server, an error answer to the client.
 */
import type { ChildProcess } from "node:child_process";
import type { PassThrough } from "node:stream";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { JsonLines } from "../json-lines.js";
import type { CapturedResult, ResultCaptureOptions } from "../tool-result-capture.js";
import type { JsonSkeleton } from "./json-skeleton.js";
import type { TextExtractor } from "./text-extractor.js";

/**
 * JSON-RPC error codes: the SDK's request timeout, an internal error, and the server error
 * the SDK also uses for a closed connection (the wrapped server could not start, or sent a
 * line that is not JSON-RPC).
 */
export const REQUEST_TIMEOUT = -32001;
export const INTERNAL_ERROR = -32603;
export const SERVER_ERROR = -32000;

export type Id = string | number;

/** A JSON-RPC id read back from its JSON text (a pending-map key, an id a line wrote), or null. */
export function idOf(text: string): Id | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "string" || typeof value === "number" ? value : null;
  } catch {
    return null;
  }
}

/** A JSON-RPC message, as much of it as the relay reads. */
export interface Message {
  jsonrpc?: string;
  id?: Id | null;
  method?: string;
  params?: { name?: string; arguments?: Record<string, unknown>; requestId?: Id; uri?: string };
  result?: Record<string, unknown>;
  error?: unknown;
}

export interface RelayOptions {
  readonly upstream: ChildProcess;
  /** The server's command as given (named when it cannot start). */
  readonly command: string;
  /** spool's own tools; a name the wrapped server lists too is dropped from `names`. */
  readonly local: { client: Client; tools: Tool[]; names: Set<string> };
  readonly budget: number;
  readonly callTimeoutMs: number;
  /** Most bytes of one unfinished message from the wrapped server before it counts as flooding. */
  readonly maxMessageBytes: number;
  readonly capture: ResultCaptureOptions;
  /** The prefix of spool's own tools (`spool_`), as named in the text of a replacement. */
  readonly toolPrefix: string;
}

/** A request forwarded to the wrapped server and not answered yet. */
export interface PendingCall {
  readonly method: string;
  /** What errors and capture labels name: the tool, the resource's URI, or the method. */
  readonly tool: string;
  readonly timer: NodeJS.Timeout;
}

/**
 * Where the relay is: relaying; the wrapped server never started (requests get `failure`
 * as an error until the proxy exits); or the server has gone.
 */
export type RelayPhase =
  | { readonly name: "running" }
  | { readonly name: "failed-to-start"; readonly failure: string }
  | { readonly name: "gone" };

/** A message too large to hold, being streamed to a capture (`relay-stream.ts`). */
export interface MessageStream {
  /** The request it answers, when its id came first; else read from `tail` at the end. */
  readonly id: Id | null;
  readonly call: PendingCall | null;
  /** The key of the one bounded request pending when it started (its id unread yet). */
  readonly guess: string | null;
  readonly extractor: TextExtractor;
  /** A bounded copy of the message, for its structured part. */
  readonly skeleton: JsonSkeleton;
  /** The extracted text, the capture's input. */
  readonly text: PassThrough;
  readonly captured: Promise<CapturedResult>;
  /** Bytes of the message so far. */
  bytes: number;
  /** Its last bytes (where an id written last is). */
  tail: Buffer;
  /** Text not yet written to the capture (it is behind). */
  readonly queue: Buffer[];
  /** Waiting for the capture to drain. */
  waiting: boolean;
  /** The message ended: the capture's input ends once the queue is written. */
  ending: boolean;
}

/** The relay between messages. */
export interface Relay {
  readonly options: RelayOptions;
  /** Forwarded requests not answered yet, by {@link key}, oldest first. */
  readonly pending: Map<string, PendingCall>;
  /** Tool names the wrapped server listed (pages of `tools/list` so far). */
  readonly upstreamTools: Set<string>;
  /** `tools/list` requests whose answer gets the local tools appended. */
  readonly listing: Set<string>;
  /** `initialize` requests whose answer must advertise tools. */
  readonly initializing: Set<string>;
  /** Lines from the wrapped server (its unfinished message is kept for a partial capture). */
  readonly fromServer: JsonLines;
  phase: RelayPhase;
  /** The message being streamed to a capture, if any. */
  stream: MessageStream | null;
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
  if (relay.phase.name === "running")
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
