import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { createFileSpool, createMemorySpool } from "@spool/sinks";
import { checkSpoolContract } from "@spool/sinks/testing";
import { describe, expect, it } from "vitest";

describe("spool contract", () => {
  it("holds for the file spool (real worker thread, real files)", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "spool-contract-"));
    const files = createFileSpool({});
    try {
      await checkSpoolContract({
        factory: files.factory,
        root,
        readBack: (_, __, final) => readFileSync(final.path!),
      });
    } finally {
      await files.destroy();
    }
  });

  it("holds for the memory spool", async () => {
    const memory = createMemorySpool();
    await checkSpoolContract({
      factory: memory.factory,
      root: "/unused",
      readBack: (id, stream) => memory.bytes(id, stream),
    });
  });

  it("catches a spool that loses bytes", async () => {
    const memory = createMemorySpool();
    await expect(
      checkSpoolContract({
        factory: memory.factory,
        root: "/unused",
        readBack: (id, stream) => memory.bytes(id, stream).subarray(1),
      }),
    ).rejects.toThrow(/spool contract/);
  });
});
