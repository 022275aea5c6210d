/**
 * The `spool mcp` tools that answer with a receipt: `run`, `start`, `status`, `wait`. The
 * text is what `spool run` prints (preview and status line); `structuredContent` is the
 * receipt and the exit status the command would have. `status` and `wait` call
 * `captureStatus` and `waitForCapture` (`ops/`), the functions `spool status` and
 * `spool wait` call; `run` and `start` call `runFromInput` and `startJob`, the functions
 * `spool run` and `spool start` call (a cancelled `run` stops its whole process group).
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { producerOf, type Receipt, receiptExitStatus } from "@spool/core";
import { z } from "zod";
import { commandInput, MAX_TIMER_MS } from "../args.js";
import { RUN, START } from "../commands.js";
import { statusLine } from "../inline.js";
import { captureStatus } from "../ops/capture-status.js";
import { runFromInput, startJob } from "../ops/run-capture.js";
import { waitForCapture } from "../ops/wait-capture.js";
import { clipUtf8, clipUtf8Tail, resultBytes } from "../result-budget.js";
import { allowedCwd, checkCommand } from "./command-policy.js";
import { defineTool, locateRef, maxBytesArg, READS, refArg, type ToolContext } from "./tool.js";

/**
 * The receipt in a result: its key fields named, the rest as it is (the full JSON Schema
 * is `receipt.schema.json`; repeating it in every tool made `tools/list` 48 KB). The
 * preview's text is not repeated in it: it is the result's text.
 */
const ReceiptOutputSchema = z
  .looseObject({
    captureId: z.string(),
    capture: z.looseObject({ state: z.string() }),
    streams: z.looseObject({}),
  })
  .describe("the receipt (docs/receipt.md) but preview.text, which is the text content");

const RunResultSchema = z.object({
  exitStatus: z
    .number()
    .int()
    .nullable()
    .describe("the exit status spool run would have (null: still running)"),
  receipt: ReceiptOutputSchema,
});

const captureShape = {
  argv: z.array(z.string()).min(1).describe("the command and its arguments (no shell)"),
  cwd: z.string().optional().describe("working directory (default: the server's)"),
  timeout: z.number().positive().optional().describe("cancel after this many seconds"),
  label: z.string().max(200).optional(),
  call_id: z.string().optional().describe("your id for this call, usable as a ref"),
  preview_stdout: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("characters of stdout in the preview"),
  preview_stderr: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("characters of stderr in the preview"),
  preview_bytes: z.number().int().min(256).optional().describe("most bytes of the preview"),
  max_bytes: maxBytesArg,
};

type CaptureArgs = z.infer<z.ZodObject<typeof captureShape>>;

export const runTool = defineTool({
  name: "run",
  title: "Run a command, captured",
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  description:
    "Run a command with its output captured by spool; returns a bounded preview, a status line and the receipt (refs to the full output for read/grep/tail). With background_after, a command still running after that many seconds goes on as a job.",
  input: {
    ...captureShape,
    background_after: z
      .number()
      .positive()
      .optional()
      .describe("seconds before a still-running command becomes a background job"),
  },
  output: RunResultSchema,
  async handle(context, args, signal) {
    const budget = context.budget(args.max_bytes);
    const cwd = checkedCwd(context, args);
    const input = commandInput(
      RUN,
      {
        ...captureOptions(context, args, budget),
        "background-after": msOfSeconds(args.background_after),
      },
      args.argv,
    );
    const outcome = await runFromInput(input, { cwd, env: context.env }, signal ? { signal } : {});
    const live = producerOf(outcome.receipt).running;
    return receiptResult(outcome.receipt, live ? null : outcome.exitStatus, budget);
  },
});

export const startTool = defineTool({
  name: "start",
  title: "Start a background job",
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  description:
    "Start a command as a background job; returns its launch receipt at once. Follow it with status, wait, read, tail, grep, kill.",
  input: captureShape,
  output: RunResultSchema,
  async handle(context, args) {
    const budget = context.budget(args.max_bytes);
    const cwd = checkedCwd(context, args);
    const input = commandInput(START, captureOptions(context, args, budget), args.argv);
    const { receipt } = await startJob(input, { cwd, env: context.env });
    return receiptResult(
      receipt,
      producerOf(receipt).running ? null : receiptExitStatus(receipt),
      budget,
    );
  },
});

export const statusTool = defineTool({
  name: "status",
  title: "Receipt of a capture",
  annotations: READS,
  description: "The capture's current receipt (final, else live).",
  input: { ref: refArg, max_bytes: maxBytesArg },
  output: RunResultSchema,
  async handle(context, args) {
    const { store, captureId } = await locateRef(context, args.ref);
    const { state, exitStatus } = await captureStatus(store, captureId);
    return receiptResult(state.receipt, exitStatus, context.budget(args.max_bytes));
  },
});

