/**
 * `spool mcp-proxy` as agents meet it (issue 27), driven by the SDK's `Client` over the
 * proxy's stdio (a child spawned here, so its exit status and stderr are seen): it never
 * hands back a secret its capture redacted, it fails fast, every bounded method has the
 * same budget, and its own tools, arguments and images behave.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CallToolResultSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { SPOOL_BIN, spool, tempRoot } from "./helpers.js";

const FILESYSTEM = fileURLToPath(
  new URL("../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", import.meta.url),
);
const FIXTURE = fileURLToPath(new URL("./fixtures/mcp-fixture-server.mjs", import.meta.url));

/** The proxy as a child, its stdio an SDK transport; its exit status and stderr kept. */
interface Proxy {
  readonly client: Client;
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  stderr(): string;
}

/** An SDK transport over a child's stdio (the SDK's own spawns the child itself). */
function childTransport(child: ChildProcess): Transport {
  const buffer = new ReadBuffer();
  const transport: Transport = {
    start: async () => {
      child.stdout?.on("data", (chunk: Buffer) => {
        buffer.append(chunk);
        for (let m = buffer.readMessage(); m !== null; m = buffer.readMessage())
          transport.onmessage?.(m);
      });
      child.on("close", () => transport.onclose?.());
    },
    send: async (message: JSONRPCMessage) => {
      if (child.stdin?.writable) child.stdin.write(serializeMessage(message));
    },
    close: async () => {
      child.stdin?.end();
    },
  };
  return transport;
}

const running: Proxy[] = [];
afterEach(async () => {
  for (const p of running.splice(0)) {
    p.child.stdin?.end();
    await p.exited;
  }
});

