/**
 * Whole-stream downloads from `spool serve` as the bench takes them, at test size: bytes
 * go from the store to the socket through reused buffers (`range-pump.ts`), so a download
 * read slowly (the socket full, writes pending) must still be byte-identical (sha256 =
 * the receipt's), a client that leaves mid-stream must leave no descriptor open, and the
 * app without a Node response (`app.fetch`) must send the same bytes as a web stream.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import { createFileStore } from "@spool/sinks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createGrepRunner } from "../packages/cli/src/serve/grep-runner.js";
import { createServeApp } from "../packages/cli/src/serve/serve-app.js";
import { createTokenAuthority, newRootToken } from "../packages/cli/src/serve/tokens.js";
import { loadWebAssets } from "../packages/cli/src/serve/web-assets.js";
import { nodeCmd, runJson, tempRoot } from "./helpers.js";
import { bearer, type InProcessServer, serveInProcess } from "./serve-helpers.js";

// ~5.4 MiB of varied lines: several 1 MiB pump chunks, each different.
const SCRIPT = `let s = []; for (let i = 0; i < 200000; i++) s.push(i.toString(36).repeat(1 + (i % 7)) + " é€ " + i + "\\n"); process.stdout.write(s.join(""));`;

describe("spool serve: whole downloads", () => {
  const root = tempRoot();
  const run = runJson(root, nodeCmd(SCRIPT), ["--max-bytes", "64MiB"]);
  const stdout = run.receipt.streams.stdout;
  const target = `/api/v1/captures/${run.receipt.captureId}/streams/stdout`;
  let server: InProcessServer;
  beforeAll(async () => {
    server = await serveInProcess(root, { maxTransfer: 64 * 1024 * 1024 });
  });
  afterAll(async () => {
    await server.close();
  });

  it("a slowly read download is byte-identical to the receipt's sha256", async () => {
    expect(stdout.committed).toBeGreaterThan(5 * 1024 * 1024);
    const u = new URL(server.url);
    const got = await new Promise<{
      sha: string;
      length: number;
      headers: http.IncomingHttpHeaders;
    }>((resolve, reject) => {
      const hash = createHash("sha256");
      let length = 0;
      let n = 0;
      http
        .get(
          { host: u.hostname, port: u.port, path: target, headers: bearer(server.rootToken) },
          (res) => {
            res.on("data", (chunk: Buffer) => {
              hash.update(chunk);
              length += chunk.length;
              // Stall now and then so the server's writes pile up behind a full socket.
              if (++n % 8 === 0) {
                res.pause();
                setImmediate(() => setImmediate(() => res.resume()));
              }
            });
            res.on("end", () => resolve({ sha: hash.digest("hex"), length, headers: res.headers }));
            res.on("error", reject);
          },
        )
        .on("error", reject);
    });
    expect(got.length).toBe(stdout.committed);
    expect(got.sha).toBe(stdout.sha256);
    expect(got.headers["content-length"]).toBe(String(stdout.committed));
    expect(got.headers.etag).toBe(`"sha256-${stdout.sha256}"`);
  });

  it("clients that leave mid-download leave no descriptor open", async () => {
    const fds = () => fs.readdirSync("/proc/self/fd").length;
    const before = fds();
    const u = new URL(server.url);
    await Promise.all(
      Array.from(
        { length: 6 },
        () =>
          new Promise<void>((resolve) => {
            const req = http.get(
              { host: u.hostname, port: u.port, path: target, headers: bearer(server.rootToken) },
              (res) => {
                res.once("data", () => req.destroy());
                res.on("error", () => resolve());
                res.on("close", () => resolve());
              },
            );
            req.on("error", () => resolve());
          }),
      ),
    );
    await vi.waitFor(() => expect(fds()).toBeLessThanOrEqual(before), {
      timeout: 30_000,
      interval: 50,
    });
  });

  it("without a Node response (app.fetch) the same bytes come as a web stream", async () => {
    const rootToken = newRootToken();
    const app = createServeApp({
      store: createFileStore({ root }),
      authority: createTokenAuthority({ rootToken, now: () => Date.now() }),
      grep: createGrepRunner({ timeMs: 2000 }),
      web: loadWebAssets(),
      maxTransfer: 64 * 1024 * 1024,
    });
    const res = await app.fetch(
      new Request(`http://127.0.0.1${target}`, { headers: bearer(rootToken) }),
    );
    expect(res.status).toBe(200);
    const body = Buffer.from(await res.arrayBuffer());
    expect(createHash("sha256").update(body).digest("hex")).toBe(stdout.sha256);
  });
});
