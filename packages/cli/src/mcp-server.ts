/**
 * `spool mcp`: the spool commands as MCP tools over stdio. Every tool calls the CLI's own
 * command function (`collectCommand`) and turns what it printed into a result: the text a
 * person would read (the preview and status line of `spool run`) plus `structuredContent`
 * checked against an `outputSchema` made from the receipt schema. Every result fits its
 * byte budget (`max_bytes`, default 16 KiB, at most `--max-result-bytes`); `read` and
 * `grep` page with a next offset. Captures are resources `spool://ID/STREAM{?offset}`.
 */
import { realpathSync } from "node:fs";
import * as path from "node:path";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  producerOf,
  type Receipt,
  ReceiptSchema,
  receiptExitStatus,
  SpoolError,
} from "@spool/core";
import { z } from "zod";
import type { CommandInput } from "./args.js";
import { type CommandOutput, collectCommand, errorText } from "./collected-io.js";
import type { MCP } from "./commands.js";
import { formatInline } from "./inline.js";
import type { Io } from "./io.js";
import { fitPage, resultBudget, resultBytes } from "./result-budget.js";

/** What `spool mcp` was started with. */
export interface McpServerOptions {
  /** The spool root (else the CLI's default). */
  readonly root: string | undefined;
  /** Most bytes of any tool result. */
  readonly maxResultBytes: number;
  /** run/start only these argv[0] (empty: any). */
  readonly allowCmd: readonly string[];
  /** never these argv[0] (or base names). */
  readonly denyCmd: readonly string[];
  /** Commands run only here or below (null: anywhere). */
  readonly confineCwd: string | null;
  /** Only these tools (default all), and no resources: what `mcp-proxy` adds to a server. */
  readonly only?: readonly string[];
  /** Put before each tool's name (`mcp-proxy` uses `spool_`). @default "" */
  readonly prefix?: string;
}

export async function mcpCommand(parsed: CommandInput<typeof MCP>, io: Io): Promise<number> {
  const o = parsed.options;
  const server = createSpoolMcpServer(
    {
      root: o.root,
      maxResultBytes: o["max-result-bytes"],
      allowCmd: o["allow-cmd"],
      denyCmd: o["deny-cmd"],
      confineCwd:
        o["confine-cwd"] === undefined
          ? null
          : realpathSync(path.resolve(io.cwd, o["confine-cwd"])),
    },
    io,
  );
  await serveStdio(server);
  return 0;
}

/** Serve `server` on this process's stdin/stdout until the client goes away. */
export async function serveStdio(server: McpServer): Promise<void> {
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  answerUnreadable(transport);
  await closed;
  await server.close();
}

/**
 * The SDK's transport drops a line that is not JSON, or not a JSON-RPC message, and only
 * reports it; JSON-RPC asks for an error with a null id (-32700 parse error, -32600 invalid
 * request), so the client is not left waiting. The server goes on reading.
 */
function answerUnreadable(transport: StdioServerTransport): void {
  const report = transport.onerror;
  transport.onerror = (error: Error) => {
    const code = error instanceof SyntaxError ? -32700 : error.name === "ZodError" ? -32600 : null;
    if (code !== null) {
      const message = code === -32700 ? "Parse error" : "Invalid Request";
      void transport.send({ jsonrpc: "2.0", id: null, error: { code, message } } as never);
    }
    report?.(error);
  };
}

const RunResultSchema = z.object({
  exitStatus: z
    .number()
    .int()
    .nullable()
    .describe("the exit status spool run would have (null: still running)"),
  receipt: ReceiptSchema,
});

const ReadResultSchema = z.object({
  captureId: z.string(),
  stream: z.enum(["stdout", "stderr"]),
  offset: z.number().int(),
  nextOffset: z.number().int().describe("where the next page starts (offset for the next read)"),
  committed: z.number().int(),
  running: z.boolean(),
  eof: z.boolean(),
  encoding: z.enum(["utf8", "base64"]),
});

const GrepResultSchema = z.object({
  matches: z.array(
    z.object({ line: z.number().int(), offset: z.number().int(), text: z.string() }),
  ),
  nextOffset: z
    .number()
    .int()
    .nullable()
    .describe("pass as `from` for the next page (null: no more)"),
});

const TextResultSchema = z.object({
  bytes: z.number().int().describe("bytes of the command's output"),
  clipped: z.boolean().describe("true if the text shown is only part of it"),
});

const LsResultSchema = z.object({
  captures: z.array(z.record(z.string(), z.unknown())),
  shown: z.number().int(),
  total: z.number().int(),
});

