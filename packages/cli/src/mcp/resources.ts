/**
 * The captures of `spool mcp` as resources `spool://ID/STREAM{?offset}`, in bounded pages:
 * listed by `listCaptureSummaries` and read by `readCapture` (`ops/`), as `spool ls` and
 * `spool read` do.
 */
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SpoolError } from "@spool/core";
import type { z } from "zod";
import { listCaptureSummaries } from "../ops/list-captures.js";
import { readCapture } from "../ops/read-capture.js";
import { type ReadResultSchema, readPage } from "./read-tool.js";
import { locateRef, type ToolContext } from "./tool.js";

export function registerCaptureResources(server: McpServer, context: ToolContext): void {
  server.registerResource(
    "capture",
    new ResourceTemplate("spool://{captureId}/{stream}", { list: () => listResources(context) }),
    {
      description: "A capture's stream, in bounded pages (?offset=N for the next one)",
      mimeType: "text/plain",
    },
    (uri, variables) => readResource(context, uri, variables),
  );
}

/** Both streams of the newest 200 captures. */
async function listResources(context: ToolContext) {
  const { captures } = await listCaptureSummaries(context.store());
  return {
    resources: captures.slice(-200).flatMap((c) =>
      (["stdout", "stderr"] as const).map((s) => ({
        uri: `spool://${c.captureId}/${s}`,
        name: `${c.captureId} ${s}`,
        ...(c.label ? { description: c.label } : {}),
        mimeType: "text/plain",
      })),
    ),
  };
}

/** One page of `spool://ID/STREAM?offset=N`, its offsets in `_meta`. */
async function readResource(
  context: ToolContext,
  uri: URL,
  variables: Record<string, string | string[]>,
) {
  // The page's offset is a query (?offset=N); the template's last variable holds it too.
  const s = String(variables.stream).split("?")[0] ?? "";
  if (s !== "stdout" && s !== "stderr")
    throw new SpoolError("SPOOL_E_USAGE", "mcp", `no stream ${s.slice(0, 20)}`);
  const offset = Number(uri.searchParams.get("offset") ?? 0);
  if (!Number.isSafeInteger(offset) || offset < 0)
    throw new SpoolError("SPOOL_E_USAGE", "mcp", "offset must be a byte offset");
  const budget = context.budget(undefined);
  const { store, captureId } = await locateRef(context, String(variables.captureId));
  const frame = await readCapture(store, {
    captureId,
    stream: s,
    from: { offset },
    length: budget,
  });
  const page = readPage(frame, budget);
  const sc = page.structuredContent as z.infer<typeof ReadResultSchema>;
  const body = page.content[0]?.type === "text" ? page.content[0].text : "";
  return {
    contents: [
      {
        uri: uri.href,
        mimeType: frame.binary ? "application/octet-stream" : "text/plain",
        ...(frame.binary ? { blob: body } : { text: body }),
        _meta: {
          offset: sc.offset,
          nextOffset: sc.nextOffset,
          committed: sc.committed,
          eof: sc.eof,
        },
      },
    ],
  };
}
