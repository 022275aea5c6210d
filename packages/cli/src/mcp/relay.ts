/**
 * `spool mcp-proxy`'s relay: newline-delimited JSON-RPC between our stdin/stdout (the
 * client) and a wrapped server's stdio, routed line by line (`relay-routes.ts`), its
 * results captured (`relay-results.ts`). Ends when the wrapped server has exited and every
 * capture is written: 0 if the client went first, 70 if the server did.
 */
import { createJsonLines } from "../json-lines.js";
import { partialError } from "./relay-results.js";
import { routeFromClient, routeFromServer } from "./relay-routes.js";
import type { Id, Relay, RelayOptions } from "./relay-state.js";

export type { RelayOptions } from "./relay-state.js";

export function createRelay(options: RelayOptions): { done: Promise<number> } {
  const { upstream } = options;
  const relay: Relay = {
    options,
    pending: new Map(),
    listing: new Set(),
    initializing: new Set(),
    fromServer: createJsonLines((line) => routeFromServer(relay, line)),
    upstreamGone: false,
    flooded: false,
    captures: Promise.resolve(),
  };
  const fromClient = createJsonLines((line) => routeFromClient(relay, line));
  upstream.stdout?.on("data", (chunk: Buffer) => {
    relay.fromServer.push(chunk);
    if (relay.fromServer.pendingBytes > options.maxMessageBytes && !relay.flooded) {
      // A message this large is a flood: stop the server; what arrived is kept below.
      relay.flooded = true;
      upstream.kill("SIGKILL");
    }
  });
  process.stdin.on("data", (chunk: Buffer) => fromClient.push(chunk));
  return { done: relayEnd(relay) };
}

/** Resolves with the exit status once the wrapped server has exited and captures are written. */
function relayEnd(relay: Relay): Promise<number> {
  const { upstream, maxMessageBytes } = relay.options;
  return new Promise<number>((resolve) => {
    let clientGone = false;
    const finish = async (status: number) => {
      await relay.captures;
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
      relay.upstreamGone = true;
      const tail = relay.fromServer.pending();
      const why = relay.flooded
        ? `the wrapped server sent a message over --max-message-bytes (${maxMessageBytes} B) and was stopped before answering`
        : `the wrapped server exited (${signal ?? `code ${code}`}) before answering`;
      for (const [k, call] of relay.pending) {
        clearTimeout(call.timer);
        partialError(relay, JSON.parse(k) as Id, call.tool, tail, `${why} ${call.tool}`);
      }
      relay.pending.clear();
      void finish(clientGone ? 0 : 70);
    });
  });
}