const ref = z
  .string()
  .min(1)
  .describe("a capture id, a --call-id, or a ref (path) printed by spool");
const stream = z.enum(["stdout", "stderr"]).optional().describe("the stream (default: stdout)");
const maxBytes = z
  .number()
  .int()
  .min(1)
  .optional()
  .describe("most bytes of this result (default 16384, at most the server's --max-result-bytes)");

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
  max_bytes: maxBytes,
};

type CaptureArgs = z.infer<z.ZodObject<typeof captureShape>>;

/**
 * The `spool mcp` server (not yet connected): its tools and resources.
 *
 * @example
 * const server = createSpoolMcpServer({ root, maxResultBytes: 1 << 20, allowCmd: [], denyCmd: [], confineCwd: null }, processIo);
 * await serveStdio(server);
 */
export function createSpoolMcpServer(
  options: McpServerOptions,
  io: Pick<Io, "cwd" | "env">,
): McpServer {
  const server = new McpServer(
    { name: "spool", version: "0.1.0" },
    { capabilities: { tools: {}, resources: {} } },
  );
  const rootArgs = options.root === undefined ? [] : ["--root", options.root];
  // Commands this server runs must not write the benchmarks' usage file of the server.
  const env = { ...io.env, SPOOL_RUSAGE_FILE: undefined };
  const call = (name: string, argv: readonly string[], cwd = io.cwd) =>
    collectCommand(name, [...rootArgs, ...argv], { cwd, env });

  const tool = <I extends z.ZodRawShape, O extends z.ZodType>(
    name: string,
    description: string,
    inputSchema: I,
    outputSchema: O,
    body: (args: z.infer<z.ZodObject<I>>) => Promise<CallToolResult>,
  ) =>
    (options.only ?? [name]).includes(name) &&
    server.registerTool(
      `${options.prefix ?? ""}${name}`,
      { description, inputSchema, outputSchema },
      (async (args: z.infer<z.ZodObject<I>>) => {
        try {
          return await body(args);
        } catch (error) {
          return { isError: true, content: [{ type: "text", text: errorText(name, error) }] };
        }
      }) as never,
    );

  const receiptResult = (
    receipt: Receipt,
    exitStatus: number | null,
    budget: number,
  ): CallToolResult => {
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
  };

  const captureArgv = (args: CaptureArgs, budget: number): string[] => {
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
  };

  tool(
    "run",
    "Run a command with its output captured by spool; returns a bounded preview, a status line and the receipt (refs to the full output for read/grep/tail). With background_after, a command still running after that many seconds goes on as a job.",
    {
      ...captureShape,
      background_after: z
        .number()
        .positive()
        .optional()
        .describe("seconds before a still-running command becomes a background job"),
    },
    RunResultSchema,
    async (args) => {
      const budget = resultBudget(args.max_bytes, options.maxResultBytes);
      const cwd = allowedCwd(options, io.cwd, args.cwd);
      checkCommand(options, args.argv);
      const argv = captureArgv(args, budget);
      if (args.background_after !== undefined)
        argv.push("--background-after", String(args.background_after));
      const out = await call("run", [...argv, "--", ...args.argv], cwd);
      const receipt = parseReceipt(out.stdout);
      const live = producerOf(receipt).running;
      return receiptResult(receipt, live ? null : out.status, budget);
    },
  );

  tool(
    "start",
    "Start a command as a background job; returns its launch receipt at once. Follow it with status, wait, read, tail, grep, kill.",
    captureShape,
    RunResultSchema,
    async (args) => {
      const budget = resultBudget(args.max_bytes, options.maxResultBytes);
      const cwd = allowedCwd(options, io.cwd, args.cwd);
      checkCommand(options, args.argv);
      const out = await call("start", [...captureArgv(args, budget), "--", ...args.argv], cwd);
      const receipt = parseReceipt(out.stdout);
      return receiptResult(
        receipt,
        producerOf(receipt).running ? null : receiptExitStatus(receipt),
        budget,
      );
    },
  );

  tool(
    "status",
    "The capture's current receipt (final, else live).",
    { ref, max_bytes: maxBytes },
    RunResultSchema,
    async (args) => {
      const out = await call("status", [args.ref]);
      const receipt = parseReceipt(out.stdout);
      const live = producerOf(receipt).running;
      return receiptResult(
        receipt,
        live ? null : receiptExitStatus(receipt),
        resultBudget(args.max_bytes, options.maxResultBytes),
      );
    },
  );

  tool(
    "wait",
    "Wait for a job to end (at most timeout seconds); its final receipt, else the live one.",
    {
      ref,
      timeout: z.number().positive().optional().describe("give up after this many seconds"),
      max_bytes: maxBytes,
    },
    RunResultSchema,
    async (args) => {
      const argv = [
        args.ref,
        ...(args.timeout === undefined ? [] : ["--timeout", String(args.timeout)]),
      ];
      const out = await call("wait", argv);
      const receipt = parseReceipt(out.stdout);
      const budget = resultBudget(args.max_bytes, options.maxResultBytes);
      return receiptResult(receipt, producerOf(receipt).running ? null : out.status, budget);
    },
  );

  tool(
    "read",
    "Committed bytes of a capture's stream, one bounded page: from offset (or lines A:B, or a named cursor); structuredContent.nextOffset is where the next page starts.",
    {
      ref,
      stream,
      offset: z.number().int().min(0).optional(),
      length: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe("most bytes (the page is also cut to max_bytes)"),
      lines: z.string().optional().describe("A:B, 1-based inclusive lines"),
      cursor: z
        .string()
        .optional()
        .describe("start where this consumer stopped, and advance its cursor"),
      max_bytes: maxBytes,
    },
    ReadResultSchema,
    async (args) => {
      const budget = resultBudget(args.max_bytes, options.maxResultBytes);
      const head = [args.ref, "--json", ...(args.stream ? ["--stream", args.stream] : [])];
      const frameOf = async (more: string[]) =>
        JSON.parse((await call("read", [...head, ...more])).stdout.toString()) as ReadFrame;
      const length = String(Math.min(args.length ?? budget, budget));
      if (args.cursor !== undefined) {
        if (args.offset !== undefined || args.lines !== undefined)
          throw new SpoolError("SPOOL_E_USAGE", "mcp", "cursor excludes offset and lines");
        // The page is cut to fit the budget after it is read, so the cursor must move only
        // past what the client gets: where it stands (a read of 0 bytes), the page from
        // there, then the cursor advanced by exactly the page.
        const at = (await frameOf(["--cursor", args.cursor, "--length", "0"])).offset;
        const page = readPage(await frameOf(["--offset", String(at), "--length", length]), budget);
        const next = (page.structuredContent as { nextOffset: number }).nextOffset;
        await frameOf(["--cursor", args.cursor, "--length", String(next - at)]);
        return page;
      }
      const more =
        args.lines !== undefined
          ? ["--lines", args.lines]
          : [
              ...(args.offset === undefined ? [] : ["--offset", String(args.offset)]),
              "--length",
              length,
            ];
      // A page of lines A:B that fits is the answer as it is: no pager line.
      return readPage(await frameOf(more), budget, args.lines === undefined);
    },
  );

  tool(
    "tail",
    "The last lines of a capture's stream (bounded: the start is cut if they do not fit).",
    {
      ref,
      stream,
      lines: z.number().int().min(0).optional().describe("how many lines (default 10)"),
      max_bytes: maxBytes,
    },
    TextResultSchema,
    async (args) => {
      const budget = resultBudget(args.max_bytes, options.maxResultBytes);
      const argv = [args.ref, "-n", String(args.lines ?? 10)];
      if (args.stream) argv.push("--stream", args.stream);
      const out = await call("tail", argv);
      const { result } = fitPage(
        out.stdout,
        budget,
        (page) => ({
          content: [{ type: "text" as const, text: page.toString("utf8") }],
          structuredContent: { bytes: out.stdout.length, clipped: page.length < out.stdout.length },
        }),
        "end",
      );
      return result;
    },
  );

  tool(
    "grep",
    "Matching lines of a capture's stream as LINE:OFFSET:TEXT (OFFSET for read). Paged: pass structuredContent.nextOffset as from for the next page.",
    {
      ref,
      pattern: z
        .string()
        .describe(
          "a regular expression in RE2 syntax (linear time: no lookaround, no backreferences)",
        ),
      stream,
      from: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe("only results at this byte offset or later"),
      max: z.number().int().min(1).optional().describe("most matches (default 100)"),
      ignore_case: z.boolean().optional(),
      only_matching: z.boolean().optional(),
      max_columns: z.number().int().min(1).optional(),
      max_bytes: maxBytes,
    },
    GrepResultSchema,
    async (args) => {
      const budget = resultBudget(args.max_bytes, options.maxResultBytes);
      const max = args.max ?? 100;
      const argv = [
        args.ref,
        args.pattern,
        "--json",
        "--max",
        String(max),
        "--from",
        String(args.from ?? 0),
      ];
      if (args.stream) argv.push("--stream", args.stream);
      if (args.ignore_case) argv.push("-i");
      if (args.only_matching) argv.push("-o");
      argv.push(
        "--max-columns",
        String(Math.min(args.max_columns ?? 2048, Math.floor(budget / 4))),
      );
      const out = await call("grep", argv);
      const all = out.stdout
        .toString("utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => {
          const { line, offset, text } = JSON.parse(l) as GrepHit;
          return { line, offset, text };
        });
      return grepPage(all, max, budget);
    },
  );

  tool(
    "kill",
    "Cancel a job (its process group; SIGKILL after a grace period).",
    {
      ref,
      signal: z.enum(["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGKILL"]).optional(),
    },
    TextResultSchema,
    async (args) => {
      const out = await call("kill", [args.ref, ...(args.signal ? ["--signal", args.signal] : [])]);
      const text = `${out.stdout.toString()}${out.stderr}`;
      return {
        isError: out.status !== 0,
        content: [{ type: "text", text }],
        structuredContent: { bytes: Buffer.byteLength(text), clipped: false },
      };
    },
  );

  tool(
    "ls",
    "List the captures in the root, newest last (bounded: the oldest are left out if they do not fit).",
    {
      unseen: z
        .boolean()
        .optional()
        .describe("only ended jobs whose completion was not delivered yet (delivers it)"),
      max_bytes: maxBytes,
    },
    LsResultSchema,
    async (args) => {
      const budget = resultBudget(args.max_bytes, options.maxResultBytes);
      const out = await call("ls", ["--json", ...(args.unseen ? ["--unseen"] : [])]);
      const captures = JSON.parse(out.stdout.toString()) as Record<string, unknown>[];
      const build = (n: number): CallToolResult => {
        const shown = captures.slice(captures.length - n);
        return {
          content: [
            {
              type: "text",
              text:
                shown.map(lsLine).join("\n") +
                (n < captures.length
                  ? `\n[spool] ${captures.length - n} older captures not shown`
                  : ""),
            },
          ],
          structuredContent: { captures: shown, shown: n, total: captures.length },
        };
      };
      let n = captures.length;
      while (n > 0 && resultBytes(build(n)) > budget)
        n = Math.max(0, Math.min(n - 1, Math.floor(n * 0.8)));
      return build(n);
    },
  );

  if (options.only === undefined) registerCaptureResources(server, options, call);
  return server;
}

