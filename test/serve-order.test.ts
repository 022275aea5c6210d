/**
 * The routes the log viewer added, over real captures and the real server: the journal
 * of stream switches a capture records (`order.jnl`, read through `CaptureStore.order`
 * and `GET …/order`), and the line count of a stream (`GET …/streams/:stream/lines`),
 * with the same scope and file rules as every other route.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { createFileStore } from "@spool/sinks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PHASES } from "./fixtures/order-phases.js";
import { nodeCmd, runJson, tempRoot } from "./helpers.js";
import { type InProcessServer, rawGet, serveInProcess } from "./serve-helpers.js";

describe("write order and line counts", () => {
  const root = tempRoot();
  let server: InProcessServer;
  let mixed = "";
  let plain = "";
  const get = async (target: string, token = server.rootToken) => {
    const r = await rawGet(server.url, target, { authorization: `Bearer ${token}` });
    return { status: r.status, body: JSON.parse(r.body.toString()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    mixed = runJson(root, nodeCmd(PHASES(root))).receipt.captureId;
    plain = runJson(root, nodeCmd(`process.stdout.write("x".repeat(40000) + "\\nlast")`)).receipt
      .captureId;
    server = await serveInProcess(root);
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("records where each stream's runs start, in the order spool took them", async () => {
    const store = createFileStore({ root });
    expect(await store.order?.(mixed)).toEqual({
      switches: [
        [0, 0],
        [1, 0],
        [0, 80_000],
      ],
      full: false,
    });
    expect(await store.order?.(plain)).toEqual({ switches: [[0, 0]], full: false });
    const { status, body } = await get(`/api/v1/captures/${mixed}/order`);
    expect(status).toBe(200);
    expect(body).toEqual({
      switches: [
        [0, 0],
        [1, 0],
        [0, 80_000],
      ],
      full: false,
      committed: { stdout: 80_000 + 5 * 8, stderr: 5 * 13 },
      condition: "final",
    });
  });

  it("counts lines at the committed end, and says where the last starts", async () => {
    expect((await get(`/api/v1/captures/${mixed}/streams/stdout/lines`)).body).toMatchObject({
      lines: 405,
      lastLineStart: 80_000 + 4 * 8,
      endsWithNewline: true,
      committed: 80_040,
      binary: false,
      condition: "final",
    });
    expect((await get(`/api/v1/captures/${mixed}/streams/stderr/lines`)).body).toMatchObject({
      lines: 5,
    });
    expect((await get(`/api/v1/captures/${plain}/streams/stdout/lines`)).body).toMatchObject({
      lines: 2,
      lastLineStart: 40_001,
      endsWithNewline: false,
    });
  });

  it("answers a scoped token for its own capture only", async () => {
    const token = server.authority.issue({ captureId: plain, ttlMs: 60_000 });
    expect((await get(`/api/v1/captures/${plain}/order`, token)).status).toBe(200);
    expect((await get(`/api/v1/captures/${mixed}/order`, token)).status).toBe(403);
    expect((await get(`/api/v1/captures/${mixed}/streams/stdout/lines`, token)).status).toBe(403);
  });

  it("says when there is no journal, and refuses a link planted in its place", async () => {
    const journal = path.join(root, "tool-outputs", plain, "order.jnl");
    fs.rmSync(journal);
    expect((await get(`/api/v1/captures/${plain}/order`)).body).toMatchObject({
      switches: null,
      full: false,
    });
    fs.symlinkSync("/etc/passwd", journal);
    const refused = await rawGet(server.url, `/api/v1/captures/${plain}/order`, {
      authorization: `Bearer ${server.rootToken}`,
    });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body.toString()).error.code).toBe("SPOOL_E_UNSAFE_PATH");
  });
});
