/**
 * The bytes route of a stream: `GET /api/v1/captures/:id/streams/:stream`, choosing its
 * bytes by exactly one of (two together are refused, 400)
 *
 * - `Range: bytes=A-B` (raw bytes as asked, 206 with `Content-Range`; one range only, more
 *   are refused 416; a start at or past the committed end is 416 `bytes *\/COMMITTED`);
 * - `?offset=N&length=M`, `?lines=A:B`, `?cursor=NAME[&length=M]`: the same bytes as
 *   `spool read` with those options (never a split UTF-8 character); a cursor advances
 *   once its bytes were all sent, and only for a grant that may write;
 * - nothing: the whole committed stream.
 *
 * Every body stops at `maxTransfer` bytes; a cut one says so (`Spool-Cut: max-transfer`)
 * and where to go on (`Spool-Next-Offset`). A final stream with a sha256 carries it as a
 * strong `ETag` and is cacheable (`private, immutable`; `If-None-Match` → 304); a live
 * one is `no-store` and says its committed length (`Spool-Committed`).
 */
import type { ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import {
  type ByteSpan,
  type CaptureStore,
  SpoolError,
  type StoredCapture,
  type StoredStream,
  type StreamName,
} from "@spool/core";
import { checkCursorName } from "../cursor-name.js";
import { errorResponse } from "./http-error.js";
import { parseRange, RANGE_DIGITS } from "./range-header.js";
import { pumpRange } from "./range-pump.js";

export interface StreamReadRequest {
  readonly store: CaptureStore;
  readonly state: StoredCapture;
  readonly stream: StreamName;
  readonly query: URLSearchParams;
  readonly headers: Headers;
  readonly maxTransfer: number;
  /** The grant may advance cursors. */
  readonly mayWrite: boolean;
  /**
   * The Node response, when the app runs under `@hono/node-server`: the bytes are piped
   * to it straight from the store (no web-stream bridge per chunk). Without it, the body
   * is the same stream as a web `ReadableStream`.
   */
  readonly outgoing: ServerResponse | null;
}

/** What the query selects (at most one of lines, cursor and offset, and none with a `Range`). */
interface Selection {
  readonly lines: { first: number; last: number } | null;
  readonly cursor: string | null;
  readonly offset: number | null;
  readonly length: number | null;
}

/** A span to send: `status` 206 for a `Range`, 200 otherwise. */
interface Chosen {
  readonly status: 200 | 206;
  readonly start: number;
  readonly end: number;
}

export async function streamRead(r: StreamReadRequest): Promise<Response> {
  const selection = selectionOf(r.query, r.headers, r.mayWrite);
  if (selection instanceof Response) return selection;
  const { etag, headers } = cacheHeaders(r);
  if (etag && ifNoneMatch(r.headers.get("if-none-match"), etag)) {
    return new Response(null, { status: 304, headers });
  }
  const reader = await r.store.openStream(r.state, r.stream);
  let handedOff = false;
  try {
    headers["spool-committed"] = String(reader.committed);
    headers["content-type"] = reader.binary
      ? "application/octet-stream"
      : "text/plain; charset=utf-8";
    const chosen = await chooseSpan(r, reader, selection, etag);
    if ("refused" in chosen) {
      return errorResponse(416, "SPOOL_E_USAGE", chosen.refused, {
        ...headers,
        "content-type": "application/json",
        "content-range": `bytes */${reader.committed}`,
      });
    }
    const { status, start } = chosen;
    const end = await spanHeaders(r, reader, chosen, headers);
    const cursor = selection.cursor;
    const advance =
      cursor === null
        ? null
        : () => r.store.cursors.advance(r.state.captureId, r.stream, cursor, end);
    handedOff = true;
    return send(r.outgoing, status, headers, reader, start, end, advance);
  } finally {
    if (!handedOff) await reader.close();
  }
}

/** The query's selectors, checked (a usage error is thrown, a refusal returned). */
function selectionOf(
  q: URLSearchParams,
  headers: Headers,
  mayWrite: boolean,
): Selection | Response {
  const selectors = ["offset", "lines", "cursor"].filter((k) => q.has(k));
  // A Range with any query selector (or a length, which only an offset or cursor takes)
  // is two answers to one question: refused, not settled by a silent precedence.
  const ranged = headers.has("range");
  if (selectors.length + (ranged ? 1 : 0) > 1 || (ranged && q.has("length"))) {
    return errorResponse(
      400,
      "SPOOL_E_USAGE",
      "one selector at a time: Range, offset, lines or cursor",
    );
  }
  if (q.has("lines") && q.has("length")) {
    return errorResponse(400, "SPOOL_E_USAGE", "lines and length exclude each other");
  }
  const cursor = q.get("cursor");
  if (cursor !== null) {
    if (!mayWrite)
      return errorResponse(403, "SPOOL_E_AUTH", "a read-only token cannot advance a cursor");
    checkCursorName(cursor);
  }
  return {
    cursor,
    offset: q.has("offset") ? count(q.get("offset"), "offset") : null,
    length: q.has("length") ? count(q.get("length"), "length") : null,
    lines: q.has("lines") ? parseLines(q.get("lines") ?? "") : null,
  };
}

/**
 * The span asked: a `Range` (unless `If-Range` is not the ETag)
 * as raw bytes, else what the selectors pick; or why a range is refused (answered 416).
 */
async function chooseSpan(
  r: StreamReadRequest,
  reader: StoredStream,
  selection: Selection,
  etag: string | null,
): Promise<Chosen | { refused: string }> {
  const rangeHeader = r.headers.get("range");
  const ifRange = r.headers.get("if-range");
  const range =
    rangeHeader !== null && (ifRange === null || ifRange === etag)
      ? parseRange(rangeHeader, reader.committed)
      : { kind: "ignored" as const };
  if (range.kind === "multiple") return { refused: "one range at a time" };
  if (range.kind === "unsatisfiable") return { refused: "range starts past the committed end" };
  if (range.kind === "overlong")
    return { refused: `range numbers have at most ${RANGE_DIGITS} digits` };
  // Raw bytes as asked (a resumed download must join exactly), cut at maxTransfer.
  if (range.kind === "range") return { status: 206, start: range.start, end: range.end };
  const { start, end } = await selectedSpan(r, reader, selection);
  return { status: 200, start, end };
}

/** Cut the span at `maxTransfer` and say so, where it is and how long: the end to send to. */
async function spanHeaders(
  r: StreamReadRequest,
  reader: StoredStream,
  chosen: Chosen,
  headers: Record<string, string>,
): Promise<number> {
  const { status, start } = chosen;
  let end = chosen.end;
  if (end - start > r.maxTransfer) {
    // A range is cut anywhere (raw bytes); a selection at a character's end.
    end = status === 206 ? start + r.maxTransfer : (await reader.span(start, r.maxTransfer)).end;
    headers["spool-cut"] = "max-transfer";
  }
  if (status === 206) {
    const total = r.state.condition === "final" ? String(reader.committed) : "*";
    headers["content-range"] = `bytes ${start}-${end - 1}/${total}`;
  }
  headers["spool-offset"] = String(start);
  headers["spool-next-offset"] = String(end);
  headers["spool-eof"] = String(
    r.state.condition !== "live" && end >= reader.committed && end === chosen.end,
  );
  headers["content-length"] = String(end - start);
  return end;
}

/** Headers every answer of a stream carries: a final stream with a sha256 is cacheable by its ETag, anything else is `no-store`. */
function cacheHeaders(r: StreamReadRequest): {
  etag: string | null;
  headers: Record<string, string>;
} {
  const sha256 = r.state.receipt.streams[r.stream].sha256;
  const etag = r.state.condition === "final" && sha256 ? `"sha256-${sha256}"` : null;
  const headers: Record<string, string> = {
    "accept-ranges": "bytes",
    "spool-condition": r.state.condition,
    "x-content-type-options": "nosniff",
    "cache-control": etag ? "private, max-age=31536000, immutable" : "no-store",
  };
  if (etag) headers.etag = etag;
  return { etag, headers };
}

/** The span `?lines`, `?cursor` or `?offset&length` select (whole characters; everything by default). */
async function selectedSpan(
  r: StreamReadRequest,
  reader: StoredStream,
  q: {
    lines: { first: number; last: number } | null;
    cursor: string | null;
    offset: number | null;
    length: number | null;
  },
): Promise<ByteSpan> {
  if (q.lines) {
    const { start, end } = await reader.lineRange(q.lines.first, q.lines.last);
    return reader.span(start, end - start);
  }
  const from =
    q.cursor !== null
      ? await r.store.cursors.get(r.state.captureId, r.stream, q.cursor)
      : (q.offset ?? 0);
  return reader.span(from, q.length ?? Number.MAX_SAFE_INTEGER);
}

/**
 * Send `[start, end)` on the Node response through reused buffers when there is one
 * (`range-pump.ts`), else as a web stream of the store's chunks; the reader is closed
 * after either. A cursor moves once every byte up to it is handed to the connection
 * (before the client can have read the end, so its next read continues from there).
 */
function send(
  outgoing: ServerResponse | null,
  status: number,
  headers: Record<string, string>,
  reader: StoredStream,
  start: number,
  end: number,
  advance: (() => Promise<void>) | null,
): Response {
  if (outgoing === null) {
    const body = Readable.from(bytesOf(reader, start, end, advance), { objectMode: false });
    // Also when the body is cancelled before its first read (a generator never started
    // runs no `finally`).
    body.once("close", () => void reader.close());
    return new Response(Readable.toWeb(body) as ReadableStream<Uint8Array>, { status, headers });
  }
  outgoing.writeHead(status, headers);
  void pumpRange(reader, start, end, outgoing, advance ? { beforeLast: advance } : {});
  return RESPONSE_ALREADY_SENT;
}

async function* bytesOf(
  reader: StoredStream,
  start: number,
  end: number,
  done: (() => Promise<void>) | null,
): AsyncGenerator<Buffer> {
  try {
    let at = start;
    for await (const chunk of reader.chunks(start, end)) {
      at += chunk.length;
      if (at >= end) await done?.();
      yield chunk;
    }
  } finally {
    await reader.close();
  }
}

function ifNoneMatch(header: string | null, etag: string): boolean {
  if (header === null) return false;
  return (
    header.trim() === "*" || header.split(",").some((t) => t.trim().replace(/^W\//, "") === etag)
  );
}

function count(raw: string | null, name: string): number {
  if (raw === null || !/^\d{1,15}$/.test(raw)) {
    throw usage(`${name} takes a non-negative integer`);
  }
  return Number(raw);
}

function parseLines(raw: string): { first: number; last: number } {
  const m = /^(\d{1,12}):(\d{1,12})?$/.exec(raw);
  const first = m ? Number(m[1]) : 0;
  const last = m?.[2] !== undefined ? Number(m[2]) : Number.MAX_SAFE_INTEGER;
  if (!m || first < 1 || last < first) throw usage("lines takes A:B (1-based, A ≤ B)");
  return { first, last };
}

const usage = (message: string) => new SpoolError("SPOOL_E_USAGE", "serve", message);
