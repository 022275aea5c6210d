/**
 * What `spool serve` answers, against what `spool read`/`grep` say of the same capture:
 * ranges, offsets, lines, cursors, caching, transfer caps, bounded grep, the receipt for
 * remote readers, live follow of a job writing at full speed (every committed byte exactly
 * once, then the final receipt), and concurrent readers and followers on loopback.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Receipt } from "@spool/core";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { receiptForRemote } from "../packages/cli/src/serve/remote-receipt.js";
import { killGroups, nodeCmd, runJson, spool, tempRoot } from "./helpers.js";
import {
  bearer,
  followEvents,
  type InProcessServer,
  rawGet,
  serveInProcess,
} from "./serve-helpers.js";

const NO_QUOTA = ["--max-bytes", "1GiB", "--root-quota", "4GiB"];
const leftovers: number[] = [];
afterAll(() => killGroups(leftovers));

// Multi-byte text, so character boundaries matter: ~200 KiB over 3000 lines.
const TEXT_SCRIPT = `let s = ""; for (let i = 1; i <= 3000; i++) s += "line " + i + " é€😀 " + "abc".repeat(i % 40) + (i % 97 === 0 ? " needle" : "") + "\\n"; process.stdout.write(s); process.stderr.write("warn\\n".repeat(3000));`;

describe("spool serve: reads", () => {
  const root = tempRoot();
  const run = runJson(root, nodeCmd(TEXT_SCRIPT));
  const id = run.receipt.captureId;
  const full = spool(["read", "--root", root, id]).stdout;
  let server: InProcessServer;
  let h: Record<string, string>;
  const url = (q = "", s = "stdout") => `/api/v1/captures/${id}/streams/${s}${q}`;

  beforeAll(async () => {
    server = await serveInProcess(root, { maxTransfer: 64 * 1024, grepMs: 5000 });
    h = bearer(server.rootToken);
  });
  afterAll(async () => {
    await server.close();
  });

  it("a Range read is exactly those bytes of spool read's output; 206 with Content-Range", async () => {
    expect(full.length).toBeGreaterThan(150_000);
    await fc.assert(
      fc.asyncProperty(fc.nat(full.length - 1), fc.nat(70_000), async (start, n) => {
        const last = Math.min(full.length - 1, start + n);
        const r = await rawGet(server.url, url(), { ...h, range: `bytes=${start}-${last}` });
        expect(r.status).toBe(206);
        const end = Math.min(last + 1, start + 64 * 1024);
        expect(r.body.equals(full.subarray(start, end))).toBe(true);
        expect(r.headers["content-range"]).toBe(`bytes ${start}-${end - 1}/${full.length}`);
        expect(r.headers["spool-cut"]).toBe(end <= last ? "max-transfer" : undefined);
      }),
      { numRuns: 40 },
    );
    const suffix = await rawGet(server.url, url(), { ...h, range: "bytes=-100" });
    expect(suffix.body.equals(full.subarray(full.length - 100))).toBe(true);
  });

  it("?offset&length and ?lines give what spool read --offset/--length and --lines print", async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(full.length + 10), fc.nat(5000), async (offset, length) => {
        const r = await rawGet(server.url, url(`?offset=${offset}&length=${length}`), h);
        expect(r.status).toBe(200);
        const cli = spool([
          "read",
          "--root",
          root,
          id,
          "--offset",
          String(offset),
          "--length",
          String(length),
        ]);
        expect(r.body.equals(cli.stdout)).toBe(true);
        expect(Number(r.headers["spool-next-offset"]) - Number(r.headers["spool-offset"])).toBe(
          r.body.length,
        );
      }),
      { numRuns: 6 },
    );
    for (const lines of ["1:1", "96:98", "2999:5000", "17:"]) {
      const r = await rawGet(server.url, url(`?lines=${lines}`), h);
      const cli = spool(["read", "--root", root, id, "--lines", lines]).stdout;
      // Past the transfer cap the answer is cut on a character boundary, and says so.
      expect(cli.subarray(0, r.body.length).equals(r.body)).toBe(true);
      expect(r.body.length === cli.length || r.headers["spool-cut"] === "max-transfer").toBe(true);
    }
  });

  it("416 past the committed end and for several ranges; a final stream has an ETag and is cacheable", async () => {
    const past = await rawGet(server.url, url(), { ...h, range: `bytes=${full.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers["content-range"]).toBe(`bytes */${full.length}`);
    const multi = await rawGet(server.url, url(), { ...h, range: "bytes=0-1,4-5" });
    expect(multi.status).toBe(416);
    expect(JSON.parse(multi.body.toString()).error.message).toMatch(/one range/);
    const whole = await rawGet(server.url, url(), h);
    expect(whole.status).toBe(200);
    expect(whole.headers.etag).toBe(`"sha256-${run.receipt.streams.stdout.sha256}"`);
    expect(whole.headers["cache-control"]).toMatch(/immutable/);
    expect(whole.headers["spool-cut"]).toBe("max-transfer");
    expect(whole.body.equals(full.subarray(0, whole.body.length))).toBe(true);
    const again = await rawGet(server.url, url(), {
      ...h,
      "if-none-match": whole.headers.etag as string,
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it("a cursor advances as its bytes are sent, and only its own", async () => {
    const first = await rawGet(server.url, url("?cursor=web&length=1000"), h);
    const second = await rawGet(server.url, url("?cursor=web&length=1000"), h);
    const other = await rawGet(server.url, url("?cursor=other&length=10"), h);
    expect(
      Buffer.concat([first.body, second.body]).equals(
        full.subarray(0, first.body.length + second.body.length),
      ),
    ).toBe(true);
    expect(Number(second.headers["spool-offset"])).toBe(first.body.length);
    // Never a split character: 10 bytes from 0 end before the 3-byte € at 9.
    expect(other.body.equals(full.subarray(0, 9))).toBe(true);
    // The CLI continues the same cursor where the server left it.
    const next = Number(second.headers["spool-next-offset"]);
    const cli = spool(["read", "--root", root, id, "--cursor", "web", "--length", "8"]).stdout;
    expect(cli.length).toBeGreaterThan(0);
    expect(cli.equals(full.subarray(next, next + cli.length))).toBe(true);
  });

  it("grep answers what spool grep --json prints; a runaway pattern is stopped at its time budget", async () => {
    const cli = spool(["grep", "--root", root, id, "needle|line 7 ", "--json"])
      .stdout.toString()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const r = await rawGet(
      server.url,
      url(`/grep?pattern=${encodeURIComponent("needle|line 7 ")}`),
      h,
    );
    expect(r.status).toBe(200);
    const body = JSON.parse(r.body.toString());
    expect(body.matches).toEqual(cli);
    expect(body.cut).toBeNull();
    const capped = JSON.parse(
      (await rawGet(server.url, url("/grep?pattern=line&max=5"), h)).body.toString(),
    );
    expect(capped.matches).toHaveLength(5);
    expect(capped.cut).toBe("max");
    // Results past the transfer cap (64 KiB here) are cut, and the answer says so.
    const many = await rawGet(server.url, url("/grep?pattern=line&max=1000"), h);
    expect(many.body.length).toBeLessThanOrEqual(64 * 1024);
    const manyBody = JSON.parse(many.body.toString());
    expect(manyBody.cut).toBe("max-transfer");
    expect(manyBody.matches.length).toBeGreaterThan(100);
    expect(manyBody.matches.length).toBeLessThan(1000);
    // (x+x+)+y backtracks exponentially on lines of x's without a y; RE2 decides it in
    // linear time. A grep past its time budget (here a clock whose deadline comes at once)
    // is stopped and says so.
    const slowRoot = tempRoot();
    const slow = runJson(
      slowRoot,
      nodeCmd(`process.stdout.write(("x".repeat(40) + "\\n").repeat(2000))`),
    );
    const target = `/api/v1/captures/${slow.receipt.captureId}/streams/stdout/grep?pattern=${encodeURIComponent("(x+x+)+y")}`;
    const linear = await serveInProcess(slowRoot);
    const late = await serveInProcess(slowRoot, {
      grepClock: {
        now: () => Date.now(),
        setTimeout: (fn) => {
          setImmediate(fn);
          return () => {};
        },
      },
    });
    try {
      const done = await rawGet(linear.url, target, bearer(linear.rootToken));
      expect(done.status).toBe(200);
      expect(JSON.parse(done.body.toString())).toMatchObject({ matches: [], cut: null });
      const t = await rawGet(late.url, target, bearer(late.rootToken));
      expect(t.status).toBe(200);
      expect(JSON.parse(t.body.toString()).cut).toBe("time");
    } finally {
      await linear.close();
      await late.close();
    }
    const bad = await rawGet(server.url, url("/grep?pattern=%28"), h);
    expect(bad.status).toBe(400);
  });

  it("the receipt route and status --for-remote replace local paths with routes", async () => {
    const r = JSON.parse((await rawGet(server.url, `/api/v1/captures/${id}`, h)).body.toString());
    expect(r.condition).toBe("final");
    expect(r.receipt.root).toBe("remote");
    expect(r.receipt.streams.stdout.path).toBe(`/api/v1/captures/${id}/streams/stdout`);
    expect(r.receipt.streams.stdout.remote).toEqual({
      state: "available",
      url: `/api/v1/captures/${id}/streams/stdout`,
    });
    expect(JSON.stringify(r)).not.toContain(root);
    const cli = JSON.parse(
      spool([
        "status",
        "--root",
        root,
        id,
        "--for-remote",
        "--base-url",
        "https://spool.example:8443",
      ]).stdout.toString(),
    );
    expect(cli.streams.stdout.path).toBe(
      `https://spool.example:8443/api/v1/captures/${id}/streams/stdout`,
    );
    expect(JSON.stringify(cli)).not.toContain(root);
    // A small result was never stored (its receipt is all there is): its streams have no route.
    const small = runJson(root, nodeCmd("console.log('tiny')"));
    expect(small.receipt.streams.stdout.ref).toBeNull();
    const smallRemote = receiptForRemote(small.receipt, "https://spool.example:8443");
    expect(smallRemote.streams.stdout.remote).toEqual({
      state: "unavailable",
      reason: "not-stored",
    });
    expect(smallRemote.streams.stdout.path).toBeNull();
  });
});

