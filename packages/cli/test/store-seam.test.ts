/**
 * The storage seam: the CLI's reader commands (`read`, `grep`, `tail`, `status`, `wait`,
 * `kill`, `ls`) and the MCP tools and resources run their real code paths on a capture
 * written through the MEMORY spool, read back through its `CaptureStore`
 * (`Io.openStore`). The file store is never touched: `SPOOL_ROOT` names a directory
 * that does not exist, so any command that opened the file store would fail.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { DEFAULT_PREVIEW_BUDGET, type Receipt } from "@spool/core";
import { createMemorySpool, type MemorySpool, startCapture } from "@spool/sinks";
import { createPreviewTap, createUtf8Decoder, previewTapBudget } from "@spool/transforms";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { statusLine } from "../src/inline.js";
import type { Io } from "../src/io.js";
import { invokeCommand, main } from "../src/main.js";
import { createSpoolMcpServer } from "../src/mcp-server.js";

const LINES = 3000;
/** `line N` for N in 1..3000, every 100th `ERROR at N`; stderr one `warn é` line. */
const SCRIPT = `i=1; while [ $i -le ${LINES} ]; do if [ $((i % 100)) -eq 0 ]; then echo "ERROR at $i"; else echo "line $i"; fi; i=$((i + 1)); done; echo "warn é" >&2`;
const lineText = (n: number) => (n % 100 === 0 ? `ERROR at ${n}` : `line ${n}`);
const STDOUT = Array.from({ length: LINES }, (_, i) => `${lineText(i + 1)}\n`).join("");

let memory: MemorySpool;
let receipt: Receipt;
let id: string;
const nowhere = path.join(mkdtempSync(path.join(tmpdir(), "spool-seam-")), "no-root");

beforeAll(async () => {
  memory = createMemorySpool();
  const capture = startCapture({
    command: "sh",
    args: ["-c", SCRIPT],
    root: "/memory",
    label: "seam",
    preview: { ...DEFAULT_PREVIEW_BUDGET, stdoutChars: 64, stderrChars: 64, maxBytes: 1024 },
    plan: () => ({ stages: [createUtf8Decoder()], tap: createPreviewTap(previewTapBudget(64)) }),
    redact: false,
    spool: memory.factory,
  });
  ({ receipt } = await capture.done);
  id = capture.captureId;
});

/** An `Io` whose reader commands reach captures through the memory store only. */
function memoryIo() {
  const out: Buffer[] = [];
  let err = "";
  const io: Io = {
    stdout: (text) => out.push(Buffer.from(text)),
    stderr: (text) => {
      err += text;
    },
    env: { SPOOL_ROOT: nowhere },
    cwd: tmpdir(),
    openStore: () => memory.store,
  };
  return { io, stdout: () => Buffer.concat(out).toString("utf8"), stderr: () => err };
}

/** `spool NAME ARGV…` in this process (`main`, as the binary runs it) against the memory store. */
async function spool(name: string, ...argv: string[]) {
  const { io, stdout, stderr } = memoryIo();
  const status = await main([name, ...argv], io);
  return { status, stdout: stdout(), stderr: stderr() };
}

describe("the reader commands on the memory store", () => {
  it("captured through the memory spool (spilled, complete, nothing on disk)", async () => {
    expect(receipt.capture.state).toBe("complete");
    expect(receipt.streams.stdout.ref).toBe(`tool-outputs/${id}/stdout.txt`);
    expect(memory.bytes(id, "stdout").toString()).toBe(STDOUT);
    // Proof that the file store is not what answers: it has no root to look in.
    const { io } = memoryIo();
    await expect(invokeCommand("status", [id], { ...io, openStore: undefined })).rejects.toThrow(
      /no spool root/,
    );
  });

  it("read: a range, lines through the line index, JSON frames, and refs to a stream", async () => {
    expect((await spool("read", id, "--offset", "7", "--length", "14")).stdout).toBe(
      STDOUT.slice(7, 21),
    );
    expect((await spool("read", id, "--lines", "2999:3000")).stdout).toBe(
      "line 2999\nERROR at 3000\n",
    );
    const frame = JSON.parse((await spool("read", id, "--json", "--length", "7")).stdout);
    expect(frame).toEqual({
      captureId: id,
      stream: "stdout",
      offset: 0,
      nextOffset: 7,
      committed: Buffer.byteLength(STDOUT),
      running: false,
      eof: false,
      text: "line 1\n",
    });
    // A ref names the stream (stderr here) as the file layout's refs do.
    const stderr = await spool("read", `tool-outputs/${id}/stderr.txt`);
    expect(stderr).toEqual({ status: 0, stdout: "warn é\n", stderr: "" });
    const unknown = await spool("read", "no-such-call");
    expect(unknown.status).toBe(64);
    expect(unknown.stderr).toMatch(
      /^spool read: .*no capture with id or call id "no-such-call"\n$/,
    );
  });

  it("read --cursor: each consumer continues where it stopped", async () => {
    const page = async (name: string) =>
      (await spool("read", id, "--cursor", name, "--length", "7")).stdout;
    expect(await page("a")).toBe("line 1\n");
    expect(await page("a")).toBe("line 2\n");
    expect(await page("b")).toBe("line 1\n");
    expect(await memory.store.cursors.get(id, "stdout", "a")).toBe(14);
  });

  it("grep, tail and status", async () => {
    const grep = await spool("grep", id, "^ERROR at [0-9]+00$", "--max", "2");
    expect(grep.status).toBe(0);
    const offset = STDOUT.indexOf("ERROR at 100");
    expect(grep.stdout).toBe(
      `100:${offset}:ERROR at 100\n200:${STDOUT.indexOf("ERROR at 200")}:ERROR at 200\n`,
    );
    expect((await spool("grep", id, "nothing like this")).status).toBe(1);
    expect((await spool("tail", id, "-n", "2")).stdout).toBe("line 2999\nERROR at 3000\n");
    const status = await spool("status", id);
    expect(status.status).toBe(0);
    expect(JSON.parse(status.stdout)).toEqual(receipt);
  });

  it("ls (text and JSON), wait and kill of an ended capture", async () => {
    const ls = await spool("ls");
    expect(ls.stdout).toMatch(
      new RegExp(`^${id}  ${receipt.process?.startedAt}  exited 0  complete  \\d+ B  seam\n$`),
    );
    const [summary] = JSON.parse((await spool("ls", "--json")).stdout);
    expect(summary).toMatchObject({
      captureId: id,
      condition: "final",
      process: "exited",
      exitCode: 0,
      capture: "complete",
      committed: { stdout: Buffer.byteLength(STDOUT), stderr: Buffer.byteLength("warn é\n") },
      refs: { stdout: receipt.streams.stdout.ref, stderr: receipt.streams.stderr.ref },
      job: false,
      groupRunning: null,
    });
    const wait = await spool("wait", id);
    expect(wait.status).toBe(0);
    expect(JSON.parse(wait.stdout)).toEqual(receipt);
    const kill = await spool("kill", id);
    expect(kill.status).toBe(0);
    expect(kill.stdout).toMatch(new RegExp(`^spool kill: ${id} already finished; nothing to kill`));
  });
});

