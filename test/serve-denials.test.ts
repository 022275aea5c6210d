/**
 * `spool serve` refuses what it must before it reads anything: each request below is
 * refused, and the store behind the server was not asked a single thing (every call to
 * it is recorded). A symlinked capture directory is the one refusal that needs a look:
 * the store refuses it, and no byte behind the link is served.
 */
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeCmd, runJson, tempRoot } from "./helpers.js";
import { bearer, type InProcessServer, rawGet, serveInProcess } from "./serve-helpers.js";

const SECRET_TEXT = "the bytes behind the link";

describe("spool serve: denials", () => {
  const root = tempRoot();
  const big = "x".repeat(40_000);
  const a = runJson(
    root,
    nodeCmd(`process.stdout.write(${JSON.stringify(`${big}\nA-capture\n`)})`),
  );
  const b = runJson(
    root,
    nodeCmd(`process.stdout.write(${JSON.stringify(`${big}\nB-capture\n`)})`),
  );
  const idA = a.receipt.captureId;
  const idB = b.receipt.captureId;
  let server: InProcessServer;

  beforeAll(async () => {
    server = await serveInProcess(root);
  });
  afterAll(async () => {
    await server.close();
  });

  /** Refused with `status`, and the store was never asked. */
  async function refusedUnread(
    target: string,
    status: number,
    headers: Record<string, string> = {},
  ) {
    server.calls.length = 0;
    const r = await rawGet(server.url, target, headers);
    expect(r.status, `${target}: ${r.body.toString().slice(0, 200)}`).toBe(status);
    expect(server.calls, target).toEqual([]);
    expect(r.body.toString()).not.toContain("A-capture");
    expect(r.headers["access-control-allow-origin"]).toBeUndefined();
    return r;
  }
  const stream = (id: string) => `/api/v1/captures/${id}/streams/stdout`;

  it("no token, a wrong token, a malformed header: 401", async () => {
    const r = await refusedUnread(stream(idA), 401);
    expect(JSON.parse(r.body.toString()).error.code).toBe("SPOOL_E_AUTH");
    await refusedUnread(stream(idA), 401, bearer(`${server.rootToken.slice(0, -2)}xx`));
    await refusedUnread(stream(idA), 401, { authorization: server.rootToken });
    await refusedUnread("/api/v1/captures", 401, bearer("spool1.e30.AAAA"));
  });

  it("an expired scoped token: 401", async () => {
    const token = server.authority.issue({ captureId: idA, ttlMs: 60_000 });
    server.calls.length = 0;
    expect((await rawGet(server.url, stream(idA), bearer(token))).status).toBe(200);
    server.now.t += 60_000;
    try {
      const r = await refusedUnread(stream(idA), 401, bearer(token));
      expect(r.body.toString()).toContain("expired");
    } finally {
      server.now.t -= 60_000;
    }
  });

  it("a scoped token on another capture's id: 403; it lists only its own", async () => {
    const token = server.authority.issue({ captureId: idA, ttlMs: 60_000 });
    for (const suffix of ["", "/streams/stdout", "/streams/stdout/grep?pattern=B", "/events"]) {
      await refusedUnread(`/api/v1/captures/${idB}${suffix}`, 403, bearer(token));
    }
    const list = await rawGet(server.url, "/api/v1/captures", bearer(token));
    expect(list.status).toBe(200);
    const ids = JSON.parse(list.body.toString()).captures.map(
      (c: { captureId: string }) => c.captureId,
    );
    expect(ids).toEqual([idA]);
    // A read-only token cannot advance a cursor.
    const r = await rawGet(server.url, `${stream(idA)}?cursor=me`, bearer(token));
    expect(r.status).toBe(403);
  });

  it("traversal, encoded traversal, absolute paths, NUL, backslashes: 400 before auth or the store", async () => {
    const h = bearer(server.rootToken);
    for (const target of [
      "/api/v1/captures/../../../etc/passwd",
      "/api/v1/captures/..%2f..%2f..%2fetc%2fpasswd",
      "/api/v1/captures/%2e%2e/%2e%2e/etc/passwd",
      "/api/v1/captures/%252e%252e%252fetc",
      `/api/v1/captures/${idA}/streams/..%2Fstdout`,
      `/api/v1/captures/${idA}/./streams/stdout`,
      "/api/v1/captures//etc/passwd",
      "/api/v1/captures/%2Fetc%2Fpasswd",
      "//etc/passwd",
      "/api/v1/captures/%00",
      `/api/v1/captures/${idA}%00/streams/stdout`,
      `/api/v1/captures/${idA}\\..\\x`,
      `${stream(idA)}?offset=%00`,
      "/api/v1/captures/tool-outputs",
    ]) {
      await refusedUnread(target, 400, h);
    }
    // Absolute-form targets and ids that are not capture ids never reach the store either.
    await refusedUnread("http://127.0.0.1/api/v1/captures", 400, h);
    await refusedUnread("/api/v1/captures/AAAA/streams/stdout", 400, h);
  });

  it("overlong URLs: 414 (and 431 past the header limit)", async () => {
    await refusedUnread(`/api/v1/captures/${"a".repeat(9000)}`, 414, bearer(server.rootToken));
    await refusedUnread(`/api/v1/captures?x=${"a".repeat(20_000)}`, 431, bearer(server.rootToken));
  });

  it("a foreign Host header (DNS rebinding): 421, even with the root token", async () => {
    for (const host of [
      "evil.example",
      `evil.example:${server.port}`,
      "127.0.0.1",
      `127.0.0.2:${server.port}`,
    ]) {
      await refusedUnread(`/api/v1/captures?host=${host}`, 421, {
        ...bearer(server.rootToken),
        host,
      });
    }
    // No Host at all (HTTP/1.1 requires one): refused by Node's parser, before the gate.
    server.calls.length = 0;
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect(server.port, "127.0.0.1", () => {
        socket.end("GET /api/v1/captures HTTP/1.1\r\nConnection: close\r\n\r\n");
      });
      let text = "";
      socket.on("data", (c) => {
        text += c.toString();
      });
      socket.on("close", () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(server.calls).toEqual([]);
    // The page itself is refused too, so a rebound origin cannot even load it.
    await refusedUnread("/", 421, { host: "evil.example" });
  });

  it("writes and CORS preflights are refused; no answer carries CORS headers", async () => {
    server.calls.length = 0;
    const post = await rawGet(server.url, stream(idA), bearer(server.rootToken), {
      method: "POST",
    });
    expect(post.status).toBe(405);
    const head = await rawGet(server.url, stream(idA), bearer(server.rootToken), {
      method: "HEAD",
    });
    expect(head.status).toBe(405);
    const preflight = await rawGet(
      server.url,
      stream(idA),
      { origin: "http://evil.example", "access-control-request-method": "GET" },
      { method: "OPTIONS" },
    );
    expect(preflight.status).toBe(405);
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
    expect(server.calls).toEqual([]);
    const ok = await rawGet(server.url, stream(idA), {
      ...bearer(server.rootToken),
      origin: "http://evil.example",
    });
    expect(ok.status).toBe(200);
    expect(ok.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("a symlinked capture directory is refused by the store, and nothing behind it is served", async () => {
    const outside = fs.mkdtempSync(path.join(path.dirname(root), "spool-outside-"));
    fs.writeFileSync(path.join(outside, "stdout.txt"), SECRET_TEXT);
    fs.cpSync(path.join(root, "tool-outputs", idA), path.join(outside, "copy"), {
      recursive: true,
    });
    const linkId = "LinkLinkLinkLinkLinkLink";
    const copyId = "CopyCopyCopyCopyCopyCopy";
    fs.symlinkSync(outside, path.join(root, "tool-outputs", linkId));
    fs.symlinkSync(path.join(outside, "copy"), path.join(root, "tool-outputs", copyId));
    for (const id of [linkId, copyId]) {
      for (const suffix of ["", "/streams/stdout", "/events"]) {
        const r = await rawGet(
          server.url,
          `/api/v1/captures/${id}${suffix}`,
          bearer(server.rootToken),
        );
        expect([400, 403, 404], `${id}${suffix}`).toContain(r.status);
        expect(r.body.toString()).not.toContain(SECRET_TEXT);
        expect(r.body.toString()).not.toContain("A-capture");
      }
    }
    const list = await rawGet(server.url, "/api/v1/captures", bearer(server.rootToken));
    const ids = JSON.parse(list.body.toString()).captures.map(
      (c: { captureId: string }) => c.captureId,
    );
    expect(ids).not.toContain(linkId);
    expect(ids).not.toContain(copyId);
  });
});
