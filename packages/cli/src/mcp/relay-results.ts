/**
 * What `spool mcp-proxy` does with an answer to a `tools/call`: capture it, and pass it on
 * or replace it by its receipt when over the budget; and what it answers for a call the
 * wrapped server never finished (the capture of the bytes that did arrive).
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
import {
  fail,
  type Id,
  INTERNAL_ERROR,
  key,
  type Message,
  REQUEST_TIMEOUT,
  type Relay,
  toClient,
  toServer,
} from "./relay-state.js";

/** The wrapped server's answer `m` (the line `line`) to a call of `tool`. */
export function onResult(relay: Relay, m: Message, line: Buffer, tool: string): void {
  const { budget, capture } = relay.options;
  const id = m.id as Id;
  const result = m.result;
  if (!result) {
    toClient(line); // errors pass through unchanged
    return;
  }
  if (line.length <= budget) {
    toClient(line);
    // Most calls: capturing them is most of the proxy's CPU and would keep nothing.
    if (keepsNothing(result, line.length, capture)) return;
    relay.captures = relay.captures
      .then(() => captureToolResult(tool, result, capture))
      .catch(reportCaptureError);
    return;
  }
  relay.captures = relay.captures
    .then(() => captureToolResult(tool, result, capture))
    .then((c) =>
      toClient({ jsonrpc: "2.0", id, result: replacement(tool, line.length, c, result, budget) }),
    )
    .catch((error: unknown) =>
      fail(
        id,
        INTERNAL_ERROR,
        `spool mcp-proxy: the result of ${tool} (${line.length} B) could not be spooled: ${(error as Error).message}`,
      ),
    );
}

/** `--call-timeout` passed for call `id`: cancel it upstream, answer with what arrived. */
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
    call.tool,
    relay.fromServer.pending(),
    `the wrapped server did not answer ${call.tool} within ${relay.options.callTimeoutMs / 1000} s`,
  );
}

/** An error answer for a call never answered, its `data.receipt` the capture of `bytes`. */
export function partialError(relay: Relay, id: Id, tool: string, bytes: Buffer, why: string) {
  relay.captures = relay.captures
    .then(() => capturePartial(tool, bytes, relay.options.capture))
    .then((c) =>
      fail(
        id,
        REQUEST_TIMEOUT,
        `spool mcp-proxy: ${why}; ${bytes.length} B of its answer kept as capture ${c.receipt.captureId} (partial)`,
        { receipt: c.receipt },
      ),
    )
    .catch((error: unknown) =>
      fail(id, INTERNAL_ERROR, `spool mcp-proxy: ${why} (${(error as Error).message})`),
    );
}

function reportCaptureError(error: unknown): void {
  process.stderr.write(
    `spool mcp-proxy: a result could not be spooled: ${(error as Error).message}\n`,
  );
}

/**
 * What the client gets instead of a result over the budget: preview, status line, what to
 * call next, the receipt (in `_meta`, its preview being the text), and `structuredContent`
 * cut to a quarter of the budget with its shape kept (clients check it against the schema).
 */
function replacement(
  tool: string,
  bytes: number,
  c: CapturedResult,
  original: Record<string, unknown>,
  budget: number,
) {
  const r = c.receipt;
  const build = (preview: boolean) => {
    const lines = [
      formatInline(
        preview ? r : { ...r, preview: { ...r.preview, text: "" } },
        c.exitStatus,
      ).trimEnd(),
      `[spool] the result of ${tool} was ${bytes} B, over this proxy's budget: it is spooled as capture ${r.captureId}; read on with spool_read {"ref":"${r.captureId}","offset":N}, spool_grep or spool_tail.`,
      ...c.binaries.map(
        (b) => `[spool] content[${b.index}] ${b.mimeType} stored as capture ${b.captureId}`,
      ),
    ];
    return {
      content: [{ type: "text", text: lines.join("\n") }],
      ...(original.structuredContent === undefined
        ? {}
        : {
            structuredContent: boundJson(
              original.structuredContent,
              Math.floor(budget / 4),
              `capture ${r.captureId}`,
            ),
          }),
      ...(original.isError === true ? { isError: true } : {}),
      _meta: {
        "spool/receipt": { ...r, preview: { ...r.preview, text: "" } },
        "spool/binaries": c.binaries,
      },
    };
  };
  const full = build(true);
  return resultBytes(full) + 64 <= budget ? full : build(false);
}
