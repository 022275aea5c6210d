import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { type CaptureStore, newCaptureId, type SpoolFactory, type StreamName } from "@spool/core";
import { createFileSpool, createFileStore, createMemorySpool, OWNER_FILE } from "@spool/sinks";
import { checkStoreContract } from "@spool/sinks/testing";
import { createPreviewTap, createUtf8Decoder, previewTapBudget } from "@spool/transforms";
import { afterAll, describe, expect, it } from "vitest";

const plan = (_: StreamName) => ({
  stages: [createUtf8Decoder()],
  tap: createPreviewTap(previewTapBudget(64)),
});

/** Write `stdout` through a spool and leave it open, as an owner that died would. */
async function abandon(factory: SpoolFactory, root: string, stdout: Buffer) {
  const captureId = newCaptureId();
  const spool = factory({ captureId, root, startedAt: Date.now() });
  await spool.spill();
  spool.streams.stdout.offer([stdout]);
  await spool.streams.stdout.flushed();
  return { captureId, spool };
}

/** A pid that has certainly exited. */
function deadPid(): number {
  const exited = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(exited.stdout.toString());
}

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

function fileSetup() {
  const root = fs.mkdtempSync(path.join(tmpdir(), "spool-store-"));
  roots.push(root);
  const files = createFileSpool({});
  const store = createFileStore({ root });
  const crash = async (stdout: Buffer) => {
    const { captureId, spool } = await abandon(files.factory, root, stdout);
    await spool.close();
    // The writer wrote owner.json for this process; the owner is now one that has exited.
    const owner = path.join(root, "tool-outputs", captureId, OWNER_FILE);
    fs.rmSync(owner);
    fs.writeFileSync(owner, JSON.stringify({ pid: deadPid(), start: "1" }), { mode: 0o600 });
    return captureId;
  };
  return { root, files, store, crash };
}

function memorySetup() {
  const memory = createMemorySpool();
  const crash = async (stdout: Buffer) => {
    const { captureId, spool } = await abandon(memory.factory, "/memory", stdout);
    await spool.close(); // closed without a receipt: the memory store's crash
    return captureId;
  };
  return { memory, crash };
}

describe("store contract", () => {
  it("holds for the file store (real child, real worker, real files)", async () => {
    const { root, files, store, crash } = fileSetup();
    try {
      await checkStoreContract({ store, factory: files.factory, root, plan, crash });
    } finally {
      await files.destroy();
    }
  });

  it("holds for the memory store", async () => {
    const { memory, crash } = memorySetup();
    await checkStoreContract({
      store: memory.store,
      factory: memory.factory,
      root: "/memory",
      plan,
      crash,
    });
  });

  it("catches a store that reads past committed", async () => {
    const { memory, crash } = memorySetup();
    const store: CaptureStore = {
      ...memory.store,
      // Ignores the bound of the state it is given: reads whatever is stored.
      openStream: async (state, stream) =>
        memory.store.openStream(await memory.store.state(state.captureId), stream),
    };
    await expect(
      checkStoreContract({ store, factory: memory.factory, root: "/memory", plan, crash }),
    ).rejects.toThrow(/store contract: .*(past|bound)/);
  });

  it("catches a store that splits a character", async () => {
    const { memory, crash } = memorySetup();
    const store: CaptureStore = {
      ...memory.store,
      // Byte-exact reads as for `binary`, on a text stream.
      openStream: async (state, stream) => {
        const s = state.receipt.streams[stream];
        const raw = {
          ...state,
          receipt: {
            ...state.receipt,
            streams: { ...state.receipt.streams, [stream]: { ...s, representation: "binary" } },
          },
        };
        return { ...(await memory.store.openStream(raw, stream)), binary: false };
      },
    };
    await expect(
      checkStoreContract({ store, factory: memory.factory, root: "/memory", plan, crash }),
    ).rejects.toThrow(/store contract: .*split a character/);
  });

  it("catches a store that delivers a completion twice", async () => {
    const { memory, crash } = memorySetup();
    const store: CaptureStore = {
      ...memory.store,
      completion: { ...memory.store.completion, take: async () => true },
    };
    await expect(
      checkStoreContract({ store, factory: memory.factory, root: "/memory", plan, crash }),
    ).rejects.toThrow(/store contract: .*(takes delivered|twice)/);
  });

  it("catches a store whose watch never ends", async () => {
    const { memory, crash } = memorySetup();
    const store: CaptureStore = {
      ...memory.store,
      async *watch(captureId) {
        for (;;) {
          yield await memory.store.state(captureId);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      },
    };
    await expect(
      checkStoreContract({
        store,
        factory: memory.factory,
        root: "/memory",
        plan,
        crash,
        hangMs: 2000,
      }),
    ).rejects.toThrow(/store contract: /);
  });
});

describe("the memory spool's store", () => {
  it("reads back what a capture wrote, through the receipt's own refs", async () => {
    const { memory } = memorySetup();
    const { captureId, spool } = await abandon(memory.factory, "/memory", Buffer.from("héllo\n"));
    const finals = await spool.finish();
    expect(finals.stdout.ref).toBe(`tool-outputs/${captureId}/stdout.txt`);
    expect(await memory.store.resolve(finals.stdout.ref!)).toEqual({ captureId, stream: "stdout" });
    // Closed after finish without a receipt: crashed, and its bytes read back whole.
    await spool.close();
    const state = await memory.store.state(captureId);
    expect(state.condition).toBe("crashed");
    const stream = await memory.store.openStream(state, "stdout");
    expect((await stream.read(0, 100)).bytes.toString()).toBe("héllo\n");
    await stream.close();
  });
});
