/**
 * What `spool mcp-proxy` does with an answer to a request it bounds (`relay-shapes.ts`):
 * capture it, and pass it on or replace it by its receipt when over the budget; what it
 * answers for a request the wrapped server never finished (the capture of the bytes that
 * did arrive); and what it does with a line from the server that is not JSON-RPC.
 */
import { boundJson } from "../bounded-json.js";
import { formatInline } from "../inline.js";
import { resultBytes } from "../result-budget.js";
import {
  type CapturedResult,
  capturePartial,
  captureToolResult,
  keepsNothing,
} from "../tool-result-capture.js";
import { redactJson, redactString } from "./relay-redaction.js";
import { type Kept, type ResultShape, shapeOf } from "./relay-shapes.js";
import {
  fail,
  type Id,
  INTERNAL_ERROR,
  idOf,
  key,
  type Message,
  type PendingCall,
  REQUEST_TIMEOUT,
  type Relay,
  SERVER_ERROR,
  toClient,
  toServer,
} from "./relay-state.js";

/** The wrapped server's answer `m` (the line `line`) to the request `call`. */
export function onResult(relay: Relay, m: Message, line: Buffer, call: PendingCall): void {
  const { budget, capture } = relay.options;
  const id = m.id as Id;
  const result = m.result;
  const shape = shapeOf(call.method);
  if (!result || !shape) {
    toClient(line); // errors, and the results of other methods, pass through unchanged
    return;
  }
  const parts = shape.parts(result);
  if (line.length <= budget) {
    toClient(line);
    // Most calls: capturing them is most of the proxy's CPU and would keep nothing.
    if (keepsNothing(parts, line.length, capture)) return;
    relay.captures = relay.captures
      .then(() => captureToolResult(call.tool, parts, capture))
      .catch(reportCaptureError);
    return;
  }
  relay.captures = relay.captures
    .then(() => captureToolResult(call.tool, parts, capture))
    .then((c) => spooledAnswer(relay, id, call, line.length, c, shape, result))
    .catch((error: unknown) =>
      fail(
        id,
        INTERNAL_ERROR,
        `spool mcp-proxy: the result of ${redactString(call.tool)} (${line.length} B) could not be spooled: ${(error as Error).message}`,
      ),
    );
}

/** The answer to `id` for a result of `bytes` bytes spooled as `c`: its replacement. */
export function spooledAnswer(
  relay: Relay,
  id: Id,
  call: PendingCall,
  bytes: number,
  c: CapturedResult,
  shape: ResultShape,
  original: Record<string, unknown>,
): void {
  toClient({
    jsonrpc: "2.0",
    id,
    result: replacement(relay, call.tool, bytes, c, shape, original),
  });
}

/** `--call-timeout` passed for request `id`: cancel it upstream, answer with what arrived. */
export function timeOut(relay: Relay, id: Id): void {
  const call = relay.pending.get(key(id));
  if (!call) return;
  relay.pending.delete(key(id));
  toServer(
    relay,
    Buffer.from(
      JSON.stringify({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: id, reason: "spool mcp-proxy: --call-timeout" },
      }),
    ),
  );
  partialError(
    relay,
    id,
    call,
    relay.fromServer.pending(),
    `the wrapped server did not answer ${redactString(call.tool)} within ${relay.options.callTimeoutMs / 1000} s`,
  );
}

/**
 * An error answer for a request never answered. For a method the proxy bounds, its
 * `data.receipt` is the capture of `bytes` (what had arrived of the answer), or `made`
 * when that capture was streamed already; any other request gets the error alone.
 */
export function partialError(
  relay: Relay,
  id: Id,
  call: PendingCall,
  bytes: Buffer,
  why: string,
  made?: CapturedResult,
) {
  if (shapeOf(call.method) === undefined && bytes.length === 0 && made === undefined) {
    relay.captures = relay.captures.then(() =>
      fail(id, REQUEST_TIMEOUT, `spool mcp-proxy: ${why}`),
    );
    return;
  }
  relay.captures = relay.captures
    .then(() => made ?? capturePartial(call.tool, bytes, relay.options.capture))
    .then((c) =>
      fail(
        id,
        REQUEST_TIMEOUT,
        `spool mcp-proxy: ${why}; ${made === undefined ? `${bytes.length} B of its answer` : "its text so far"} kept as capture ${c.receipt.captureId} (partial)`,
        { receipt: c.receipt },
      ),
    )
    .catch((error: unknown) =>
      fail(id, INTERNAL_ERROR, `spool mcp-proxy: ${why} (${(error as Error).message})`),
    );
}

/**
 * A line from the wrapped server that is not JSON-RPC. It cannot be an answer the client
 * could read: it is kept in a capture and answered at once as an error for the request it
 * names (an `"id"` in its first bytes that is pending), else for the oldest pending one;
 * with none pending, the proxy says so on stderr (one line, its size and capture only).
 */
