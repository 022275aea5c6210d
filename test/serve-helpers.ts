/**
 * Servers for the `spool serve` tests: in-process (the real application and listener on
 * 127.0.0.1, over a real file store wrapped so every store call is recorded), or the real
 * binary (`spool serve` as a child, its start line parsed). Requests go out through
 * `node:http` with the target exactly as written (fetch would normalise `..` and escapes).
 */
import { type ChildProcess, spawn } from "node:child_process";
import * as http from "node:http";
import { type SseEvent, sseParser } from "@spool/bench";
import type { CaptureStore, Clock } from "@spool/core";
import { createFileStore } from "@spool/sinks";
import type { AccessEntry } from "../packages/cli/src/serve/access-log.js";
import { createGrepRunner } from "../packages/cli/src/serve/grep-runner.js";
import { startServer } from "../packages/cli/src/serve/http-server.js";
import { chooseListen } from "../packages/cli/src/serve/listen-address.js";
import { createServeApp } from "../packages/cli/src/serve/serve-app.js";
import {
  createTokenAuthority,
  newRootToken,
  type TokenAuthority,
} from "../packages/cli/src/serve/tokens.js";
import { loadWebAssets } from "../packages/cli/src/serve/web-assets.js";
import { SPOOL_BIN } from "./helpers.js";

export interface InProcessServer {
  readonly url: string;
  readonly port: number;
  readonly rootToken: string;
  readonly authority: TokenAuthority;
  /** Every store method called, in order (`cursors.get`, `state`, …). */
  readonly calls: string[];
  /** The clock the tokens are checked against. */
  readonly now: { t: number };
  close(): Promise<void>;
}

export interface InProcessOptions {
  readonly maxTransfer?: number;
  readonly grepMs?: number;
  /** SSE heartbeats: quiet time and the clock that times it (a manual one in tests). */
  readonly heartbeatMs?: number;
  readonly clock?: Clock;
  /** The clock the grep runner's time budget is measured by. */
  readonly grepClock?: Clock;
  /** Slow-client limits (short ones in tests). */
  readonly timeouts?: { readonly headersMs: number; readonly checkMs: number };
  /** Told of every request (`--access-log`). */
  readonly accessLog?: (entry: AccessEntry) => void;
}

export async function serveInProcess(
  root: string,
  options: InProcessOptions = {},
): Promise<InProcessServer> {
  const calls: string[] = [];
  const now = { t: Date.now() };
  const rootToken = newRootToken();
  const authority = createTokenAuthority({ rootToken, now: () => now.t });
  const app = createServeApp({
    store: recorded(createFileStore({ root }), calls),
    authority,
    grep: createGrepRunner({
      timeMs: options.grepMs ?? 2000,
      ...(options.grepClock === undefined ? {} : { clock: options.grepClock }),
    }),
    web: loadWebAssets(),
    ...(options.maxTransfer === undefined ? {} : { maxTransfer: options.maxTransfer }),
    ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  const server = await startServer({
    app,
    address: chooseListen({ listen: "127.0.0.1:0", public: false, tls: false }),
    ...(options.timeouts === undefined ? {} : { timeouts: options.timeouts }),
    accessLog: options.accessLog,
  });
  return {
    url: server.url as string,
    port: server.port as number,
    rootToken,
    authority,
    calls,
    now,
    close: () => server.close(),
  };
}

/** `store` with each call (its books' too) recorded in `calls`. */
function recorded(store: CaptureStore, calls: string[]): CaptureStore {
  const wrap = <T extends object>(target: T, prefix: string): T =>
    new Proxy(target, {
      get(t, p, r) {
        const v = Reflect.get(t, p, r);
        if (p === "cursors" || p === "completion") return wrap(v as object, `${String(p)}.`);
        if (typeof v !== "function") return v;
        return (...args: unknown[]) => {
          calls.push(`${prefix}${String(p)}`);
          return (v as (...a: unknown[]) => unknown).apply(t, args);
        };
      },
    });
  return wrap(store, "");
}

export interface RawResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
}

/** GET `target` exactly as written, with `headers` (Host defaults to the server's). */
export function rawGet(
  base: string,
  target: string,
  headers: Record<string, string> = {},
  extra: { method?: string; socketPath?: string } = {},
): Promise<RawResponse> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: target,
        method: extra.method ?? "GET",
        headers: { host: u.host, ...headers },
        ...(extra.socketPath ? { socketPath: extra.socketPath } : {}),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The real `spool serve` as a child; resolves once it printed where it listens. */
export async function serveBinary(args: string[]): Promise<{
  child: ChildProcess;
  start: Record<string, unknown>;
  stop: () => Promise<number | null>;
}> {
  const child = spawn(process.execPath, [SPOOL_BIN, "serve", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr?.on("data", (c: Buffer) => {
    err += c.toString();
  });
  const start = await new Promise<Record<string, unknown>>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
      const nl = out.indexOf("\n");
      if (nl !== -1) resolve(JSON.parse(out.slice(0, nl)));
    });
    child.on("exit", (code) => reject(new Error(`spool serve exited ${code}: ${err}`)));
  });
  // Once, however often it is called: a child killed by a signal has exitCode null, so
  // asking exitCode whether it is gone would wait for an exit that already happened.
  // A server that ignores SIGTERM for 5 s is killed, so a test's cleanup always ends.
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
  let stopping: Promise<number | null> | undefined;
  const stop = () => {
    if (stopping) return stopping;
    child.kill("SIGTERM");
    const force = setTimeout(() => child.kill("SIGKILL"), 5000);
    stopping = exited.finally(() => clearTimeout(force));
    return stopping;
  };
  return { child, start, stop };
}

export type { AccessEntry, SseEvent };

/**
 * Follow `target` to its end (the server closes it), collecting every event. A block of
 * only comment lines (`: heartbeat`) is collected as event `:` with the comment as data.
 */
export function followEvents(
  base: string,
  target: string,
  headers: Record<string, string>,
  onEvent: (event: SseEvent) => void = () => {},
): Promise<{ status: number; events: SseEvent[] }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: target,
        headers: { host: u.host, ...headers },
        agent: false,
      },
      (res) => {
        const events: SseEvent[] = [];
        const push = sseParser((event) => {
          events.push(event);
          onEvent(event);
        });
        res.setEncoding("utf8");
        res.on("data", push);
        res.on("end", () => resolve({ status: res.statusCode ?? 0, events }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}
