/**
 * How `mcp-proxy` keeps a wrapped server's tool result: its text items (and embedded text
 * resources) joined into one text capture with a separator line before each item when
 * there are several, `structuredContent` as a last JSON section, and every image, audio
 * or binary resource in a capture of its own (`--binary keep`, its MIME type in the label),
 * named in the text. All of it goes through `spool capture`, redacted like any capture.
 */
import { Readable } from "node:stream";
import { type Receipt, ReceiptSchema } from "@spool/core";
import { needsEscape } from "@spool/core/runtime";
import { collectCommand } from "./collected-io.js";
import type { Io } from "./io.js";

/** One content item of a tool result, as MCP defines it (only the fields used here). */
interface ContentItem {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string };
}

/** Where and how the proxy captures. */
export interface ResultCaptureOptions {
  readonly root: string | undefined;
  readonly previewBytes: number;
  readonly io: Pick<Io, "cwd" | "env" | "invoke">;
}

/** The capture of one result: the text capture's receipt and the binary items' ids. */
export interface CapturedResult {
  readonly receipt: Receipt;
  readonly exitStatus: number;
  readonly binaries: readonly { index: number; mimeType: string; captureId: string }[];
}

/**
 * Capture `result` (a CallToolResult as received) of tool `tool`. A result whose server
 * declares it truncated (`_meta.truncated: true`) is captured as such: never complete.
 */
export async function captureToolResult(
  tool: string,
  result: { content?: unknown; structuredContent?: unknown; _meta?: unknown },
  options: ResultCaptureOptions,
): Promise<CapturedResult> {
  const items = Array.isArray(result.content) ? (result.content as ContentItem[]) : [];
  const sections: string[] = [];
  const binaries: { index: number; mimeType: string; captureId: string }[] = [];
  const several = items.length + (result.structuredContent === undefined ? 0 : 1) > 1;
  for (const [i, item] of items.entries()) {
    const head = (what: string) =>
      several ? `${i === 0 ? "" : "\n"}----- [spool] content[${i}] ${what} -----\n` : "";
    const binary = binaryOf(item);
    if (binary) {
      const r = await captureBytes(
        binary.bytes,
        `${tool} content[${i}] ${binary.mimeType}`,
        true,
        options,
      );
      binaries.push({ index: i, mimeType: binary.mimeType, captureId: r.receipt.captureId });
      sections.push(
        `${several ? head(`${item.type} ${binary.mimeType}`) : ""}[spool] ${item.type} ${binary.mimeType}, ${binary.bytes.length} B, stored as capture ${r.receipt.captureId}\n`,
      );
    } else if (item.type === "text") {
      sections.push(`${head("text")}${item.text ?? ""}`);
    } else if (item.type === "resource" && item.resource?.text !== undefined) {
      sections.push(
        `${head(`resource ${item.resource.uri ?? ""} ${item.resource.mimeType ?? ""}`)}${item.resource.text}`,
      );
    } else {
      // resource_link, or a type this proxy does not know: recorded, not retained.
      sections.push(
        `${head(item.type)}[spool] ${item.type} not retained: ${JSON.stringify(item).slice(0, 500)}\n`,
      );
    }
  }
  if (result.structuredContent !== undefined) {
    sections.push(
      `${several ? "\n----- [spool] structuredContent -----\n" : ""}${JSON.stringify(result.structuredContent)}\n`,
    );
  }
  const text = await captureBytes(
    Buffer.from(sections.join("")),
    `${tool} result`,
    false,
    options,
    declaredTruncated(result) ? "truncated" : "complete",
  );
  return { ...text, binaries };
}

/**
 * Whether the server says it cut this result itself: `_meta.truncated === true`, the one
 * signal recognised (MCP has no standard one; a marker inside the text is not read).
 */
function declaredTruncated(result: { _meta?: unknown }): boolean {
  const meta = result._meta;
  return (
    typeof meta === "object" &&
    meta !== null &&
    (meta as { truncated?: unknown }).truncated === true
  );
}