export function onGarbage(relay: Relay, line: Buffer): void {
  const named = /"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/.exec(line.subarray(0, 4096).toString());
  const candidate = named?.[1] === undefined ? undefined : safeKey(named[1]);
  const k =
    candidate !== undefined && relay.pending.has(candidate)
      ? candidate
      : relay.pending.keys().next().value;
  const call = k === undefined ? undefined : relay.pending.get(k);
  if (k === undefined || call === undefined) {
    relay.captures = relay.captures
      .then(() => capturePartial("unsolicited line", line, relay.options.capture, NOT_JSON_RPC))
      .then((c) =>
        process.stderr.write(
          `spool mcp-proxy: the wrapped server sent a line that is not JSON-RPC (${line.length} B), kept as capture ${c.receipt.captureId}\n`,
        ),
      )
      .catch(reportCaptureError);
    return;
  }
  clearTimeout(call.timer);
  relay.pending.delete(k);
  const id = idOf(k) ?? k;
  const why = `the wrapped server sent a line that is not JSON-RPC (${line.length} B) while ${redactString(call.tool)} was pending`;
  relay.captures = relay.captures
    .then(() => capturePartial(call.tool, line, relay.options.capture, NOT_JSON_RPC))
    .then((c) =>
      fail(id, SERVER_ERROR, `spool mcp-proxy: ${why}; kept as capture ${c.receipt.captureId}`, {
        receipt: c.receipt,
      }),
    )
    .catch((error: unknown) =>
      fail(id, SERVER_ERROR, `spool mcp-proxy: ${why} (${(error as Error).message})`),
    );
}

const NOT_JSON_RPC = "not JSON-RPC";

/** A JSON id as written in a line, as a pending-map key, or undefined if it does not parse. */
function safeKey(written: string): string | undefined {
  const id = idOf(written);
  return id === null ? undefined : key(id);
}

function reportCaptureError(error: unknown): void {
  process.stderr.write(
    `spool mcp-proxy: a result could not be spooled: ${(error as Error).message}\n`,
  );
}

/**
 * What the client gets instead of a result over the budget, in its method's shape: preview,
 * status line, what to call next, the receipt (in `_meta`, its preview being the text); a
 * tool result also keeps its first image block if it fits, and `structuredContent`
 * redacted and cut to a quarter of the budget with its shape kept (clients check it
 * against the schema). The first of these that fits: with the preview and the image, with
 * the preview, without the preview but with the image, without either.
 */
function replacement(
  relay: Relay,
  tool: string,
  bytes: number,
  c: CapturedResult,
  shape: ResultShape,
  original: Record<string, unknown>,
) {
  const { budget, toolPrefix } = relay.options;
  const r = c.receipt;
  const structured =
    original.structuredContent === undefined
      ? undefined
      : boundJson(
          redactJson(original.structuredContent),
          Math.floor(budget / 4),
          `capture ${r.captureId}`,
        );
  const image = firstImage(original);
  const build = (preview: boolean, withImage: boolean) => {
    const lines = [
      formatInline(
        preview ? r : { ...r, preview: { ...r.preview, text: "" } },
        c.exitStatus,
      ).trimEnd(),
      `[spool] the result of ${redactString(tool)} was ${bytes} B, over this proxy's budget: it is spooled as capture ${r.captureId}; read on with ${toolPrefix}read {"ref":"${r.captureId}","offset":N}, ${toolPrefix}grep or ${toolPrefix}tail.`,
      ...c.binaries.map(
        (b) => `[spool] content[${b.index}] ${b.mimeType} stored as capture ${b.captureId}`,
      ),
    ];
    const kept: Kept = {
      ...(structured === undefined ? {} : { structuredContent: structured }),
      ...(withImage && image !== undefined ? { image } : {}),
    };
    return {
      ...shape.replace(lines.join("\n"), original, kept),
      _meta: {
        "spool/receipt": { ...r, preview: { ...r.preview, text: "" } },
        "spool/binaries": c.binaries,
      },
    };
  };
  const fits = (x: unknown) => resultBytes(x) + 64 <= budget;
  const candidates = [() => build(true, true), () => build(true, false), () => build(false, true)];
  for (const candidate of image === undefined ? candidates.slice(1, 2) : candidates) {
    const result = candidate();
    if (fits(result)) return result;
  }
  return build(false, false);
}

/** A tool result's first image block, as it came (its bytes are in a capture as well). */
function firstImage(original: Record<string, unknown>): unknown {
  const content = Array.isArray(original.content) ? original.content : [];
  return content.find((item) => (item as { type?: unknown }).type === "image");
}
