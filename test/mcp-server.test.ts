/**
 * `spool mcp` driven by the SDK's real `Client` over stdio, spawning the built binary.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, symlinkSync } from "node:fs";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { nodeCmd, SPOOL_BIN, tempRoot } from "./helpers.js";

const open: Client[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function connect(args: string[], cwd?: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SPOOL_BIN, "mcp", ...args],
    stderr: "pipe",
    ...(cwd ? { cwd } : {}),
  });
  const client = new Client({ name: "spool-test", version: "0" });
  await client.connect(transport);
  open.push(client);
  return client;
}

type Result = {
  content: { type: string; text?: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
};
const text = (r: Result) => r.content.map((c) => c.text ?? "").join("");
const wire = (r: Result) => Buffer.byteLength(JSON.stringify(r));

describe("spool mcp", () => {
  it("lists the tools with output schemas from the receipt schema", async () => {
    const client = await connect(["--root", tempRoot()]);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ["grep", "kill", "ls", "read", "run", "start", "status", "tail", "wait"].sort(),
    );
    const run = tools.find((t) => t.name === "run");
    const receipt = (
      (run?.outputSchema ?? {}).properties as Record<string, { properties?: object }>
    ).receipt;
    expect(Object.keys(receipt?.properties ?? {})).toEqual(
      expect.arrayContaining(["captureId", "process", "capture", "streams", "preview"]),
    );
  });

  it("run returns the CLI's preview and status line, bounded; read pages the rest byte for byte", async () => {
    const root = tempRoot();
    const client = await connect(["--root", root]);
    const script = `for (let i = 0; i < 200000; i++) console.log("line " + i + " é")`;
    const r = (await client.callTool({
      name: "run",
      arguments: { argv: nodeCmd(script) },
    })) as Result;
    expect(r.isError).toBeFalsy();
    expect(wire(r)).toBeLessThanOrEqual(16 * 1024);
    expect(text(r)).toMatch(/\[spool\] exit 0 · status 0 · capture complete/);
    const receipt = r.structuredContent.receipt as {
      captureId: string;
      streams: { stdout: { produced: number } };
    };
    expect(r.structuredContent.exitStatus).toBe(0);
    const pages: Buffer[] = [];
    let offset = 0;
    for (;;) {
      const page = (await client.callTool({
        name: "read",
        arguments: { ref: receipt.captureId, offset, max_bytes: 65536 },
      })) as Result;
      expect(wire(page)).toBeLessThanOrEqual(65536);
      const sc = page.structuredContent as { nextOffset: number; eof: boolean };
      const body = text(page).replace(/\n\[spool\] bytes \d+–\d+ of \d+ · next offset \d+$/, "");
      pages.push(Buffer.from(body));
      expect(sc.nextOffset).toBe(offset + Buffer.byteLength(body));
      offset = sc.nextOffset;
      if (sc.eof) break;
    }
    const all = Buffer.concat(pages);
    expect(all.length).toBe(receipt.streams.stdout.produced);
    let expected = "";
    for (let i = 0; i < 200000; i++) expected += `line ${i} é\n`;
    const sha = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");
    expect(sha(all)).toBe(sha(expected));
  });

  it("grep pages with a next offset; tail and status are bounded", async () => {
    const root = tempRoot();
    const client = await connect(["--root", root]);
    const script = `for (let i = 0; i < 5000; i++) console.log(i % 10 === 0 ? "ERROR at " + i : "ok " + i)`;
    const r = (await client.callTool({
      name: "run",
      arguments: { argv: nodeCmd(script), call_id: "g1" },
    })) as Result;
    expect(r.structuredContent.exitStatus).toBe(0);
    const seen: number[] = [];
    let from = 0;
    for (let calls = 0; calls < 100; calls++) {
      const g = (await client.callTool({
        name: "grep",
        arguments: { ref: "g1", pattern: "ERROR", from, max_bytes: 4096 },
      })) as Result;
      expect(wire(g)).toBeLessThanOrEqual(4096);
      const sc = g.structuredContent as { matches: { line: number }[]; nextOffset: number | null };
      seen.push(...sc.matches.map((m) => m.line));
      if (sc.nextOffset === null) break;
      from = sc.nextOffset;
    }
    expect(seen).toEqual(Array.from({ length: 500 }, (_, i) => i * 10 + 1));
    const t = (await client.callTool({
      name: "tail",
      arguments: { ref: "g1", lines: 2 },
    })) as Result;
    expect(text(t)).toBe("ok 4998\nok 4999\n");
    const s = (await client.callTool({ name: "status", arguments: { ref: "g1" } })) as Result;
    expect((s.structuredContent.receipt as { capture: { state: string } }).capture.state).toBe(
      "complete",
    );
    const ls = (await client.callTool({ name: "ls", arguments: {} })) as Result;
    expect(ls.structuredContent.total).toBe(1);
    // The line names the capture's process and capture states (it once read `undefined`).
    const id = (s.structuredContent.receipt as { captureId: string }).captureId;
    const label = (s.structuredContent.receipt as { label: string }).label;
    expect(text(ls)).toBe(`${id}  exited  complete  ${label}`);
    expect(ls.structuredContent.captures).toEqual([
      expect.objectContaining({ captureId: id, callId: "g1", process: "exited", exitCode: 0 }),
    ]);
  });

  it("start, wait and kill a background job; resources page a capture", async () => {
    const root = tempRoot();
    const client = await connect(["--root", root]);
    const started = (await client.callTool({
      name: "start",
      arguments: {
        argv: nodeCmd(`console.log("x".repeat(40000)); setInterval(() => {}, 1000)`),
        call_id: "bg",
      },
    })) as Result;
    expect(started.isError).toBeFalsy();
    const k = (await client.callTool({ name: "kill", arguments: { ref: "bg" } })) as Result;
    expect(k.isError).toBeFalsy();
    const w = (await client.callTool({
      name: "wait",
      arguments: { ref: "bg", timeout: 30 },
    })) as Result;
    expect(text(w)).toMatch(/killed by SIGTERM/);
    const id = (w.structuredContent.receipt as { captureId: string }).captureId;
    const { resources } = await client.listResources();
    expect(resources.map((x) => x.uri)).toContain(`spool://${id}/stdout`);
    const page = await client.readResource({ uri: `spool://${id}/stdout` });
    const first = page.contents[0] as { text: string; _meta: { nextOffset: number } };
    expect(Buffer.byteLength(first.text)).toBeLessThanOrEqual(16 * 1024);
    const next = await client.readResource({
      uri: `spool://${id}/stdout?offset=${first._meta.nextOffset}`,
    });
    expect((next.contents[0] as { text: string }).text.startsWith("x")).toBe(true);
  });

  it("refuses commands and directories outside its lists, and bad input, without dying", async () => {
    const root = tempRoot();
    const jail = path.join(root, "jail");
    mkdirSync(jail);
    symlinkSync(root, path.join(jail, "out"));
    const client = await connect(["--root", root, "--deny-cmd", "rm", "--confine-cwd", jail]);
    const denied = (await client.callTool({
      name: "run",
      arguments: { argv: ["/bin/rm", "-rf", "x"] },
    })) as Result;
    expect(denied.isError).toBe(true);
    expect(text(denied)).toMatch(/SPOOL_E_DENIED/);
    const outside = (await client.callTool({
      name: "run",
      arguments: { argv: ["pwd"], cwd: "out" },
    })) as Result;
    expect(text(outside)).toMatch(/SPOOL_E_DENIED.*confined/);
    const inside = (await client.callTool({ name: "run", arguments: { argv: ["pwd"] } })) as Result;
    expect(text(inside)).toContain(jail);
    await expect(client.callTool({ name: "nope", arguments: {} })).resolves.toMatchObject({
      isError: true,
    });
    const bad = (await client.callTool({ name: "read", arguments: { ref: 5 } })) as Result;
    expect(bad.isError).toBe(true);
    const missing = (await client.callTool({
      name: "status",
      arguments: { ref: "no-such" },
    })) as Result;
    expect(text(missing)).toMatch(/SPOOL_E_REF/);
    // Still serving.
    expect((await client.listTools()).tools.length).toBe(9);
  });
});

describe("spool mcp, limits and bad input", () => {
  it("--allow-cmd admits only its argv[0]; run with background_after becomes a job; results stay within --max-result-bytes", async () => {
    const root = tempRoot();
    const client = await connect([
      "--root",
      root,
      "--allow-cmd",
      process.execPath,
      "--max-result-bytes",
      "8KiB",
    ]);
    // Listed first: the SDK's client then checks every structuredContent below against the
    // tool's outputSchema.
    await client.listTools();
    const refused = (await client.callTool({
      name: "run",
      arguments: { argv: ["sh", "-c", "echo hi"] },
    })) as Result;
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/SPOOL_E_DENIED.*not in --allow-cmd/);

    const script = `console.log("y".repeat(100000)); setTimeout(() => console.log("done"), 3000)`;
    const r = (await client.callTool({
      name: "run",
      arguments: { argv: nodeCmd(script), background_after: 1, call_id: "later" },
    })) as Result;
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.exitStatus).toBeNull();
    const live = r.structuredContent.receipt as { process: { state: string } };
    expect(live.process.state).toBe("running");
    const w = (await client.callTool({
      name: "wait",
      arguments: { ref: "later", timeout: 60 },
    })) as Result;
    expect(w.structuredContent.exitStatus).toBe(0);

    // A call may ask for more than the server allows; it gets the server's maximum.
    const page = (await client.callTool({
      name: "read",
      arguments: { ref: "later", max_bytes: 1_000_000 },
    })) as Result;
    expect(wire(page)).toBeLessThanOrEqual(8 * 1024);
    expect((page.structuredContent as { nextOffset: number }).nextOffset).toBeGreaterThan(4096);
    // A named cursor goes on where the same consumer stopped.
    const first = (await client.callTool({
      name: "read",
      arguments: { ref: "later", cursor: "agent", max_bytes: 4096 },
    })) as Result;
    const second = (await client.callTool({
      name: "read",
      arguments: { ref: "later", cursor: "agent", max_bytes: 4096 },
    })) as Result;
    const end1 = (first.structuredContent as { nextOffset: number }).nextOffset;
    expect((second.structuredContent as { offset: number }).offset).toBe(end1);
    expect((second.structuredContent as { nextOffset: number }).nextOffset).toBeGreaterThan(end1);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain("spool://{captureId}/{stream}");
  }, 120_000);

  it("answers malformed JSON-RPC with an error and a null id, and goes on serving", async () => {
    const child = spawn(process.execPath, [SPOOL_BIN, "mcp", "--root", tempRoot()], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
    });
    const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
    child.stdin.write("{not json\n[1,2]\n");
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } } })}\n`,
    );
    for (let i = 0; i < 2400 && !/"id":1[,}]/.test(out); i++)
      await new Promise((r) => setTimeout(r, 25));
    const lines = out
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "Parse error" },
    });
    expect(lines[1]).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Invalid Request" },
    });
    expect(lines[2].result.serverInfo.name).toBe("spool");
    child.stdin.end();
    expect(await closed).toBe(0);
  }, 60_000);
});