describe("spool serve: live follow of a job writing at full speed", () => {
  const root = tempRoot();
  let server: InProcessServer;
  beforeAll(async () => {
    server = await serveInProcess(root, { maxTransfer: 256 * 1024 * 1024 });
  });
  afterAll(async () => {
    await server.close();
  });

  function start(script: string): Receipt {
    const r = spool(["start", "--root", root, ...NO_QUOTA, "--", ...nodeCmd(script)]);
    expect(r.status, r.stderr).toBe(0);
    const receipt = JSON.parse(r.stdout.toString()) as Receipt;
    if (receipt.process.pid) leftovers.push(receipt.process.pid);
    return receipt;
  }
  // 12 MiB of numbered lines written as fast as the pipe takes them (some stderr too), in
  // two halves: the second starts once the file named by `go` exists, so followers that
  // connected in between see the capture live, whatever the machine's load.
  const writer = (go: string, total = 12 * 1024 * 1024) => `const fs = require("fs");
const line = (i) => String(i).padStart(9, "0") + " é€😀 " + "z".repeat(i % 50) + "\\n";
let i = 0; const total = ${total}; let sent = 0; let waited = false;
function go() { for (;;) { let chunk = ""; while (chunk.length < 60000) chunk += line(i++); sent += Buffer.byteLength(chunk); if (i % 20000 < 1000) process.stderr.write("e" + i + "\\n"); if (sent >= total) { process.stdout.write(chunk); return; } if (!waited && sent >= total / 2) { waited = true; process.stdout.write(chunk); const t = setInterval(() => { if (fs.existsSync(${JSON.stringify(go)})) { clearInterval(t); go(); } }, 10); return; } if (!process.stdout.write(chunk)) return process.stdout.once("drain", go); } }
go();`;

  it("every committed byte exactly once, in order, then the final receipt; a live read is no-store", async () => {
    const go = path.join(root, `go-${Date.now()}`);
    const launched = start(writer(go));
    const id = launched.captureId;
    const h = bearer(server.rootToken);
    const live = await rawGet(server.url, `/api/v1/captures/${id}/streams/stdout?length=100`, h);
    expect(live.status).toBe(200);
    expect(live.headers["spool-condition"]).toBe("live");
    expect(live.headers["cache-control"]).toBe("no-store");
    expect(live.headers.etag).toBeUndefined();
    expect(Number(live.headers["spool-committed"])).toBeGreaterThanOrEqual(0);
    let connected = 0;
    const followers = [0, 1, 2].map(() => {
      let first = true;
      return followEvents(server.url, `/api/v1/captures/${id}/events`, h, () => {
        if (first && ++connected === 3) fs.writeFileSync(go, "");
        first = false;
      });
    });
    const results = await Promise.all(followers);
    const final = JSON.parse(spool(["status", "--root", root, id]).stdout.toString()) as Receipt;
    expect(final.capture.state).toBe("complete");
    for (const { status, events } of results) {
      expect(status).toBe(200);
      const got = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
      const at = { stdout: 0, stderr: 0 };
      for (const e of events.filter((x) => x.event === "bytes")) {
        const b = JSON.parse(e.data) as {
          stream: "stdout" | "stderr";
          offset: number;
          text: string;
        };
        expect(b.offset).toBe(at[b.stream]); // no gap, no repeat
        const bytes = Buffer.from(b.text);
        got[b.stream].push(bytes);
        at[b.stream] += bytes.length;
        expect(e.id).toBe(`stdout:${at.stdout},stderr:${at.stderr}`);
      }
      const last = events.at(-1);
      expect(last?.event).toBe("receipt");
      const ended = JSON.parse(last?.data ?? "{}");
      expect(ended.condition).toBe("final");
      expect(ended.receipt.capture.state).toBe("complete");
      for (const s of ["stdout", "stderr"] as const) {
        const all = Buffer.concat(got[s]);
        expect(all.length).toBe(final.streams[s].committed);
        expect(createHash("sha256").update(all).digest("hex")).toBe(final.streams[s].sha256);
      }
      expect(events.filter((x) => x.event === "state").length).toBeGreaterThan(1);
    }
  });

  it("a follow cut at the transfer cap resumes from Last-Event-ID with nothing lost or repeated", async () => {
    const small = await serveInProcess(root, { maxTransfer: 300 * 1024 });
    try {
      const done = runJson(
        root,
        nodeCmd(`process.stdout.write("0123456789abcdef\\n".repeat(65536))`),
        NO_QUOTA,
      );
      const id = done.receipt.captureId;
      const h = bearer(small.rootToken);
      const parts: Buffer[] = [];
      let lastId: string | null = null;
      for (let round = 0; round < 10; round++) {
        const { events } = await followEvents(
          small.url,
          `/api/v1/captures/${id}/events?stream=stdout`,
          lastId ? { ...h, "last-event-id": lastId } : h,
        );
        for (const e of events) {
          if (e.event === "bytes") parts.push(Buffer.from(JSON.parse(e.data).text));
          if (e.id) lastId = e.id;
        }
        if (events.at(-1)?.event === "receipt") break;
        expect(events.at(-1)?.event).toBe("cut");
      }
      const all = Buffer.concat(parts);
      expect(all.length).toBe(17 * 65536);
      expect(createHash("sha256").update(all).digest("hex")).toBe(
        done.receipt.streams.stdout.sha256,
      );
    } finally {
      await small.close();
    }
  });

  it("200 concurrent range readers and 20 followers while a job writes: no errors", async () => {
    const go = path.join(root, `go-load-${Date.now()}`);
    const launched = start(writer(go, 4 * 1024 * 1024));
    const id = launched.captureId;
    const h = bearer(server.rootToken);
    const followers = Array.from({ length: 20 }, () =>
      followEvents(server.url, `/api/v1/captures/${id}/events?stream=stdout`, h),
    );
    fs.writeFileSync(go, ""); // the second half is written while the readers read
    const readers = Array.from({ length: 200 }, (_, i) =>
      rawGet(server.url, `/api/v1/captures/${id}/streams/stdout`, {
        ...h,
        range: `bytes=${i * 1024}-${i * 1024 + 65535}`,
      }),
    );
    const reads = await Promise.all(readers);
    for (const r of reads) expect([206, 416]).toContain(r.status);
    const follows = await Promise.all(followers);
    const final = JSON.parse(spool(["status", "--root", root, id]).stdout.toString()) as Receipt;
    for (const f of follows) {
      const bytes = f.events
        .filter((e) => e.event === "bytes")
        .reduce((n, e) => n + Buffer.byteLength(JSON.parse(e.data).text), 0);
      expect(bytes).toBe(final.streams.stdout.committed);
      expect(f.events.at(-1)?.event).toBe("receipt");
    }
    const file = fs.readFileSync(path.join(root, final.streams.stdout.ref ?? ""));
    for (const [i, r] of reads.entries()) {
      if (r.status === 206)
        expect(r.body.equals(file.subarray(i * 1024, i * 1024 + r.body.length))).toBe(true);
    }
  }, 240_000);
});