export const waitTool = defineTool({
  name: "wait",
  title: "Wait for a job",
  annotations: READS,
  description:
    "Wait for a job to end (at most timeout seconds); its final receipt, else the live one.",
  input: {
    ref: refArg,
    timeout: z.number().positive().optional().describe("give up after this many seconds"),
    max_bytes: maxBytesArg,
  },
  output: RunResultSchema,
  async handle(context, args) {
    const { store, captureId } = await locateRef(context, args.ref);
    // As `spool wait --timeout` bounds it: a timer longer than that would fire at once.
    const timeoutMs =
      args.timeout === undefined ? null : Math.min(Math.round(args.timeout * 1000), MAX_TIMER_MS);
    const { state, exitStatus } = await waitForCapture(store, captureId, { timeoutMs });
    const { receipt } = state;
    const budget = context.budget(args.max_bytes);
    return receiptResult(receipt, producerOf(receipt).running ? null : exitStatus, budget);
  },
});

/** Where a command may run, after its argv[0] passed the allow and deny lists. */
function checkedCwd(context: ToolContext, args: CaptureArgs): string {
  const cwd = allowedCwd(context.options, context.cwd, args.cwd);
  checkCommand(context.options, args.argv);
  return cwd;
}

/** The capture options of `run`/`start` as typed option values, the preview sized to the budget. */
function captureOptions(
  context: ToolContext,
  args: CaptureArgs,
  budget: number,
): Record<string, unknown> {
  return {
    json: true,
    root: context.options.root,
    timeout: msOfSeconds(args.timeout),
    label: args.label,
    "call-id": args.call_id,
    "preview-stdout": args.preview_stdout,
    "preview-stderr": args.preview_stderr,
    // The preview is shown once (the text); the receipt takes about 3 KiB beside it.
    "preview-bytes": Math.max(256, Math.min(args.preview_bytes ?? 16384, budget - 3072)),
  };
}

/** Seconds as the milliseconds a duration option holds (undefined stays undefined). */
function msOfSeconds(s: number | undefined): number | undefined {
  return s === undefined ? undefined : Math.max(1, Math.round(s * 1000));
}

/**
 * The receipt as a result. The text is what a person sees in the terminal: the preview
 * (head, tail, the final error) and the status line; the structured part is the receipt
 * without the preview's text. When both do not fit `budget`, the receipt shrinks first
 * (its stage counters, then all but a summary), then the preview is cut in its middle,
 * never its end.
 */
export function receiptResult(
  receipt: Receipt,
  exitStatus: number | null,
  budget: number,
): CallToolResult {
  const status = `${statusLine(receipt, exitStatus ?? 0)}\n`;
  const result = (
    shape: (r: Receipt) => Record<string, unknown>,
    text: string,
  ): CallToolResult => ({
    content: [{ type: "text", text }],
    structuredContent: { exitStatus, receipt: shape(receipt) },
  });
  const whole = `${fitPreview(receipt.preview.text, Number.POSITIVE_INFINITY)}${status}`;
  for (const shape of RECEIPT_SHAPES) {
    const r = result(shape, whole);
    if (resultBytes(r) <= budget) return r;
  }
  const smallest = RECEIPT_SHAPES.at(-1)!;
  const room = budget - resultBytes(result(smallest, status));
  return result(smallest, `${fitPreview(receipt.preview.text, Math.max(0, room))}${status}`);
}

/** The receipt's shapes in a result, largest first (see {@link receiptResult}). */
const RECEIPT_SHAPES: readonly ((r: Receipt) => Record<string, unknown>)[] = [
  (r) => ({ ...r, preview: withoutText(r.preview) }),
  (r) => ({
    ...r,
    preview: withoutText(r.preview),
    streams: { stdout: lean(r.streams.stdout), stderr: lean(r.streams.stderr) },
  }),
  (r) => ({
    captureId: r.captureId,
    ...(r.process ? { process: r.process } : { source: r.source }),
    capture: r.capture,
    streams: {
      stdout: summary(r.streams.stdout),
      stderr: summary(r.streams.stderr),
    },
    shrunk: true,
  }),
];

function withoutText(preview: Receipt["preview"]) {
  const { text: _text, ...rest } = preview;
  return rest;
}

function lean(s: Receipt["streams"]["stdout"]) {
  const { stageCounters: _counters, ...rest } = s;
  return rest;
}

function summary(s: Receipt["streams"]["stdout"]) {
  return { produced: s.produced, committed: s.committed, lines: s.lines, ref: s.ref };
}

/**
 * `text` within `room` bytes of JSON: as it is, or its first third and last two thirds
 * around a line that says how much was cut (the end holds the final error).
 */
function fitPreview(text: string, room: number): string {
  const body = text.length > 0 && !text.endsWith("\n") ? `${text}\n` : text;
  if (Buffer.byteLength(JSON.stringify(body)) - 2 <= room) return body;
  const bytes = Buffer.from(body);
  const marker = (cut: number) =>
    `\n[… ${cut} bytes of the preview cut to fit max_bytes; read the streams for all of it …]\n`;
  const usable = Math.max(0, room - Buffer.byteLength(marker(bytes.length)) - 16);
  // JSON escapes may make the text longer than its bytes: shrink until it fits.
  for (let keep = usable; ; keep = Math.floor(keep * 0.9)) {
    const head = clipUtf8(bytes, Math.floor(keep / 3));
    const tail = clipUtf8Tail(bytes, keep - head.length);
    const out = `${head.toString()}${marker(bytes.length - head.length - tail.length)}${tail.toString()}`;
    if (Buffer.byteLength(JSON.stringify(out)) - 2 <= room || keep === 0)
      return keep === 0 ? "" : out;
  }
}
