/**
 * `spool mcp-proxy` wrapping real third-party MCP servers (server-filesystem,
 * server-everything), driven by the SDK's `Client` over stdio against the built binary,
 * beside a direct connection to the same server.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectMcpClient } from "@spool/bench";
import { afterEach, describe, expect, it } from "vitest";
import { SPOOL_BIN, spool, tempRoot } from "./helpers.js";

const serverBin = (name: string) =>
  fileURLToPath(
    new URL(`../node_modules/@modelcontextprotocol/${name}/dist/index.js`, import.meta.url),
  );
const FILESYSTEM = serverBin("server-filesystem");
const EVERYTHING = serverBin("server-everything");

const open: Client[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function connect(command: string[], proxied: { root: string; extra?: string[] } | null) {
  const args = proxied
    ? [
        SPOOL_BIN,
        "mcp-proxy",
        "--root",
        proxied.root,
        ...(proxied.extra ?? []),
        "--",
        process.execPath,
        ...command,
      ]
    : command;
  // The client reads messages of up to 64 MiB: a 5 MB file read directly is one of 11.7 MB.
  const { client } = await connectMcpClient(args, { name: "spool-test", stderr: "pipe" });
  open.push(client);
  return client;
}

type Result = {
  content: { type: string; text?: string; data?: string; mimeType?: string }[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Record<string, unknown>;
};
const wire = (r: unknown) => Buffer.byteLength(JSON.stringify(r));
const sha = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");

describe("spool mcp-proxy", () => {
  it("server-filesystem: tools unchanged plus spool's; a 5 MB file returns ≤ 16 KiB and is spooled byte for byte", async () => {
    const root = tempRoot();
    const dir = path.join(root, "files");
    mkdirSync(dir);
    const lines: string[] = [];
    for (let i = 0; lines.join("\n").length < 5 * 1024 * 1024 && i < 1e7; i += 1000) {
      for (let j = i; j < i + 1000; j++) lines.push(`row ${j} ${"abcdefghij".repeat(5)} ü`);
    }
    const body = `${lines.join("\n")}\n`;
    writeFileSync(path.join(dir, "big.txt"), body);
    const direct = await connect([FILESYSTEM, dir], null);
    const proxy = await connect([FILESYSTEM, dir], { root });

    const directTools = (await direct.listTools()).tools;
    const proxyTools = (await proxy.listTools()).tools;
    expect(proxyTools.slice(0, directTools.length)).toEqual(directTools);
    expect(proxyTools.slice(directTools.length).map((t) => t.name)).toEqual([
      "spool_read",
      "spool_tail",
      "spool_grep",
    ]);

    const small = await proxy.callTool({ name: "list_allowed_directories", arguments: {} });
    expect(small).toEqual(
      await direct.callTool({ name: "list_allowed_directories", arguments: {} }),
    );

    const file = path.join(dir, "big.txt");
    // The wrapped server called directly, for the same file: what the proxy must keep.
    const d = (await direct.callTool({
      name: "read_text_file",
      arguments: { path: file },
    })) as Result;
    expect(wire(d)).toBeGreaterThan(5 * 1024 * 1024);
    const directText = d.content[0]?.text ?? "";
    expect(d.content).toHaveLength(1);
    // Its representation in a capture (docs/mcp.md): each item under a separator line, then
    // structuredContent as JSON.
    const expected = `----- [spool] content[0] text -----\n${directText}\n----- [spool] structuredContent -----\n${JSON.stringify(d.structuredContent)}\n`;
    const expectedSha = sha(expected);
    await direct.close();
    const p = (await proxy.callTool({
      name: "read_text_file",
      arguments: { path: file },
    })) as Result;
    expect(wire(p)).toBeLessThanOrEqual(16 * 1024);
    // The structured content keeps its shape (the client checked it against the schema).
    expect(typeof (p.structuredContent as { content: string }).content).toBe("string");
    const receipt = p._meta?.["spool/receipt"] as {
      captureId: string;
      capture: { state: string };
      streams: { stdout: { sha256: string | null; redactions: number } };
    };
    expect(receipt.capture.state).toBe("complete");
    expect(receipt.streams.stdout.redactions).toBe(0);
    expect(p.content[0]?.text).toContain(`spool_read {"ref":"${receipt.captureId}"`);

    // Byte for byte: the receipt's digest and the stored bytes against the direct call.
    expect(receipt.streams.stdout.sha256).toBe(expectedSha);
    const stored = spool(["read", receipt.captureId, "--root", root]).stdout;
    expect(stored.length).toBe(Buffer.byteLength(expected));
    expect(sha(stored)).toBe(expectedSha);
    // And the direct call returned the file itself.
    expect(sha(directText)).toBe(sha(body));

    // Read on through the proxy's own tools, bounded.
    const g = (await proxy.callTool({
      name: "spool_grep",
      arguments: { ref: receipt.captureId, pattern: "^row 4242 " },
    })) as Result;
    expect(g.content[0]?.text).toMatch(/^\d+:\d+:row 4242 abcdefghij/);
    const t = (await proxy.callTool({
      name: "spool_tail",
      arguments: { ref: receipt.captureId, lines: 1 },
    })) as Result;
    expect(wire(t)).toBeLessThanOrEqual(16 * 1024);
  }, 120_000);

  it("server-filesystem: a large tree listing is bounded and spooled", async () => {
    const root = tempRoot();
    const dir = path.join(root, "tree");
    for (let a = 0; a < 40; a++) {
      mkdirSync(path.join(dir, `dir-${a}`), { recursive: true });
      for (let b = 0; b < 50; b++) writeFileSync(path.join(dir, `dir-${a}`, `file-${b}.txt`), "x");
    }
    const direct = await connect([FILESYSTEM, dir], null);
    const proxy = await connect([FILESYSTEM, dir], { root });
    const d = (await direct.callTool({
      name: "directory_tree",
      arguments: { path: dir },
    })) as Result;
    const p = (await proxy.callTool({
      name: "directory_tree",
      arguments: { path: dir },
    })) as Result;
    expect(wire(d)).toBeGreaterThan(16 * 1024);
    expect(wire(p)).toBeLessThanOrEqual(16 * 1024);
    const receipt = p._meta?.["spool/receipt"] as { captureId: string };
    const stored = spool(["read", receipt.captureId, "--root", root]).stdout.toString();
    expect(stored).toContain(d.content[0]?.text ?? "missing");
  }, 60_000);

  it("server-everything: images are stored as binary with their MIME type; small results pass unchanged", async () => {
    const root = tempRoot();
    const direct = await connect([EVERYTHING, "stdio"], null);
    const proxy = await connect([EVERYTHING, "stdio"], { root, extra: ["--budget", "4096"] });
    const d = (await direct.callTool({ name: "get-tiny-image", arguments: {} })) as Result;
    const p = (await proxy.callTool({ name: "get-tiny-image", arguments: {} })) as Result;
    const image = d.content.find((c) => c.type === "image");
    expect(image?.data?.length ?? 0).toBeGreaterThan(1024);
    expect(wire(d)).toBeGreaterThan(4096);
    expect(wire(p)).toBeLessThanOrEqual(4096);
    const binaries = p._meta?.["spool/binaries"] as { mimeType: string; captureId: string }[];
    expect(binaries[0]?.mimeType).toBe(image?.mimeType);
    const stored = spool(["read", binaries[0]?.captureId ?? "", "--root", root]).stdout;
    expect(sha(stored)).toBe(sha(Buffer.from(image?.data ?? "", "base64")));
    // An embedded binary resource in a small result: the client gets the result unchanged,
    // the blob is stored as raw bytes with its MIME type in the label.
    const ref = (await proxy.callTool({
      name: "get-resource-reference",
      arguments: { resourceType: "Blob", resourceId: 2 },
    })) as Result & { content: { resource?: { blob?: string; mimeType?: string } }[] };
    const blob = ref.content.find((c) => c.type === "resource")?.resource;
    expect(blob?.blob).toBeTruthy();
    let kept: { captureId: string; label: string } | undefined;
    for (let i = 0; i < 240 && kept === undefined; i++) {
      const listed = JSON.parse(spool(["ls", "--json", "--root", root]).stdout.toString()) as {
        captureId: string;
        label: string;
      }[];
      kept = listed.find((c) => c.label === `get-resource-reference content[1] ${blob?.mimeType}`);
      if (kept === undefined) await new Promise((r) => setTimeout(r, 250));
    }
    const blobBytes = spool(["read", kept?.captureId ?? "", "--root", root]).stdout;
    expect(sha(blobBytes)).toBe(sha(Buffer.from(blob?.blob ?? "", "base64")));
    // structuredContent passes through and is checked against the tool's outputSchema
    // (the SDK's client validates it once it has listed the tools).
    await proxy.listTools();
    const weather = { name: "get-structured-content", arguments: { location: "Chicago" } };
    const sp = (await proxy.callTool(weather)) as Result;
    expect(sp.structuredContent).toEqual(
      ((await direct.callTool(weather)) as Result).structuredContent,
    );
    const echo = { name: "echo", arguments: { message: "hello" } };
    expect(await proxy.callTool(echo)).toEqual(await direct.callTool(echo));
    // Capabilities, prompts and resources pass through unchanged.
    expect(proxy.getServerCapabilities()).toEqual(direct.getServerCapabilities());
    expect(proxy.getServerVersion()).toEqual(direct.getServerVersion());
    const prompts = (await direct.listPrompts()).prompts;
    expect((await proxy.listPrompts()).prompts).toEqual(prompts);
    const plain = prompts.find((x) => !(x.arguments ?? []).some((a) => a.required));
    expect(plain).toBeDefined();
    expect(await proxy.getPrompt({ name: plain?.name ?? "" })).toEqual(
      await direct.getPrompt({ name: plain?.name ?? "" }),
    );
    const resources = (await direct.listResources()).resources;
    expect((await proxy.listResources()).resources).toEqual(resources);
    const uri = resources[0]?.uri ?? "missing";
    expect(await proxy.readResource({ uri })).toEqual(await direct.readResource({ uri }));
    expect((await proxy.listResourceTemplates()).resourceTemplates).toEqual(
      (await direct.listResourceTemplates()).resourceTemplates,
    );
    // Errors pass through: an unknown tool, bad arguments.
    const unknown = await proxy
      .callTool({ name: "no-such-tool", arguments: {} })
      .catch((e: Error) => e.message);
    const unknownDirect = await direct
      .callTool({ name: "no-such-tool", arguments: {} })
      .catch((e: Error) => e.message);
    expect(unknown).toEqual(unknownDirect);
    const bad = await proxy
      .callTool({ name: "get-sum", arguments: { a: "x" } })
      .catch((e: Error) => e.message);
    expect(bad).toEqual(
      await direct
        .callTool({ name: "get-sum", arguments: { a: "x" } })
        .catch((e: Error) => e.message),
    );
  }, 60_000);

  it("server-everything: progress notifications pass; a hung call times out with a receipt", async () => {
    const root = tempRoot();
    const proxy = await connect([EVERYTHING, "stdio"], { root, extra: ["--call-timeout", "2"] });
    const progress: number[] = [];
    const ok = await proxy.callTool(
      { name: "trigger-long-running-operation", arguments: { duration: 1, steps: 2 } },
      undefined,
      { onprogress: (p) => progress.push(p.progress), timeout: 30_000 },
    );
    expect(progress.length).toBeGreaterThan(0);
    expect((ok as Result).isError).toBeFalsy();
    const hung = await proxy
      .callTool(
        { name: "trigger-long-running-operation", arguments: { duration: 30, steps: 2 } },
        undefined,
        {
          timeout: 30_000,
        },
      )
      .catch((e: { code: number; message: string; data?: { receipt?: unknown } }) => e);
    expect((hung as { code: number }).code).toBe(-32001);
    expect((hung as { message: string }).message).toMatch(/did not answer .* within 2 s/);
    expect(
      (hung as { data: { receipt: { captureId: string } } }).data.receipt.captureId,
    ).toBeTruthy();
  }, 60_000);
});

describe("spool mcp-proxy, bad input", () => {
  /** The proxy on raw stdio: lines in, lines out. */
  function raw(serverScript: string, root: string, extra: string[] = []) {
    const child = spawn(
      process.execPath,
      [
        SPOOL_BIN,
        "mcp-proxy",
        "--root",
        root,
        "--call-timeout",
        "5",
        ...extra,
        "--",
        process.execPath,
        "-e",
        serverScript,
      ],
      {
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
    });
    const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
    const lineWith = async (pattern: RegExp, tries = 1200) => {
      for (let i = 0; i < tries && !pattern.test(out); i++)
        await new Promise((r) => setTimeout(r, 25));
      return out.split("\n").find((l) => pattern.test(l));
    };
    return { child, lineWith, closed, lines: () => out.split("\n").filter((l) => l !== "") };
  }

  // A wrapped "server" that answers a tools/call with a 3 MB message it never finishes, then exits.
  const DIES_MID_CALL = `process.stdin.on("data", (d) => { if (String(d).includes("tools/call")) { process.stdout.write('{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"' + "y".repeat(3000000), () => process.exit(3)); } });`;

  it("answers malformed JSON with a parse error and keeps relaying; a server that dies mid-call leaves a partial receipt", async () => {
    const root = tempRoot();
    const p = raw(DIES_MID_CALL, root);
    p.child.stdin.write("{not json\n");
    expect(await p.lineWith(/-32700/)).toMatch(/"id":null/);
    p.child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "x", arguments: {} } })}\n`,
    );
    const line = await p.lineWith(/"id":7/);
    const error = JSON.parse(line ?? "{}").error as {
      message: string;
      data: { receipt: { captureId: string; capture: { state: string; reasons: string[] } } };
    };
    expect(error.message).toMatch(/exited \(code 3\) before answering x/);
    expect(error.data.receipt.capture.state).not.toBe("complete");
    const kept = spool(["read", error.data.receipt.captureId, "--root", root]).stdout;
    expect(kept.length).toBe(
      3000000 + '{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"'.length,
    );
    p.child.stdin.end();
    expect(await p.closed).toBe(70);
  }, 60_000);

  it("a server that floods notifications: every one is relayed, in order, never a crash", async () => {
    const root = tempRoot();
    const FLOOD = `let n = 0; const f = () => { while (n < 20000) { n++; if (!process.stdout.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: n + " " + "z".repeat(200) } }) + "\\n")) return process.stdout.once("drain", f); } }; f(); process.stdin.on("data", () => {});`;
    const p = raw(FLOOD, root);
    expect(await p.lineWith(/"data":"20000 z/, 2400)).toBeDefined();
    const seen = p
      .lines()
      .filter((l) => l.includes("notifications/message"))
      .map((l) => Number.parseInt(JSON.parse(l).params.data, 10));
    expect(seen).toEqual(Array.from({ length: 20000 }, (_, i) => i + 1));
    p.child.stdin.end();
    // The client went away: the proxy ends the server (it ignores end of input) and exits 0.
    expect(await p.closed).toBe(0);
  }, 120_000);

  it("a server flooding one endless message is stopped at --max-message-bytes; the call gets every byte received as a partial receipt", async () => {
    const root = tempRoot();
    // Answers a call with a message that never ends, written as fast as the pipe takes it.
    const ENDLESS = `process.stdin.once("data", () => { process.stdout.write('{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"'); const chunk = "w".repeat(65536); const f = () => { while (process.stdout.write(chunk)); process.stdout.once("drain", f); }; f(); });`;
    const p = raw(ENDLESS, root, ["--max-message-bytes", "1MiB"]);
    p.child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "endless", arguments: {} } })}\n`,
    );
    const line = (await p.lineWith(/"id":5/)) ?? "{}";
    const error = JSON.parse(line).error as {
      code: number;
      message: string;
      data: { receipt: { captureId: string; capture: { state: string } } };
    };
    expect(error.code).toBe(-32001);
    expect(error.message).toMatch(
      /over --max-message-bytes \(1048576 B\) and was stopped before answering endless/,
    );
    expect(error.data.receipt.capture.state).not.toBe("complete");
    const kept = spool(["read", error.data.receipt.captureId, "--root", root]).stdout;
    expect(kept.length).toBeGreaterThan(1024 * 1024);
    expect(kept.subarray(0, 60).toString()).toBe(
      '{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"wwwwwwwwwwwwwwwwwwwwww'.slice(
        0,
        60,
      ),
    );
    expect(kept.subarray(70).every((b) => b === 0x77)).toBe(true);
    p.child.stdin.end();
    // The server is gone: the proxy exits 70, as after any server that died.
    expect(await p.closed).toBe(70);
  }, 60_000);

  it("a cancellation reaches the wrapped server, and the relay goes on", async () => {
    const root = tempRoot();
    // Never answers call 9; reports the cancellation it receives; answers call 10.
    const SERVER = `let buf = ""; process.stdin.on("data", (d) => { buf += d; let i; while ((i = buf.indexOf("\\n")) >= 0) { const m = JSON.parse(buf.slice(0, i)); buf = buf.slice(i + 1);
      if (m.method === "notifications/cancelled") process.stdout.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "cancelled " + m.params.requestId + " " + m.params.reason } }) + "\\n");
      if (m.method === "tools/call" && m.id === 10) process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: 10, result: { content: [{ type: "text", text: "ten" }] } }) + "\\n"); } });`;
    const p = raw(SERVER, root);
    const call = (id: number) =>
      `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "slow", arguments: {} } })}\n`;
    p.child.stdin.write(call(9));
    p.child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9, reason: "user" } })}\n`,
    );
    expect(await p.lineWith(/cancelled 9 user/)).toBeDefined();
    p.child.stdin.write(call(10));
    expect(JSON.parse((await p.lineWith(/"id":10/)) ?? "{}").result.content[0].text).toBe("ten");
    // The cancelled call is forgotten: no error for it, not even when the server exits (the
    // proxy answers every call still pending then with an error).
    expect(p.lines().some((l) => l.includes('"id":9'))).toBe(false);
    p.child.stdin.end();
    expect(await p.closed).toBe(0);
    expect(p.lines().some((l) => l.includes('"id":9'))).toBe(false);
  }, 60_000);

  it("a result the server declares truncated is never a complete capture", async () => {
    const root = tempRoot();
    const SERVER = `process.stdin.on("data", (d) => { if (String(d).includes("tools/call")) process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: 4, result: { content: [{ type: "text", text: "q".repeat(100000) }], _meta: { truncated: true } } }) + "\\n"); });`;
    const p = raw(SERVER, root);
    p.child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "big", arguments: {} } })}\n`,
    );
    const line = (await p.lineWith(/"id":4/)) ?? "{}";
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(16 * 1024);
    const receipt = JSON.parse(line).result._meta["spool/receipt"] as {
      captureId: string;
      capture: { state: string; reasons: string[] };
      source: { declared: string };
    };
    expect(receipt.capture.state).not.toBe("complete");
    expect(receipt.capture.reasons).toContain("source-truncated");
    expect(receipt.source.declared).toBe("truncated");
    expect(spool(["read", receipt.captureId, "--root", root]).stdout.toString()).toBe(
      "q".repeat(100000),
    );
    p.child.stdin.end();
    await p.closed;
  }, 60_000);
});