function registerCaptureResources(
  server: McpServer,
  options: McpServerOptions,
  call: (name: string, argv: readonly string[]) => Promise<CommandOutput>,
): void {
  server.registerResource(
    "capture",
    new ResourceTemplate("spool://{captureId}/{stream}", {
      list: async () => {
        const out = await call("ls", ["--json"]);
        const captures = JSON.parse(out.stdout.toString()) as {
          captureId: string;
          label?: string | null;
        }[];
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
      },
    }),
    {
      description: "A capture's stream, in bounded pages (?offset=N for the next one)",
      mimeType: "text/plain",
    },
    async (uri, variables) => {
      const captureId = String(variables.captureId);
      // The page's offset is a query (?offset=N); the template's last variable holds it too.
      const s = String(variables.stream).split("?")[0] ?? "";
      if (s !== "stdout" && s !== "stderr")
        throw new SpoolError("SPOOL_E_USAGE", "mcp", `no stream ${s.slice(0, 20)}`);
      const offset = Number(uri.searchParams.get("offset") ?? 0);
      if (!Number.isSafeInteger(offset) || offset < 0)
        throw new SpoolError("SPOOL_E_USAGE", "mcp", "offset must be a byte offset");
      const budget = resultBudget(undefined, options.maxResultBytes);
      const out = await call("read", [
        captureId,
        "--json",
        "--stream",
        s,
        "--offset",
        String(offset),
        "--length",
        String(budget),
      ]);
      const frame = JSON.parse(out.stdout.toString()) as ReadFrame;
      const page = readPage(frame, budget);
      const sc = page.structuredContent as z.infer<typeof ReadResultSchema>;
      const body = page.content[0]?.type === "text" ? page.content[0].text : "";
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: frame.base64 === undefined ? "text/plain" : "application/octet-stream",
            ...(frame.base64 === undefined ? { text: body } : { blob: body }),
            _meta: {
              offset: sc.offset,
              nextOffset: sc.nextOffset,
              committed: sc.committed,
              eof: sc.eof,
            },
          },
        ],
      };
    },
  );
}

