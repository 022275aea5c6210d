/**
 * The file writer's fsync cadence, run in-process over a MessageChannel with a file-system
 * layer whose background fsyncs wait until the test lets them end: the writes never wait
 * for the cadence's fsync, a second cadence's worth waits for a synchronous one, and a
 * finish waits for a running fsync, whose failure then counts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { type FsLayer, nodeFs } from "../../src/file/fs-layer.js";
import { runWriter } from "../../src/writer/file-writer.worker.js";
import type { FinishedReply, FromWriter, ToWriter } from "../../src/writer/protocol.js";
import { DEFAULT_SYNC_CADENCE } from "../../src/writer/sync-cadence.js";

const CADENCE = DEFAULT_SYNC_CADENCE.bytes;
const dirs: string[] = [];

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** nodeFs, but a background fsync ends only when the test says, and after it fails every fsync of that file does. */
function heldLayer() {
  const held: Array<(error: Error | null) => void> = [];
  const failed = new Set<number>();
  let inLine = 0;
  const eio = () =>
    Object.assign(new Error("EIO: held fault, fsync"), { code: "EIO", syscall: "fsync" });
  const layer: FsLayer = {
    ...nodeFs,
    fsyncSync(fd) {
      inLine++;
      if (failed.has(fd)) throw eio();
      nodeFs.fsyncSync(fd);
    },
    fsync(fd, done) {
      held.push((error) => {
        if (!error) return nodeFs.fsync!(fd, done);
        failed.add(fd);
        done(error);
      });
    },
  };
  return {
    layer,
    held,
    eio,
    /** Synchronous fsyncs through the layer so far (files and directories). */
    get inLine() {
      return inLine;
    },
  };
}

/** A writer over a MessageChannel: `ask` sends a request and resolves with its reply. */
function startWriter(layer: FsLayer) {
  const { port1, port2 } = new MessageChannel();
  const ended = runWriter(port2 as MessagePort, () => layer);
  const replies = new Map<number, (m: FromWriter) => void>();
  const seen: FromWriter[] = [];
  port1.on("message", (m: FromWriter) => {
    seen.push(m);
    replies.get(m.re)?.(m);
  });
  let id = 0;
  const ask = (m: Omit<ToWriter, "id"> & { op: ToWriter["op"] }) =>
    new Promise<FromWriter>((resolve) => {
      const request = { ...m, id: ++id } as ToWriter;
      replies.set(request.id, resolve);
      port1.postMessage(request);
    });
  return { ask, seen, port1, ended, lastId: () => id };
}

async function opened(layer: FsLayer) {
  const root = mkdtempSync(path.join(tmpdir(), "spool-writer-"));
  dirs.push(root);
  const w = startWriter(layer);
  const reply = await w.ask({
    op: "open",
    root,
    captureId: "writer-test",
    files: ["stdout.live", "stderr.live"],
    startedAt: Date.now(),
    faults: [],
  });
  expect(reply.op).toBe("opened");
  const write = (bytes: number) =>
    w.ask({ op: "write", stream: 0, data: new Uint8Array(bytes).fill(120) });
  return { ...w, write };
}

describe("file writer: the fsync cadence in the background", () => {
  it("writes go on while the cadence's fsync runs; another cadence's worth waits for a synchronous one", async () => {
    const fsl = heldLayer();
    const w = await opened(fsl.layer);
    const before = fsl.inLine;
    expect(await w.write(CADENCE)).toMatchObject({ op: "ack", committed: CADENCE });
    expect(fsl.held).toHaveLength(1); // started, not waited for
    expect(await w.write(CADENCE / 2)).toMatchObject({ op: "ack", committed: CADENCE * 1.5 });
    expect(fsl.held).toHaveLength(1);
    expect(fsl.inLine).toBe(before);
    // A whole cadence unsynced since the running fsync began: the writer waits for one now.
    expect(await w.write(CADENCE / 2)).toMatchObject({ op: "ack", committed: CADENCE * 2 });
    expect(fsl.inLine).toBe(before + 1);
    expect(fsl.held).toHaveLength(1);
    fsl.held.shift()!(null);
    const finished = (await w.ask({
      op: "finish",
      finalNames: ["stdout.txt", "stderr.txt"],
    })) as FinishedReply;
    expect(finished.streams[0]).toMatchObject({ committed: CADENCE * 2, error: null });
    expect(finished.streams[0].sha256).toMatch(/^[0-9a-f]{64}$/);
    w.port1.postMessage({ op: "close", id: w.lastId() + 1 });
    await w.ended;
  });

  it("a finish waits for the running fsync, and its failure counts: only synced bytes are claimed", async () => {
    const fsl = heldLayer();
    const w = await opened(fsl.layer);
    await w.write(CADENCE);
    expect(fsl.held).toHaveLength(1);
    const finishing = w.ask({ op: "finish", finalNames: ["stdout.txt", "stderr.txt"] });
    // Requests are handled in order: once the live request is answered, the finish was seen.
    expect(await w.ask({ op: "live", json: "{}\n" })).toMatchObject({ ok: true });
    expect(w.seen.some((m) => m.op === "finished")).toBe(false);
    fsl.held.shift()!(fsl.eio());
    const finished = (await finishing) as FinishedReply;
    expect(finished.streams[0]).toMatchObject({
      committed: 0,
      sha256: null,
      file: null,
      error: "write-error",
      failure: { code: "EIO", syscall: "fsync" },
    });
    expect(finished.streams[1]).toMatchObject({ committed: 0, error: null });
    w.port1.postMessage({ op: "close", id: w.lastId() + 1 });
    await w.ended;
  });

  it("the age timer starts a background fsync too, and its failure is told with the next write", async () => {
    const fsl = heldLayer();
    const w = await opened(fsl.layer);
    await w.write(100); // unsynced, far under the byte cadence: due by age only
    await expect.poll(() => fsl.held.length, { timeout: 5000 }).toBe(1);
    const before = fsl.inLine;
    fsl.held.shift()!(fsl.eio());
    // The stop happened in the callback: the next write is answered with it, claiming only
    // what a sync made durable (nothing).
    expect(await w.write(10)).toMatchObject({ op: "stream-error" });
    const stopped = w.seen.find((m) => m.op === "stream-error");
    expect(stopped).toMatchObject({ reason: "write-error", committed: 0, code: "EIO" });
    expect(fsl.inLine).toBe(before + 1); // the one retry stopStream makes, which fails too
    w.port1.postMessage({ op: "close", id: w.lastId() + 1 });
    await w.ended;
  });

  it("a finish after the fsync succeeded claims every byte", async () => {
    const fsl = heldLayer();
    const w = await opened(fsl.layer);
    await w.write(CADENCE + 5);
    const finishing = w.ask({ op: "finish", finalNames: ["stdout.txt", "stderr.txt"] });
    await w.ask({ op: "live", json: "{}\n" });
    fsl.held.shift()!(null);
    const finished = (await finishing) as FinishedReply;
    expect(finished.streams[0]).toMatchObject({ committed: CADENCE + 5, error: null });
    expect(finished.streams[0].file).toMatch(/stdout\.txt$/);
    w.port1.postMessage({ op: "close", id: w.lastId() + 1 });
    await w.ended;
  });
});
