/**
 * The `spool mcp` tools that answer with a receipt: `run`, `start`, `status`, `wait`. The
 * text is what `spool run` prints (preview and status line); `structuredContent` is the
 * receipt and the exit status the command would have. `status` and `wait` call
 * `captureStatus` and `waitForCapture` (`ops/`), the functions `spool status` and
 * `spool wait` call; `run` and `start` launch their capture through the CLI command.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { producerOf, type Receipt, ReceiptSchema, receiptExitStatus } from "@spool/core";
import { z } from "zod";
import { MAX_TIMER_MS } from "../args.js";
import { formatInline } from "../inline.js";
import { captureStatus } from "../ops/capture-status.js";
import { waitForCapture } from "../ops/wait-capture.js";
import { resultBytes } from "../result-budget.js";
import { allowedCwd, checkCommand } from "./command-policy.js";
import { defineTool, locateRef, maxBytesArg, refArg, type ToolContext } from "./tool.js";

const RunResultSchema = z.object({
  exitStatus: z
    .number()
    .int()
    .nullable()
    .describe("the exit status spool run would have (null: still running)"),
  receipt: ReceiptSchema,
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
  async handle(context, args) {
    const budget = context.budget(args.max_bytes);
    const cwd = checkedCwd(context, args);
    const argv = captureArgv(args, budget);
    if (args.background_after !== undefined)
      argv.push("--background-after", String(args.background_after));
    const out = await context.call("run", [...argv, "--", ...args.argv], cwd);
    const receipt = parseReceipt(out.stdout);
    const live = producerOf(receipt).running;
    return receiptResult(receipt, live ? null : out.status, budget);
  },
});

export const startTool = defineTool({
  name: "start",
  description:
    "Start a command as a background job; returns its launch receipt at once. Follow it with status, wait, read, tail, grep, kill.",
  input: captureShape,
  output: RunResultSchema,
  async handle(context, args) {
    const budget = context.budget(args.max_bytes);
    const cwd = checkedCwd(context, args);
    const out = await context.call(
      "start",
      [...captureArgv(args, budget), "--", ...args.argv],
      cwd,
    );
    const receipt = parseReceipt(out.stdout);
    return receiptResult(
      receipt,
      producerOf(receipt).running ? null : receiptExitStatus(receipt),
      budget,
    );
  },
});

export const statusTool = defineTool({
  name: "status",
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

/** The capture options of `run`/`start` as `spool run` flags, the preview sized to the budget. */
function captureArgv(args: CaptureArgs, budget: number): string[] {
  const argv = ["--json"];
  const add = (flag: string, value: string | number | undefined) => {
    if (value !== undefined) argv.push(flag, String(value));
  };
  add("--timeout", args.timeout);
  add("--label", args.label);
  add("--call-id", args.call_id);
  add("--preview-stdout", args.preview_stdout);
  add("--preview-stderr", args.preview_stderr);
  // The preview is shown twice (text, receipt): each gets under half of the budget.
  add(
    "--preview-bytes",
    Math.max(256, Math.min(args.preview_bytes ?? 16384, Math.floor((budget - 3072) / 2))),
  );
  return argv;
}

/** The receipt as a result: `spool run`'s text, or over the budget its status line alone. */
function receiptResult(
  receipt: Receipt,
  exitStatus: number | null,
  budget: number,
): CallToolResult {
  const structuredContent = { exitStatus, receipt };
  const full: CallToolResult = {
    content: [{ type: "text", text: formatInline(receipt, exitStatus ?? 0) }],
    structuredContent,
  };
  if (resultBytes(full) <= budget) return full;
  // The preview is in the receipt too; over the budget the text keeps only the status line.
  return {
    content: [
      {
        type: "text",
        text: formatInline(
          { ...receipt, preview: { ...receipt.preview, text: "" } },
          exitStatus ?? 0,
        ),
      },
    ],
    structuredContent,
  };
}

function parseReceipt(stdout: Buffer): Receipt {
  return ReceiptSchema.parse(JSON.parse(stdout.toString()));
}
