/**
 * The HTTP application of `spool serve` (Hono): every route reads through the
 * `CaptureStore` contract only, never a path of its own. Requests reach it after the
 * request gate (`request-gate.ts`: URL length, Host, plain path); here each `/api/` request
 * is authenticated (`Authorization: Bearer …`, `tokens.ts`) and held to its grant's scope
 * before the store is asked anything: a token scoped to one capture gets 403 for any
 * other id and sees only its capture in the list.
 *
 * | route | answer |
 * | --- | --- |
 * | `GET /` `/app.js` `/app.css` | the web view (no data; it asks the API with the token the user types) |
 * | `GET /api/v1/captures` | `{ captures: [summary…] }` |
 * | `GET /api/v1/captures/:id` | `{ condition, receipt }` (the receipt for remote readers) |
 * | `GET /api/v1/captures/:id/streams/:stream` | bytes (`stream-read.ts`) |
 * | `GET /api/v1/captures/:id/streams/:stream/grep?pattern=…` | `{ matches, cut, scanned }` |
 * | `GET /api/v1/captures/:id/streams/:stream/lines` | `{ lines, lastLineStart, endsWithNewline, committed, binary, condition }` |
 * | `GET /api/v1/captures/:id/order` | `{ switches, full, committed, condition }`: the order of writes across streams (`switches` null when none was kept) |
 * | `GET /api/v1/captures/:id/events` | Server-Sent Events (`live-events.ts`) |
 */

import type { HttpBindings } from "@hono/node-server";
import {
  type CaptureStore,
  type Clock,
  isCaptureId,
  producerOf,
  SpoolError,
  type StreamName,
  systemClock,
} from "@spool/core";
import { type Context, Hono } from "hono";
import { DEFAULT_MAX_TRANSFER } from "../commands.js";
import { GREP_MAX_COLUMNS } from "../grep-scan.js";
import type { GrepRunner } from "./grep-runner.js";
import { errorResponse, responseOfError } from "./http-error.js";
import { countLines } from "./line-count.js";
import { liveEvents, summary } from "./live-events.js";
import { receiptForRemote } from "./remote-receipt.js";
import { streamRead } from "./stream-read.js";
import type { Grant, TokenAuthority } from "./tokens.js";
import type { WebAssets } from "./web-assets.js";

/** Most grep results one request may ask for. */
export const GREP_MAX_RESULTS = 1000;

export interface ServeAppOptions {
  readonly store: CaptureStore;
  readonly authority: TokenAuthority;
  readonly grep: GrepRunner;
  readonly web: WebAssets;
  /** Most body bytes of one response. @default 8 MiB */
  readonly maxTransfer?: number;
  /** Quiet milliseconds before an SSE follow sends a heartbeat comment. @default 15000 */
  readonly heartbeatMs?: number;
  /** The clock heartbeats are timed by. @default systemClock */
  readonly clock?: Clock;
}

/** Default quiet time before an SSE heartbeat. */
export const HEARTBEAT_MS = 15_000;

/** `outgoing` is there when the app runs under `@hono/node-server` (`startServer`). */
type Env = { Bindings: Partial<HttpBindings>; Variables: { grant: Grant } };
type Ctx = Context<Env>;

/** What the API's handlers share. */
interface Api {
  readonly options: ServeAppOptions;
  readonly store: CaptureStore;
  readonly maxTransfer: number;
}

/** The application: the web view's files, then the API behind authentication and scope. */
export function createServeApp(options: ServeAppOptions): Hono<Env> {
  const api: Api = {
    options,
    store: options.store,
    maxTransfer: options.maxTransfer ?? DEFAULT_MAX_TRANSFER,
  };
  const app = new Hono<Env>();
  app.onError((error) => responseOfError(error));
  app.notFound(() => errorResponse(404, "SPOOL_E_REF_NOT_FOUND", "no such route"));
  for (const asset of options.web.files) {
    app.get(asset.route, () => new Response(asset.body, { headers: asset.headers }));
  }
  app.use("/api/*", authenticated(options.authority));
  app.use("/api/v1/captures/:id", withinGrant);
  app.use("/api/v1/captures/:id/*", withinGrant);
  app.get("/api/v1/captures", (c) => listCaptures(api, c));
  app.get("/api/v1/captures/:id", (c) => captureReceipt(api, c));
  app.get("/api/v1/captures/:id/streams/:stream", (c) => streamBytes(api, c));
  app.get("/api/v1/captures/:id/streams/:stream/grep", (c) => grepStream(api, c));
  app.get("/api/v1/captures/:id/streams/:stream/lines", (c) => streamLines(api, c));
  app.get("/api/v1/captures/:id/events", (c) => followEvents(api, c));
  app.get("/api/v1/captures/:id/order", (c) => streamOrder(api, c));
  return app;
}