/** Start the proxy with `args` (options, then the server command) and connect a client. */
async function proxy(args: string[]): Promise<Proxy & { connected: Promise<unknown> }> {
  const child = spawn(process.execPath, [SPOOL_BIN, "mcp-proxy", ...args], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let err = "";
  child.stderr?.on("data", (c: Buffer) => {
    err += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  const client = new Client({ name: "spool-test", version: "0" });
  const connected = client.connect(childTransport(child));
  const p = { client, child, exited, stderr: () => err, connected };
  running.push(p);
  return p;
}

type Result = {
  content: { type: string; text?: string; data?: string }[];
  structuredContent?: unknown;
  _meta?: Record<string, unknown>;
};
const wire = (r: unknown) => Buffer.byteLength(JSON.stringify(r));

/** Every file under `dir`, its bytes. */
function everyFile(dir: string): Buffer[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((f) => path.join(dir, f))
    .filter((f) => statSync(f).isFile())
    .map((f) => readFileSync(f));
}

const GITHUB_TOKEN = `ghp_${"A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"}`;
const AWS_KEY_ID = "AKIAIOSFODNN7EXAMPLE";

describe("spool mcp-proxy never hands back a secret its capture redacted", () => {
  it("server-filesystem: a token at the start of a line of a file over the budget is neither on disk nor in the answer", async () => {
    const root = tempRoot();
    const dir = path.join(tempRoot(), "files");
    mkdirSync(dir);
    const lines = Array.from({ length: 2000 }, (_, i) => `row ${i} ${"abcdefghij".repeat(4)}`);
    lines.splice(3, 0, `${GITHUB_TOKEN} is the deploy token`, `${AWS_KEY_ID} is the key id`);
    writeFileSync(path.join(dir, "notes.txt"), `${lines.join("\n")}\n`);
    const p = await proxy(["--root", root, "--", process.execPath, FILESYSTEM, dir]);
    await p.connected;
    const r = (await p.client.callTool({
      name: "read_text_file",
      arguments: { path: path.join(dir, "notes.txt") },
    })) as Result;
    const answer = JSON.stringify(r);
    // Spooled (over the budget), with the file's start kept in the structured part…
    expect(r._meta?.["spool/receipt"]).toBeDefined();
    expect(answer).toContain("row 2 abcdefghij");
    // …but neither secret: not in the text, not in structuredContent, not on disk.
    expect(answer).not.toContain(GITHUB_TOKEN);
    expect(answer).not.toContain(AWS_KEY_ID);
    expect(JSON.stringify(r.structuredContent)).toContain("[REDACTED:");
    const stored = everyFile(root);
    expect(stored.length).toBeGreaterThan(0);
    for (const bytes of stored) {
      expect(bytes.includes(GITHUB_TOKEN)).toBe(false);
      expect(bytes.includes(AWS_KEY_ID)).toBe(false);
    }
    // Under the budget a result passes unchanged, as docs/mcp.md says: the server's answer.
    writeFileSync(path.join(dir, "small.txt"), `${GITHUB_TOKEN}\n`);
    const small = (await p.client.callTool({
      name: "read_text_file",
      arguments: { path: path.join(dir, "small.txt") },
    })) as Result;
    expect(small.content[0]?.text).toBe(`${GITHUB_TOKEN}\n`);
  }, 120_000);
});

describe("spool mcp-proxy fails fast", () => {
  it("a server command that does not exist: initialize gets the error, the proxy exits 127 with one line", async () => {
    const p = await proxy(["--root", tempRoot(), "--", "spool-no-such-server-cmd", "--flag"]);
    const error = await p.connected.then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(
      /cannot start the wrapped server: command not found: spool-no-such-server-cmd/,
    );
    expect(await p.exited).toBe(127);
    expect(p.stderr().trim().split("\n")).toEqual([
      "spool mcp-proxy: cannot start the wrapped server: command not found: spool-no-such-server-cmd",
    ]);
  }, 30_000);

  it("a missing --cwd is its own error (exit 66), not a missing command", async () => {
    const missing = path.join(tempRoot(), "gone");
    const p = await proxy(["--root", tempRoot(), "--cwd", missing, process.execPath, FIXTURE]);
    const error = await p.connected.then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toContain(`its working directory ${missing} does not exist`);
    expect(await p.exited).toBe(66);
    expect(p.stderr().trim().split("\n")).toHaveLength(1);
  }, 30_000);

  it("a wrapped server that crashes mid-call: the call gets an error, the proxy exits 70 with one line", async () => {
    const p = await proxy(["--root", tempRoot(), "--", process.execPath, FIXTURE]);
    await p.connected;
    const error = await p.client.callTool({ name: "crash", arguments: {} }).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/the wrapped server exited \(code 3\) before answering crash/);
    // The client did not go away: the proxy exits on its own, so that the client restarts it.
    expect(await p.exited).toBe(70);
    expect(p.stderr().trim().split("\n")).toEqual([
      "spool mcp-proxy: the wrapped server exited (code 3); exiting so that the client restarts it",
    ]);
  }, 30_000);

  it("a line from the server that is not JSON-RPC is answered at once for the pending call, its bytes in a capture", async () => {
    const root = tempRoot();
    // --call-timeout is the default (600 s): only the line itself can end the call in time.
    const p = await proxy(["--root", root, "--", process.execPath, FIXTURE]);
    await p.connected;
    const error = (await p.client
      .callTool({ name: "not-json", arguments: {} }, undefined, { timeout: 60_000 })
      .then(
        () => null,
        (e: Error) => e,
      )) as (Error & { code?: number; data?: { receipt?: { captureId: string } } }) | null;
    expect(error?.code).toBe(-32000);
    expect(error?.message).toMatch(
      /a line that is not JSON-RPC \(28 B\) while not-json was pending/,
    );
    const id = error?.data?.receipt?.captureId ?? "";
    expect(spool(["read", id, "--root", root]).stdout.toString()).toBe(
      "Traceback: something broke {",
    );
    // The relay goes on.
    const ok = (await p.client.callTool({ name: "small", arguments: {} })) as Result;
    expect(ok.content[0]?.text).toBe("ok");
  }, 60_000);
});

describe("spool mcp-proxy: the same budget everywhere", () => {
  it("resources/read, prompts/get and tasks/result over the budget are spooled and bounded, in their own shape", async () => {
    const root = tempRoot();
    const p = await proxy(["--root", root, "--", process.execPath, FIXTURE]);
    await p.connected;
    const resource = await p.client.readResource({ uri: "fixture://big" });
    expect(wire(resource)).toBeLessThanOrEqual(16 * 1024);
    expect(resource.contents[0]?.uri).toBe("fixture://big");
    const prompt = await p.client.getPrompt({ name: "big" });
    expect(wire(prompt)).toBeLessThanOrEqual(16 * 1024);
    expect(prompt.messages).toHaveLength(1);
    const task = await p.client.request(
      { method: "tasks/result", params: { taskId: "t-1" } },
      CallToolResultSchema,
    );
    expect(wire(task)).toBeLessThanOrEqual(16 * 1024);
    for (const r of [resource, prompt, task]) {
      const receipt = r._meta?.["spool/receipt"] as { captureId: string } | undefined;
      const stored = spool(["read", receipt?.captureId ?? "", "--root", root]).stdout.toString();
      // The whole text is kept: the fixture's 1,500 lines, the last one included.
      expect(stored).toContain(`line 1499 ${"t".repeat(60)}`);
    }
    expect(JSON.stringify(resource.contents)).toContain("spool_read");
  }, 60_000);

  it("a structured array cut to fit says so inside the array", async () => {
    const p = await proxy(["--root", tempRoot(), "--", process.execPath, FIXTURE]);
    await p.connected;
    const r = (await p.client.callTool({ name: "big-array", arguments: {} })) as Result;
    expect(wire(r)).toBeLessThanOrEqual(16 * 1024);
    const items = (r.structuredContent as { items: unknown[] }).items;
    expect(items.length).toBeLessThan(5000);
    const receipt = r._meta?.["spool/receipt"] as { captureId: string };
    expect(items.at(-1)).toEqual({
      "[spool]": `${5000 - (items.length - 1)} more items in capture ${receipt.captureId}`,
    });
  }, 60_000);
});

describe("spool mcp-proxy: names, arguments, images", () => {
  it("a wrapped server's own spool_read keeps its name; spool's is left out; --tool-prefix names spool's", async () => {
    const p = await proxy(["--root", tempRoot(), "--", process.execPath, FIXTURE]);
    await p.connected;
    const names = (await p.client.listTools()).tools.map((t) => t.name);
    expect(names.filter((n) => n === "spool_read")).toHaveLength(1);
    expect(names).toContain("spool_grep");
    const own = (await p.client.callTool({ name: "spool_read", arguments: {} })) as Result;
    expect(own.content[0]?.text).toBe("fixture's own spool_read");
    expect(p.stderr()).toContain("the wrapped server has a tool named spool_read");

    const q = await proxy([
      "--root",
      tempRoot(),
      "--tool-prefix",
      "sp_",
      process.execPath,
      FIXTURE,
    ]);
    await q.connected;
    const prefixed = (await q.client.listTools()).tools.map((t) => t.name);
    expect(prefixed.filter((n) => n.startsWith("sp_")).sort()).toEqual([
      "sp_grep",
      "sp_read",
      "sp_tail",
    ]);
    expect(prefixed.filter((n) => n === "spool_read")).toHaveLength(1);
  }, 60_000);

  it("without -- before the server command (as the MCP Inspector passes it), options still apply", async () => {
    const p = await proxy([
      "--root",
      tempRoot(),
      "--budget",
      "4096",
      process.execPath,
      FIXTURE,
      "--budget",
      "x",
    ]);
    await p.connected;
    const r = (await p.client.callTool({ name: "big-array", arguments: {} })) as Result;
    expect(wire(r)).toBeLessThanOrEqual(4096);
  }, 60_000);

  it("a result with an image over the budget keeps the image inline when it fits", async () => {
    const p = await proxy(["--root", tempRoot(), "--", process.execPath, FIXTURE]);
    await p.connected;
    const r = (await p.client.callTool({ name: "image", arguments: {} })) as Result;
    expect(wire(r)).toBeLessThanOrEqual(16 * 1024);
    const image = r.content.find((c) => c.type === "image");
    expect(image?.data).toBe(Buffer.alloc(600, 7).toString("base64"));
    expect(r._meta?.["spool/binaries"]).toHaveLength(1);
  }, 60_000);
});

describe("spool mcp-proxy: memory", () => {
  it("a 200 MB answer is streamed to the spool: peak RSS ≤ 256 MiB, the client gets its receipt, the text is kept", async () => {
    const root = tempRoot();
    const child = spawn(
      process.execPath,
      [SPOOL_BIN, "mcp-proxy", "--root", root, "--", process.execPath, FIXTURE],
      { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, HUGE_BYTES: "200000000" } },
    );
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const client = new Client({ name: "spool-test", version: "0" });
    await client.connect(childTransport(child));
    const r = (await client.callTool({ name: "huge", arguments: {} }, undefined, {
      timeout: 600_000,
    })) as Result;
    // The proxy's high-water mark, read while it still runs.
    const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
    const peakKiB = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
    await client.close();
    await exited;
    expect(peakKiB).toBeGreaterThan(0);
    expect(peakKiB).toBeLessThanOrEqual(256 * 1024);
    expect(wire(r)).toBeLessThanOrEqual(16 * 1024);
    const receipt = r._meta?.["spool/receipt"] as {
      captureId: string;
      label: string;
      capture: { state: string; reasons: string[] };
      streams: { stdout: { produced: number } };
    };
    expect(receipt.label).toBe("huge result");
    // Every byte of text was seen; a capture keeps its first 32 MiB by default (spool
    // capture --max-bytes), so this one is partial for that reason alone.
    expect(receipt.capture).toEqual({ state: "partial", reasons: ["quota"] });
    // The fixture's pieces: 62,000 bytes of JSON each, 61,000 of text once decoded.
    const pieces = Math.ceil(200_000_000 / 62_000);
    expect(receipt.streams.stdout.produced).toBe(pieces * 61_000);
    const stored = spool(["read", receipt.captureId, "--root", root, "--length", "61"]).stdout;
    expect(stored.toString()).toBe(`${"row of text ".repeat(5)}\n`);
    expect(r.content[0]?.text).toContain(`row of text row of text`);
  }, 600_000);
});

describe("spool mcp-proxy: a streamed answer", () => {
  it("server-filesystem: a 9 MB file (a 19 MB message, streamed) passes the client's schema check and hands back no secret", async () => {
    const root = tempRoot();
    const dir = path.join(tempRoot(), "files");
    mkdirSync(dir);
    const row = (i: number) => `row ${i} ${"abcdefghij".repeat(8)}`;
    const lines = Array.from({ length: 100_000 }, (_, i) => row(i));
    lines.splice(2, 0, `${GITHUB_TOKEN} deploys`);
    writeFileSync(path.join(dir, "big.txt"), `${lines.join("\n")}\n`);
    const p = await proxy(["--root", root, process.execPath, FILESYSTEM, dir]);
    await p.connected;
    // Listed first, so that the SDK client checks the result against the output schema.
    await p.client.listTools();
    const r = (await p.client.callTool({
      name: "read_text_file",
      arguments: { path: path.join(dir, "big.txt") },
    })) as Result;
    expect(wire(r)).toBeLessThanOrEqual(16 * 1024);
    const structured = (r.structuredContent as { content: string }).content;
    expect(structured.startsWith(`${row(0)}\n${row(1)}\n[REDACTED:github-token] deploys`)).toBe(
      true,
    );
    expect(JSON.stringify(r)).not.toContain(GITHUB_TOKEN);
    const receipt = r._meta?.["spool/receipt"] as { label: string; captureId: string };
    expect(receipt.label).toBe("read_text_file result");
    // The capture holds the text items, decoded (the file's text), redacted.
    const stored = spool(["read", receipt.captureId, "--root", root]).stdout;
    expect(stored.subarray(-30).toString()).toBe(`${row(99_999)}\n`.slice(-30));
    for (const bytes of everyFile(root)) expect(bytes.includes(GITHUB_TOKEN)).toBe(false);
  }, 300_000);
});
