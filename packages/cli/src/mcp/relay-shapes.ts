/**
 * The results `spool mcp-proxy` bounds, one entry per method: how each is captured (as the
 * content items and structured part of a tool result) and what replaces one over the
 * budget, in the method's own result shape so that the client's schema check accepts it.
 * `tasks/result` carries a task-augmented `tools/call`'s result: the same shape.
 */
import { redactString } from "./relay-redaction.js";

/** What a result is captured as (`captureToolResult` reads these three fields). */
export interface CapturableResult {
  readonly content?: unknown;
  readonly structuredContent?: unknown;
  readonly _meta?: unknown;
}

/** What a replacement keeps of the original besides its text (tool results only). */
export interface Kept {
  /** The structured part, redacted and cut to its share of the budget. */
  readonly structuredContent?: unknown;
  /** The first image block, whole, when it fits the budget. */
  readonly image?: unknown;
}

/** How one method's results are captured and replaced. */
export interface ResultShape {
  readonly parts: (result: Record<string, unknown>) => CapturableResult;
  /** The replacement's fields but `_meta`, around `text` (preview, status line, where to read on). */
  readonly replace: (
    text: string,
    original: Record<string, unknown>,
    kept: Kept,
  ) => Record<string, unknown>;
}

const TOOL_RESULT: ResultShape = {
  parts: (result) => result,
  replace: (text, original, kept) => ({
    content: [{ type: "text", text }, ...(kept.image === undefined ? [] : [kept.image])],
    ...(kept.structuredContent === undefined ? {} : { structuredContent: kept.structuredContent }),
    ...(original.isError === true ? { isError: true } : {}),
  }),
};

/** `resources/read`: each of `contents` is captured as an embedded resource would be. */
const RESOURCE_READ: ResultShape = {
  parts: (result) => ({
    content: arrayOf(result.contents).map((resource) => ({ type: "resource", resource })),
    _meta: result._meta,
  }),
  replace: (text, original) => {
    const first = arrayOf(original.contents)[0] as { uri?: unknown } | undefined;
    const uri = typeof first?.uri === "string" ? redactString(first.uri) : "spool:";
    return { contents: [{ uri, mimeType: "text/plain", text }] };
  },
};

/** `prompts/get`: the content of each message, in order. */
const PROMPT_GET: ResultShape = {
  parts: (result) => ({
    content: arrayOf(result.messages).map((m) => (m as { content?: unknown }).content ?? {}),
    _meta: result._meta,
  }),
  replace: (text, original) => ({
    ...(typeof original.description === "string"
      ? { description: redactString(original.description) }
      : {}),
    messages: [{ role: "user", content: { type: "text", text } }],
  }),
};

/** The methods whose results go through the budget and the capture. */
export const RESULT_SHAPES: Readonly<Record<string, ResultShape>> = {
  "tools/call": TOOL_RESULT,
  "tasks/result": TOOL_RESULT,
  "resources/read": RESOURCE_READ,
  "prompts/get": PROMPT_GET,
};

/** The shape of `method`'s results, or undefined for a method passed through as it is. */
export function shapeOf(method: string): ResultShape | undefined {
  return Object.hasOwn(RESULT_SHAPES, method) ? RESULT_SHAPES[method] : undefined;
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