/** GET only, with a valid bearer token: its grant is kept for the handlers. */
function authenticated(authority: TokenAuthority) {
  return async (c: Ctx, next: () => Promise<void>) => {
    // GET only: Hono answers HEAD by running GET and dropping its body, which would leave
    // a stream's reader open until collected.
    if (c.req.method !== "GET") {
      return errorResponse(405, "SPOOL_E_USAGE", "read-only API: GET only", { allow: "GET" });
    }
    try {
      c.set("grant", authority.verify(c.req.header("authorization")));
    } catch (error) {
      return errorResponse(401, "SPOOL_E_AUTH", (error as Error).message.replace(/^[\w-]+: /, ""), {
        "www-authenticate": 'Bearer realm="spool"',
      });
    }
    await next();
    return undefined;
  };
}

/** Scope before the store: a capture outside the grant is refused without a look. */
async function withinGrant(c: Ctx, next: () => Promise<void>) {
  const id = c.req.param("id") ?? "";
  if (!isCaptureId(id)) return errorResponse(400, "SPOOL_E_REF_INVALID", "not a captureId");
  const grant = c.get("grant");
  if (grant.captureId !== null && grant.captureId !== id) {
    return errorResponse(403, "SPOOL_E_AUTH", "token is not for this capture");
  }
  await next();
  return undefined;
}

/** `GET /api/v1/captures`: every capture the grant sees, summarised. */
async function listCaptures(api: Api, c: Ctx): Promise<Response> {
  const grant = c.get("grant");
  const states =
    grant.captureId === null ? await api.store.list() : [await lookUp(api, grant.captureId)];
  const captures = states.map((s) => ({
    ...summary(s),
    callId: s.receipt.callId,
    label: s.receipt.label,
    exitCode: producerOf(s.receipt).exitCode,
    signal: producerOf(s.receipt).signal,
    startedAt: producerOf(s.receipt).startedAt,
    endedAt: producerOf(s.receipt).endedAt,
    reasons: s.receipt.capture.reasons,
    job: s.job !== null,
  }));
  const kept = withinTransfer(captures, api.maxTransfer);
  return json({ captures: kept, cut: kept.length < captures.length ? "max-transfer" : null });
}

/** `GET /api/v1/captures/:id`: its condition and receipt, for remote readers. */
async function captureReceipt(api: Api, c: Ctx): Promise<Response> {
  const state = await lookUp(api, idOf(c));
  return json({ condition: state.condition, receipt: receiptForRemote(state.receipt, null) });
}

/** `GET …/streams/:stream`: bytes (`stream-read.ts`). */
async function streamBytes(api: Api, c: Ctx): Promise<Response> {
  const stream = streamName(c.req.param("stream"));
  const state = await lookUp(api, idOf(c));
  return streamRead({
    store: api.store,
    state,
    stream,
    query: new URL(c.req.url).searchParams,
    headers: c.req.raw.headers,
    maxTransfer: api.maxTransfer,
    mayWrite: !c.get("grant").readOnly,
    outgoing: c.env?.outgoing ?? null,
  });
}

