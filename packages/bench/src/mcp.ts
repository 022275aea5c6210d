/**
 * `spool bench mcp`: spool through MCP, in one run.
 * 1. The retrieval tasks of `bench fixtures`, through `spool mcp`'s tools alone (`run`
 *    for the fixture, then `grep`/`read`), with the calls and bytes each needed.
 * 2. Bytes a client receives per call with and without `spool mcp-proxy`, for each fixture
 *    read as a file through the real `@modelcontextprotocol/server-filesystem`.
 * 3. The proxy's added latency on a small result (p50/p99), beside direct calls, interleaved.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { BenchIo, BenchOptions } from "./context.js";
import { FIXTURES } from "./fixture-data.js";
import { connectMcpClient } from "./mcp-client.js";
import { FIXTURE_CHILD, SPOOL_BIN } from "./programs.js";
import { type Invoke, RETRIEVAL_LIMITS, type RetrievalInput, runRetrieval } from "./retrieval.js";

type Result = {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
};
const wire = (r: unknown) => Buffer.byteLength(JSON.stringify(r));
const textOf = (r: Result) => r.content.map((c) => c.text ?? "").join("");

export async function benchMcp(options: BenchOptions, io: BenchIo): Promise<number> {
  const work = mkdtempSync(path.join(options.work ?? tmpdir(), "spool-bench-mcp-"));
  const clients = createClients();
  try {
    const root = path.join(work, "root");
    const spool = await clients.connect([SPOOL_BIN, "mcp", "--root", root]);
    const ok = await benchRetrieval(spool, root, io);
    const { direct, proxied } = await benchResultBytes(clients, work, io);
    await benchLatency(clients, direct, proxied, options.rounds ?? 200, io);
    return ok ? 0 : 1;
  } finally {
    await clients.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** MCP clients of servers this bench starts, each server's pid kept for its CPU time. */
interface Clients {
  connect(args: string[]): Promise<Client>;
  pid(client: Client): number | null | undefined;
  close(): Promise<void>;
}

function createClients(): Clients {
  const clients: Client[] = [];
  const pids = new Map<Client, number | null>();
  return {
    async connect(args) {
      const { client, pid } = await connectMcpClient(args, { name: "spool-bench" });
      clients.push(client);
      pids.set(client, pid);
      return client;
    },
    pid: (client) => pids.get(client),
    async close() {
      for (const c of clients) await c.close();
    },
  };
}

/** 1. The retrieval tasks through `spool mcp`'s tools alone; true if every one is within its limits. */
async function benchRetrieval(spool: Client, root: string, io: BenchIo): Promise<boolean> {
  const listed = wire(await spool.listTools());
  io.stdout(
    `## retrieval through spool mcp's tools alone\n\ntools/list: ${listed} bytes (paid once per conversation).\n\n| task | correct | calls | bytes read | the same through the CLI | limit |\n| --- | --- | --- | --- | --- | --- |\n`,
  );
  const rows: RetrievalInput[] = [];
  for (const f of FIXTURES) {
    const t0 = performance.now();
    const r = (await spool.callTool({
      name: "run",
      arguments: { argv: [process.execPath, FIXTURE_CHILD, f.name] },
    })) as Result;
    const receipt = r.structuredContent?.receipt as {
      streams: Record<"stdout" | "stderr", { ref: string | null }>;
    };
    rows.push({
      name: f.name,
      root,
      inline: textOf(r),
      refs: { stdout: receipt.streams.stdout.ref, stderr: receipt.streams.stderr.ref },
      wallMs: performance.now() - t0,
    });
  }
  const results = await runRetrieval(rows, undefined, mcpInvoke(spool));
  // The CLI path on the same captures: `spool grep|read … --root ROOT`, what a shell tool sees.
  const cli = await runRetrieval(rows);
  let ok = true;
  for (const [i, x] of results.entries()) {
    const within =
      x.correct &&
      x.calls.length <= RETRIEVAL_LIMITS.calls &&
      x.contextBytes <= RETRIEVAL_LIMITS.contextBytes;
    ok &&= within;
    io.stdout(
      `| ${x.task} | ${x.correct ? "yes" : "NO"} | ${x.calls.length} | ${x.contextBytes} | ${cli[i]?.contextBytes ?? "–"} | ≤ ${RETRIEVAL_LIMITS.calls} calls, ≤ ${RETRIEVAL_LIMITS.contextBytes} B |\n`,
    );
  }
  return ok;
}

