/**
 * The listening side of `spool serve`: a Node `http` (or, with TLS, `https`) server whose
 * every request passes the request gate on its raw target and Host before the Hono
 * application (through `@hono/node-server`'s request listener) sees it. A unix socket is
 * created fresh (an existing path is refused) and made `0600` before anything can connect
 * through the directory it is in (which must be private).
 */
import * as fs from "node:fs";
import * as http from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { SpoolError } from "@spool/core";
import type { Hono } from "hono";
import { allowedHosts, type ListenAddress } from "./listen-address.js";
import { gateRequest } from "./request-gate.js";

/** How long an idle kept-alive connection stays open (Node's default is 5 s). */
export const KEEP_ALIVE_MS = 65_000;

export interface ServerOptions {
  // biome-ignore lint/suspicious/noExplicitAny: any Hono app's env
  readonly app: Hono<any>;
  readonly address: ListenAddress;
  readonly tls?: { readonly cert: Buffer; readonly key: Buffer } | undefined;
  /** More `Host` values to accept (a public name). */
  readonly hosts?: readonly string[];
}

export interface RunningServer {
  /** `http(s)://host:port`, or null on a unix socket. */
  readonly url: string | null;
  readonly socket: string | null;
  readonly port: number | null;
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const listener = getRequestListener(options.app.fetch);
  let hosts = new Set<string>();
  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const refusal = gateRequest(req.url ?? "", req.headers.host, hosts);
    if (refusal) {
      res.writeHead(refusal.status, {
        "content-type": "application/json",
        "cache-control": "no-store",
        connection: "close",
      });
      res.end(JSON.stringify({ error: { code: refusal.code, message: refusal.message } }));
      return;
    }
    void listener(req, res);
  };
  const common = { maxHeaderSize: 16 * 1024 };
  const server = options.tls
    ? https.createServer({ ...common, cert: options.tls.cert, key: options.tls.key }, handle)
    : http.createServer(common, handle);
  server.headersTimeout = 10_000;
  // An idle kept-alive connection is closed after this long. A client reusing one just as
  // the server closes it gets ECONNRESET (Node's agent stops reusing 1 s before the
  // `Keep-Alive: timeout` the server announces, which a client whose event loop lags by
  // more than that second misses: a loaded load test did). Far longer than any pause
  // between one reader's requests, so only a connection really left idle meets it.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  const { address } = options;
  if (address.kind === "socket") {
    const dir = fs.lstatSync(address.path.replace(/\/[^/]*$/, "") || "/");
    const ours = typeof process.getuid !== "function" || dir.uid === process.getuid();
    if (!dir.isDirectory() || !ours || (dir.mode & 0o077) !== 0) {
      throw new SpoolError(
        "SPOOL_E_UNSAFE_PATH",
        "serve",
        "--socket must be in a private directory of ours (0700)",
      );
    }
  }
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new SpoolError("SPOOL_E_STORAGE", "serve", `cannot listen (${error.code ?? "error"})`, {
          cause: error,
        }),
      ),
    );
    if (address.kind === "socket") server.listen(address.path, resolve);
    else server.listen({ host: address.host, port: address.port, exclusive: true }, resolve);
  });
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  if (address.kind === "socket") {
    fs.chmodSync(address.path, 0o600);
    hosts = allowedHosts(address, 0, options.hosts ?? []);
    return { url: null, socket: address.path, port: null, close };
  }
  const port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(address, port, options.hosts ?? []);
  const named = address.host.includes(":") ? `[${address.host}]` : address.host;
  return { url: `${options.tls ? "https" : "http"}://${named}:${port}`, socket: null, port, close };
}