/** `GET …/streams/:stream/grep?pattern=…`: matches in a worker, cut by count, time and size. */
async function grepStream(api: Api, c: Ctx): Promise<Response> {
  const stream = streamName(c.req.param("stream"));
  const q = new URL(c.req.url).searchParams;
  const pattern = q.get("pattern");
  if (pattern === null || pattern.length === 0 || pattern.length > 1024) {
    return errorResponse(400, "SPOOL_E_USAGE", "pattern: 1 to 1024 characters");
  }
  const max = Math.min(bounded(q.get("max"), 100, "max"), GREP_MAX_RESULTS);
  const columns = Math.min(bounded(q.get("columns"), GREP_MAX_COLUMNS, "columns"), 16384);
  const state = await lookUp(api, idOf(c));
  if (state.receipt.streams[stream].ref === null) {
    return json({ matches: [], cut: null, scanned: 0, stored: false });
  }
  const reader = await api.store.openStream(state, stream);
  try {
    const result = await api.options.grep.run(reader, {
      pattern,
      ignoreCase: flag(q.get("i")),
      onlyMatching: flag(q.get("o")),
      max,
      columns,
    });
    const matches = withinTransfer(result.matches, api.maxTransfer);
    const cut = matches.length < result.matches.length ? "max-transfer" : result.cut;
    return json({
      ...result,
      matches,
      cut,
      committed: reader.committed,
      condition: state.condition,
    });
  } catch (error) {
    if (error instanceof SpoolError && error.code === "SPOOL_E_USAGE") {
      // `spool grep`'s own message, without the component it names.
      return errorResponse(400, "SPOOL_E_USAGE", error.message.replace(/^[\w-]+: /, ""));
    }
    if (error instanceof SpoolError && error.code === "SPOOL_E_STATE") {
      return errorResponse(503, "SPOOL_E_STATE", "busy: too many greps at once", {
        "retry-after": "1",
      });
    }
    throw error;
  } finally {
    await reader.close();
  }
}

/** `GET …/streams/:stream/lines`: the stream's line count at its committed end (`line-count.ts`). */
async function streamLines(api: Api, c: Ctx): Promise<Response> {
  const stream = streamName(c.req.param("stream"));
  const state = await lookUp(api, idOf(c));
  if (state.receipt.streams[stream].ref === null) {
    return json({ lines: 0, lastLineStart: 0, endsWithNewline: true, committed: 0, stored: false });
  }
  const reader = await api.store.openStream(state, stream);
  try {
    const count = await countLines(reader);
    return json({ ...count, binary: reader.binary, condition: state.condition });
  } finally {
    await reader.close();
  }
}

/** `GET …/order`: the capture's journal of stream switches, for reading both streams in write order. */
async function streamOrder(api: Api, c: Ctx): Promise<Response> {
  const state = await lookUp(api, idOf(c));
  const order = (await api.store.order?.(state.captureId)) ?? null;
  const s = state.receipt.streams;
  return json({
    switches: order?.switches ?? null,
    full: order?.full ?? false,
    committed: { stdout: s.stdout.committed, stderr: s.stderr.committed },
    condition: state.condition,
  });
}

/** `GET …/events`: Server-Sent Events (`live-events.ts`). */
async function followEvents(api: Api, c: Ctx): Promise<Response> {
  const state = await lookUp(api, idOf(c));
  return liveEvents({
    store: api.store,
    captureId: state.captureId,
    query: new URL(c.req.url).searchParams,
    lastEventId: c.req.header("last-event-id") ?? null,
    maxTransfer: api.maxTransfer,
    heartbeat: {
      everyMs: api.options.heartbeatMs ?? HEARTBEAT_MS,
      clock: api.options.clock ?? systemClock,
    },
  });
}

async function lookUp(api: Api, id: string) {
  const { captureId } = await api.store.resolve(id);
  return api.store.state(captureId);
}

/** The route's `:id` (checked to be a captureId by {@link withinGrant}). */
const idOf = (c: Ctx) => c.req.param("id") ?? "";

function streamName(raw: string | undefined): StreamName {
  if (raw !== "stdout" && raw !== "stderr") {
    throw new SpoolError("SPOOL_E_REF_NOT_FOUND", "serve", "stream is stdout or stderr");
  }
  return raw;
}

function json(value: unknown): Response {
  return new Response(JSON.stringify(value), {
    headers: {
      "content-type": "application/json",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

/** The leading items of `items` whose JSON fits in `limit` bytes (less room for the frame). */
function withinTransfer<T>(items: readonly T[], limit: number): T[] {
  let bytes = 1024;
  const kept: T[] = [];
  for (const item of items) {
    bytes += Buffer.byteLength(JSON.stringify(item)) + 1;
    if (bytes > limit) break;
    kept.push(item);
  }
  return kept;
}

function bounded(raw: string | null, fallback: number, name: string): number {
  if (raw === null) return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
    throw new SpoolError("SPOOL_E_USAGE", "serve", `${name} takes a positive integer`);
  }
  return Number(raw);
}

const flag = (raw: string | null) => raw === "1" || raw === "true";