/**
 * Capture bytes that never completed a JSON-RPC message (the wrapped server died or hung),
 * or a line that was not one (`why`: "not JSON-RPC").
 */
export async function capturePartial(
  tool: string,
  bytes: Buffer,
  options: ResultCaptureOptions,
  why = "partial: the wrapped server did not finish it",
): Promise<CapturedResult> {
  const r = await captureBytes(bytes, `${tool} result (${why})`, false, options, "truncated");
  return { ...r, binaries: [] };
}

/**
 * Whether capturing a result that reached the client whole would keep nothing: its message
 * is at most a quarter of the capture's preview and it holds no binary item. Its capture
 * would stay on the small-result path (no directory, the receipt only), and the proxy would
 * drop that receipt: the quarter leaves room for the section lines and for redaction
 * markers longer than what they replace.
 */
export function keepsNothing(
  result: { content?: unknown },
  messageBytes: number,
  options: Pick<ResultCaptureOptions, "previewBytes">,
): boolean {
  if (messageBytes > Math.floor(options.previewBytes / 4)) return false;
  const items = Array.isArray(result.content) ? (result.content as ContentItem[]) : [];
  // Only one section of text is shown as itself: any other item, and the header of each
  // of several sections, is a `[spool] …` line, which the capture's preview escapes as it
  // would a child's look-alike (so the capture is stored).
  const structured = (result as { structuredContent?: unknown }).structuredContent;
  const texts = items.map((item) =>
    item.type === "text"
      ? (item.text ?? "")
      : item.type === "resource"
        ? item.resource?.text
        : undefined,
  );
  if (structured !== undefined) texts.push(JSON.stringify(structured));
  return texts.length <= 1 && texts.every((t) => t !== undefined && !needsEscape(t));
}

function binaryOf(item: ContentItem): { bytes: Buffer; mimeType: string } | null {
  if ((item.type === "image" || item.type === "audio") && typeof item.data === "string") {
    return {
      bytes: Buffer.from(item.data, "base64"),
      mimeType: item.mimeType ?? "application/octet-stream",
    };
  }
  if (item.type === "resource" && typeof item.resource?.blob === "string") {
    return {
      bytes: Buffer.from(item.resource.blob, "base64"),
      mimeType: item.resource.mimeType ?? "application/octet-stream",
    };
  }
  return null;
}

/**
 * Capture a text as it streams in (`mcp-proxy`'s path for a message too large to hold),
 * labelled `TOOL result`. Destroying `text` with an error ends the capture short.
 */
export async function captureTextStream(
  tool: string,
  text: Readable,
  options: ResultCaptureOptions,
): Promise<CapturedResult> {
  return { ...(await captureBytes(text, `${tool} result`, false, options)), binaries: [] };
}

async function captureBytes(
  bytes: Buffer | Readable,
  label: string,
  binary: boolean,
  options: ResultCaptureOptions,
  declared: "complete" | "truncated" = "complete",
): Promise<{ receipt: Receipt; exitStatus: number }> {
  const argv = [
    ...(options.root === undefined ? [] : ["--root", options.root]),
    "--json",
    "--label",
    label.slice(0, 200),
    "--preview-bytes",
    String(options.previewBytes),
    "--declared",
    declared,
    ...(binary ? ["--binary", "keep"] : []),
  ];
  // In pipe-sized pieces, as a child's output would come: one 5 MB chunk is more than the
  // writer queue accepts at once.
  const out = await collectCommand("capture", argv, {
    ...options.io,
    stdin: Buffer.isBuffer(bytes) ? Readable.from(pieces(bytes)) : bytes,
  });
  return {
    receipt: ReceiptSchema.parse(JSON.parse(out.stdout.toString())),
    exitStatus: out.status,
  };
}

function* pieces(bytes: Buffer): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += PIECE_BYTES) yield bytes.subarray(at, at + PIECE_BYTES);
}

const PIECE_BYTES = 64 * 1024;
