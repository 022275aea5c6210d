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
import { type Clock, SpoolError, systemClock } from "@spool/core";
import type { Hono } from "hono";
import type { AccessEntry } from "./access-log.js";
import { allowedHosts, type ListenAddress } from "./listen-address.js";
import { gateRequest } from "./request-gate.js";

/** How long an idle kept-alive connection stays open (Node's default is 5 s). */
export const KEEP_ALIVE_MS = 65_000;
/** How long a request's headers (and its whole request: a GET has no body) may take. */
export const HEADERS_TIMEOUT_MS = 10_000;
/**
 * How often Node looks for connections past {@link HEADERS_TIMEOUT_MS}. Its default is
 * 30 s, so a slow client was cut anywhere from 10 to 40 s; this makes it 10 to 11 s.
 */
export const CONNECTIONS_CHECK_MS = 1_000;

export interface ServerOptions {
  // biome-ignore lint/suspicious/noExplicitAny: any Hono app's env
  readonly app: Hono<any>;
  readonly address: ListenAddress;
  readonly tls?: { readonly cert: Buffer; readonly key: Buffer } | undefined;
  /** More `Host` values to accept (a public name). */
  readonly hosts?: readonly string[];
  /** Told of every request once its answer ends (`access-log.ts`). */
  readonly accessLog?: ((entry: AccessEntry) => void) | undefined;
  /**
   * The slow-client limits (shorter in tests).
   * @default { headersMs: HEADERS_TIMEOUT_MS, checkMs: CONNECTIONS_CHECK_MS }
   */
  readonly timeouts?: { readonly headersMs: number; readonly checkMs: number };
  /** The clock access log entries are timed by. @default systemClock */
  readonly clock?: Clock;
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
  const log = options.accessLog;
  const clock = options.clock ?? systemClock;
  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (log) logWhenDone(req, res, clock, log);
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
  const timeouts = options.timeouts ?? {
    headersMs: HEADERS_TIMEOUT_MS,
    checkMs: CONNECTIONS_CHECK_MS,
  };
  const common = {
    maxHeaderSize: 16 * 1024,
    // A slowloris client (headers a byte at a time) is cut once its request has taken
    // `headersMs`, found by a look every `checkMs` (Node's default look is every 30 s).
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.headersMs,
    connectionsCheckingInterval: timeouts.checkMs,
  };
  const server = options.tls
    ? https.createServer({ ...common, cert: options.tls.cert, key: options.tls.key }, handle)
    : http.createServer(common, handle);
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

/**
 * Tell `log` of the request once its answer ends or its connection closes: the body bytes
 * are counted as they are handed to `res` (by the app, the gate or the range pump alike).
 */
function logWhenDone(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  clock: Clock,
  log: (entry: AccessEntry) => void,
): void {
  const time = clock.now();
  let bytes = 0;
  const count = (chunk: unknown, encoding: unknown) => {
    if (typeof chunk === "string") {
      bytes += Buffer.byteLength(
        chunk,
        typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8",
      );
    } else if (chunk instanceof Uint8Array) bytes += chunk.byteLength;
  };
  const write = res.write;
  const end = res.end;
  // Counting on this one response object only (no prototype is touched).
  res.write = function (this: http.ServerResponse, ...args: unknown[]) {
    count(args[0], args[1]);
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as typeof res.write;
  res.end = function (this: http.ServerResponse, ...args: unknown[]) {
    if (typeof args[0] !== "function") count(args[0], args[1]);
    return (end as (...a: unknown[]) => http.ServerResponse).apply(this, args);
  } as typeof res.end;
  res.once("close", () =>
    log({
      time,
      method: req.method ?? "",
      target: req.url ?? "",
      status: res.statusCode,
      bytes,
      ms: clock.now() - time,
      complete: res.writableFinished,
    }),
  );
}