/** The `read --json` frame. */
interface ReadFrame {
  captureId: string;
  stream: "stdout" | "stderr";
  offset: number;
  nextOffset: number;
  committed: number;
  running: boolean;
  eof: boolean;
  text?: string;
  base64?: string;
}

/** A read page cut to the budget on a character boundary; nextOffset follows the cut. */
function readPage(frame: ReadFrame, budget: number, pager = true): CallToolResult {
  const binary = frame.base64 !== undefined;
  const bytes = binary
    ? Buffer.from(frame.base64 ?? "", "base64")
    : Buffer.from(frame.text ?? "", "utf8");
  const build = (page: Buffer): CallToolResult => {
    const nextOffset = frame.offset + page.length;
    const eof = frame.eof && nextOffset >= frame.committed;
    const body = binary ? page.toString("base64") : page.toString("utf8");
    const trailer =
      eof || (!pager && page.length === bytes.length)
        ? ""
        : `\n[spool] bytes ${frame.offset}–${nextOffset} of ${frame.committed}${frame.running ? " (running)" : ""} · next offset ${nextOffset}`;
    return {
      content: [{ type: "text", text: `${body}${trailer}` }],
      structuredContent: {
        captureId: frame.captureId,
        stream: frame.stream,
        offset: frame.offset,
        nextOffset,
        committed: frame.committed,
        running: frame.running,
        eof,
        encoding: binary ? "base64" : "utf8",
      },
    };
  };
  // Base64 grows by 4/3: fit raw bytes so that the encoded page fits.
  return fitPage(bytes, budget, build).result;
}