describe("the MCP tools on the memory store", () => {
  let client: Client;
  type Result = {
    content: { type: string; text?: string }[];
    structuredContent: Record<string, unknown>;
    isError?: boolean;
  };
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as Result;
  const text = (r: Result) => r.content.map((c) => c.text ?? "").join("");

  beforeAll(async () => {
    const { io } = memoryIo();
    const options = { root: undefined, maxResultBytes: 1 << 20, allowCmd: [], denyCmd: [] };
    const server = createSpoolMcpServer({ ...options, confineCwd: null }, io);
    const [a, b] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: "seam-test", version: "0" });
    await Promise.all([server.connect(a), client.connect(b)]);
  });
  afterAll(async () => {
    await client?.close();
  });

  it("read pages by offset and lines; a cursor page advances by exactly the page", async () => {
    const lines = await call("read", { ref: id, lines: "2:3" });
    expect(text(lines)).toBe("line 2\nline 3\n");
    // 4 KiB budget: the page is cut to fit, and the cursor moves past exactly that page.
    const first = await call("read", { ref: id, cursor: "mcp", max_bytes: 4096 });
    const sc = first.structuredContent as { offset: number; nextOffset: number; eof: boolean };
    expect(sc.offset).toBe(0);
    expect(sc.nextOffset).toBeGreaterThan(1000);
    expect(sc.nextOffset).toBeLessThan(4096);
    expect(text(first).startsWith(STDOUT.slice(0, sc.nextOffset))).toBe(true);
    expect(await memory.store.cursors.get(id, "stdout", "mcp")).toBe(sc.nextOffset);
    const second = await call("read", { ref: id, cursor: "mcp", max_bytes: 4096 });
    expect((second.structuredContent as { offset: number }).offset).toBe(sc.nextOffset);
    const bad = await call("read", { ref: id, lines: "0:1" });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/SPOOL_E_USAGE: --lines takes A:B/);
  });

  it("grep, tail, status, wait, kill", async () => {
    const grep = await call("grep", { ref: id, pattern: "ERROR", max: 2 });
    expect(grep.structuredContent).toEqual({
      matches: [
        { line: 100, offset: STDOUT.indexOf("ERROR at 100"), text: "ERROR at 100" },
        { line: 200, offset: STDOUT.indexOf("ERROR at 200"), text: "ERROR at 200" },
      ],
      nextOffset: STDOUT.indexOf("ERROR at 200") + 1,
    });
    const tail = await call("tail", { ref: `tool-outputs/${id}/stderr.txt` });
    expect(text(tail)).toBe("warn é\n");
    expect(tail.structuredContent).toEqual({
      bytes: Buffer.byteLength("warn é\n"),
      clipped: false,
    });
    // The receipt, but the preview's text: that is the result's text, with the status line.
    const { text: previewText, ...preview } = receipt.preview;
    const status = await call("status", { ref: id });
    expect(status.structuredContent).toEqual({ exitStatus: 0, receipt: { ...receipt, preview } });
    expect(text(status)).toBe(`${previewText}${statusLine(receipt, 0)}\n`);
    const wait = await call("wait", { ref: id, timeout: 5 });
    expect(wait.structuredContent).toEqual({ exitStatus: 0, receipt: { ...receipt, preview } });
    const kill = await call("kill", { ref: id });
    expect(kill.isError).toBe(false);
    expect(text(kill)).toMatch(/already finished; nothing to kill/);
  });

  it("ls shows each capture's states (never `undefined`), typed to its schema", async () => {
    const ls = await call("ls", {});
    expect(text(ls)).toBe(`${id}  exited  complete  seam`);
    expect(ls.structuredContent).toMatchObject({
      shown: 1,
      total: 1,
      captures: [{ captureId: id, process: "exited", capture: "complete", exitCode: 0 }],
    });
  });

  it("resources list and page a capture", async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([`spool://${id}/stdout`, `spool://${id}/stderr`]);
    const page = await client.readResource({ uri: `spool://${id}/stdout?offset=7` });
    const content = page.contents[0] as { text: string; _meta: { offset: number } };
    expect(content._meta.offset).toBe(7);
    expect(content.text.startsWith("line 2\nline 3\n")).toBe(true);
  });
});