/** 2. Bytes per call of server-filesystem's read_text_file, direct and through mcp-proxy. */
async function benchResultBytes(clients: Clients, work: string, io: BenchIo) {
  const files = path.join(work, "files");
  mkdirSync(files);
  for (const f of FIXTURES)
    writeFileSync(path.join(files, `${f.name}.txt`), f.stdout() + f.stderr());
  const fs = [serverFilesystem(), files];
  const direct = await clients.connect(fs);
  const proxied = await clients.connect([
    SPOOL_BIN,
    "mcp-proxy",
    "--root",
    path.join(work, "proxy-root"),
    "--",
    process.execPath,
    ...fs,
  ]);
  io.stdout(
    "\n## bytes returned per call (read_text_file of each fixture, server-filesystem)\n\n| fixture | direct | through mcp-proxy |\n| --- | --- | --- |\n",
  );
  for (const f of FIXTURES) {
    const call = {
      name: "read_text_file",
      arguments: { path: path.join(files, `${f.name}.txt`) },
    };
    io.stdout(
      `| ${f.name} | ${wire(await direct.callTool(call))} | ${wire(await proxied.callTool(call))} |\n`,
    );
  }
  return { direct, proxied };
}

/** 3. Latency and CPU of a small call, direct and through mcp-proxy, interleaved. */
async function benchLatency(
  clients: Clients,
  direct: Client,
  proxied: Client,
  rounds: number,
  io: BenchIo,
): Promise<void> {
  const small = { name: "list_allowed_directories", arguments: {} };
  const times: Record<"direct" | "proxy", number[]> = { direct: [], proxy: [] };
  // CPU of the server process (direct) and of the proxy process alone (not its server).
  const cpu0 = {
    direct: processCpuMs(clients.pid(direct)),
    proxy: processCpuMs(clients.pid(proxied)),
  };
  for (let i = 0; i < rounds; i++) {
    for (const [k, c] of [
      ["direct", direct],
      ["proxy", proxied],
    ] as const) {
      const t0 = performance.now();
      await c.callTool(small);
      times[k].push(performance.now() - t0);
    }
  }
  const q = (xs: number[], p: number) =>
    [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? 0;
  const cpu = {
    direct: cpuPerCall(cpu0.direct, processCpuMs(clients.pid(direct)), rounds),
    proxy: cpuPerCall(cpu0.proxy, processCpuMs(clients.pid(proxied)), rounds),
  };
  io.stdout(
    `\n## latency of a small result (${rounds} interleaved calls each)\n\nCPU: the server's process for direct calls, the proxy's own process (its server not counted) for proxied ones; from /proc, 10 ms ticks.\n\n| | p50 ms | p99 ms | CPU ms/call |\n| --- | --- | --- | --- |\n`,
  );
  for (const k of ["direct", "proxy"] as const)
    io.stdout(
      `| ${k} | ${q(times[k], 0.5).toFixed(2)} | ${q(times[k], 0.99).toFixed(2)} | ${cpu[k]} |\n`,
    );
  io.stdout(
    `| proxy added | ${(q(times.proxy, 0.5) - q(times.direct, 0.5)).toFixed(2)} | ${(q(times.proxy, 0.99) - q(times.direct, 0.99)).toFixed(2)} | |\n`,
  );
  io.stdout(
    `| proxy / direct | ${(q(times.proxy, 0.5) / q(times.direct, 0.5)).toFixed(2)}× | ${(q(times.proxy, 0.99) / q(times.direct, 0.99)).toFixed(2)}× | |\n`,
  );
}

/** A task's `spool grep|read …` as the MCP tool call an agent would make; bytes = text read. */
function mcpInvoke(client: Client): Invoke {
  return async (_row, args) => {
    const [command, ref, ...rest] = args;
    const flag = (name: string) => {
      const at = rest.indexOf(name);
      return at === -1 ? undefined : rest[at + 1];
    };
    const t0 = performance.now();
    let call: { name: string; arguments: Record<string, unknown> };
    if (command === "grep") {
      const max = flag("--max");
      call = {
        name: "grep",
        arguments: {
          ref,
          pattern: rest[0],
          only_matching: rest.includes("-o"),
          ...(max ? { max: Number(max) } : {}),
        },
      };
    } else if (command === "read") {
      const lines = flag("--lines");
      call = { name: "read", arguments: { ref, ...(lines ? { lines } : {}) } };
    } else {
      throw new Error(`bench mcp: no tool for spool ${command}`);
    }
    const r = (await client.callTool(call)) as Result;
    const text = textOf(r);
    return { text, bytes: Buffer.byteLength(text), ms: performance.now() - t0 };
  };
}

/** User plus system CPU of a process, in ms (Linux /proc; null elsewhere). */
function processCpuMs(pid: number | null | undefined): number | null {
  if (pid == null) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    // utime and stime, fields 14 and 15 of stat(5), in clock ticks (USER_HZ, 100 on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

function cpuPerCall(before: number | null, after: number | null, calls: number): string {
  return before === null || after === null ? "n/a" : ((after - before) / calls).toFixed(2);
}

function serverFilesystem(): string {
  const require = createRequire(import.meta.url);
  return require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js", {
    paths: [path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../..")],
  });
}