type GrepHit = { line: number; offset: number; text: string };

/** The matches that fit the budget; the next page starts after the last one shown. */
function grepPage(all: readonly GrepHit[], max: number, budget: number): CallToolResult {
  const build = (n: number): CallToolResult => {
    const shown = all.slice(0, n);
    const more = n < all.length || all.length >= max;
    const last = shown[shown.length - 1];
    const nextOffset = !more
      ? null
      : n < all.length
        ? (all[n] as GrepHit).offset
        : (last?.offset ?? -1) + 1;
    const lines = shown.map((m) => `${m.line}:${m.offset}:${m.text}`);
    if (nextOffset !== null) lines.push(`[spool] more matches: grep again with from ${nextOffset}`);
    if (all.length === 0) lines.push("[spool] no match");
    return {
      content: [{ type: "text", text: lines.join("\n") }],
      structuredContent: { matches: shown, nextOffset },
    };
  };
  let n = all.length;
  while (n > 0 && resultBytes(build(n)) > budget)
    n = Math.max(0, Math.min(n - 1, Math.floor(n * 0.9)));
  return build(n);
}

function lsLine(c: Record<string, unknown>): string {
  const p = (c.process ?? {}) as Record<string, unknown>;
  return [c.captureId, p.state ?? c.state, c.capture ?? "", c.label ?? ""]
    .map((v) => (typeof v === "object" ? JSON.stringify(v) : String(v)))
    .join("  ");
}

function parseReceipt(stdout: Buffer): Receipt {
  return ReceiptSchema.parse(JSON.parse(stdout.toString()));
}

/** The directory a command runs in: `asked` resolved, refused outside `--confine-cwd`. */
export function allowedCwd(
  options: McpServerOptions,
  serverCwd: string,
  asked: string | undefined,
): string {
  const base = options.confineCwd ?? serverCwd;
  const wanted = path.resolve(base, asked ?? ".");
  if (options.confineCwd === null) return wanted;
  let real: string;
  try {
    real = realpathSync(wanted);
  } catch (cause) {
    throw new SpoolError("SPOOL_E_DENIED", "mcp", "cwd does not exist", { cause });
  }
  const rel = path.relative(options.confineCwd, real);
  if (rel.startsWith("..") || path.isAbsolute(rel)) {
    throw new SpoolError(
      "SPOOL_E_DENIED",
      "mcp",
      "cwd is outside the directory this server is confined to",
    );
  }
  return real;
}

/** Refuse argv[0] by the server's allow and deny lists. */
export function checkCommand(options: McpServerOptions, argv: readonly string[]): void {
  const cmd = argv[0] ?? "";
  if (options.denyCmd.includes(cmd) || options.denyCmd.includes(path.basename(cmd))) {
    throw new SpoolError(
      "SPOOL_E_DENIED",
      "mcp",
      `command ${JSON.stringify(cmd.slice(0, 80))} is denied by --deny-cmd`,
    );
  }
  if (options.allowCmd.length > 0 && !options.allowCmd.includes(cmd)) {
    throw new SpoolError(
      "SPOOL_E_DENIED",
      "mcp",
      `command ${JSON.stringify(cmd.slice(0, 80))} is not in --allow-cmd`,
    );
  }
}
