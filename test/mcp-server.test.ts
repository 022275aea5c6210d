/**
 * `spool mcp` driven by the SDK's real `Client` over stdio, spawning the built binary.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
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
  it("lists lean tools (tools/list within 16 KiB) with titles, hints and instructions", async () => {
    const client = await connect(["--root", tempRoot()]);
    const listed = await client.listTools();
    const { tools } = listed;
    expect(tools.map((t) => t.name).sort()).toEqual(
      ["grep", "kill", "ls", "read", "run", "start", "status", "tail", "wait"].sort(),
    );
    expect(Buffer.byteLength(JSON.stringify(listed))).toBeLessThanOrEqual(16 * 1024);
    for (const tool of tools) {
      expect(tool.title, tool.name).toMatch(/\w/);
      const hints = tool.annotations!;
      const runs = ["run", "start"].includes(tool.name);
      expect([tool.name, hints.readOnlyHint, hints.openWorldHint]).toEqual([
        tool.name,
        !runs && tool.name !== "kill",
        runs,
      ]);
      expect(hints.destructiveHint).toBe(runs || tool.name === "kill");
    }
    const run = tools.find((t) => t.name === "run");
    const properties = run?.outputSchema?.properties as
      | Record<string, { properties?: object }>
      | undefined;
    const receipt = properties?.receipt;
    expect(Object.keys(receipt?.properties ?? {})).toEqual(["captureId", "capture", "streams"]);
    expect(client.getInstructions()).toMatch(/background_after/);
  });

  it("puts the final error of a 3 MB run in the text, the receipt beside it, within max_bytes", async () => {
    const client = await connect(["--root", tempRoot()]);
    const script =
      "for (let i = 0; i < 60000; i++) console.log('ok line ' + i + ' ' + 'x'.repeat(40)); console.error('FATAL: disk quota exceeded at step 7'); process.exitCode = 3";
    for (const max_bytes of [16384, 4096]) {
      const r = (await client.callTool({
        name: "run",
        arguments: { argv: [process.execPath, "-e", script], max_bytes },
      })) as Result;
      expect(wire(r)).toBeLessThanOrEqual(max_bytes);
      const shown = text(r);
      expect(shown).toContain("FATAL: disk quota exceeded at step 7");
      expect(shown).toMatch(/\[spool\] exit 3 · status 3 · capture complete/);
      const receipt = r.structuredContent.receipt as Record<string, unknown>;
      expect((receipt.streams as { stdout: { produced: number } }).stdout.produced).toBeGreaterThan(
        3_000_000,
      );
      expect(JSON.stringify(receipt)).not.toContain("ok line 1 ");
      // The same capture's status keeps the same bound.
      const status = (await client.callTool({
        name: "status",
        arguments: { ref: receipt.captureId as string, max_bytes: 4096 },
      })) as Result;
      expect(wire(status)).toBeLessThanOrEqual(4096);
      expect(text(status)).toContain("FATAL: disk quota exceeded at step 7");
    }
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
    // Killed only once its output is stored past the first page (a kill at once could land
    // before the child wrote anything, on a loaded machine).
    await expect
      .poll(
        async () => {
          const r = (await client.callTool({
            name: "read",
            arguments: { ref: "bg", offset: 39000, max_bytes: 4096 },
          })) as Result;
          return text(r).startsWith("x");
        },
        { timeout: 30_000, interval: 50 },
      )
      .toBe(true);
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
    // A missing directory is its own error, not a command that cannot be found (127).
    const nowhere = (await client.callTool({
      name: "run",
      arguments: { argv: ["pwd"], cwd: "no-such-dir" },
    })) as Result;
    expect(nowhere.isError).toBe(true);
    expect(text(nowhere)).toMatch(/cwd ".*no-such-dir" is not an existing directory/);
    expect(text(nowhere)).not.toMatch(/127|ENOENT/);
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

describe("spool mcp, a cancelled run", () => {
  /** Resolves once no process of group `pgid` is left. */
  async function groupGone(pgid: number): Promise<void> {
    for (;;) {
      try {
        process.kill(-pgid, 0);
      } catch {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it("stops the command's whole process group when the client cancels the call", async () => {
    const root = tempRoot();
    const dir = tempRoot();
    const client = await connect(["--root", root]);
    const pidFile = path.join(dir, "pid");
    // The command and a grandchild it leaves behind both wait far past the test.
    const script = `echo $$ > ${pidFile}.tmp && mv ${pidFile}.tmp ${pidFile}; (sleep 300 &); exec sleep 300`;
    const abort = new AbortController();
    const call = client.callTool(
      { name: "run", arguments: { argv: ["sh", "-c", script] } },
      undefined,
      { signal: abort.signal },
    );
    for (;;) {
      if (existsSync(pidFile)) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const pgid = Number(readFileSync(pidFile, "utf8"));
    process.kill(-pgid, 0); // running
    abort.abort();
    await expect(call).rejects.toThrow();
    await groupGone(pgid);
    // The server goes on serving.
    const { tools } = await client.listTools();
    expect(tools.some((t) => t.name === "run")).toBe(true);
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

    // The child ends once the test creates `go`, after it has seen the job running (no
    // fixed lifetime to outlast background_after on a loaded machine).
    const go = path.join(root, "go");
    const script = `console.log("y".repeat(100000));
      const t = setInterval(() => { if (require("fs").existsSync(process.argv[1])) { clearInterval(t); console.log("done"); } }, 20)`;
    const r = (await client.callTool({
      name: "run",
      arguments: { argv: [...nodeCmd(script), go], background_after: 1, call_id: "later" },
    })) as Result;
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.exitStatus).toBeNull();
    const live = r.structuredContent.receipt as { process: { state: string } };
    expect(live.process.state).toBe("running");
    writeFileSync(go, "");
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
