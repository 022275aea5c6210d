/**
 * `spool serve` held to what docs/serve.md says, against the third adversarial round:
 * range numbers read exactly (past 2^53 is 416, never the whole stream), one selector per
 * read (a Range with a query selector is refused), a `Last-Event-ID` that is not ours is
 * refused, an SSE resume inside a character starts at that character (no invented U+FFFD),
 * a slowloris client is cut at the header timeout (not at Node's 30 s check), the grep
 * speaks RE2 like `spool grep` (same refusals, same message), a `--binary keep` line of
 * invalid UTF-8 is matched, and the access log records requests and never a secret.
 */
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeCmd, runJson, spool, spoolAsync, tempRoot } from "./helpers.js";
import {
  type AccessEntry,
  bearer,
  followEvents,
  type InProcessServer,
  rawGet,
  serveBinary,
  serveInProcess,
} from "./serve-helpers.js";

// Every UTF-8 length: a, é (2), € (3), 😀 (4), then a second line.
const TEXT = "aé€😀b\nline two é\n";
// Raw bytes, kept as they are (`--binary keep`): invalid UTF-8 around and before matches.
const BINARY = Buffer.concat([
  Buffer.from([0xff, 0xfe, 0xfd, 0xfc, 0xfb, 0xfa]),
  Buffer.from(" error one\nok\n"),
  Buffer.from([0xc3, 0x28, 0x80]),
  Buffer.from(" error two "),
  Buffer.from([0xa0, 0xa1, 0xff]),
  Buffer.from("\n"),
]);

describe("spool serve: hardening", () => {
  const root = tempRoot();
  // --preview-stdout 0: stored even this small (else it lives only in its preview).
  const text = runJson(root, nodeCmd(`process.stdout.write(${JSON.stringify(TEXT)})`), [
    "--preview-stdout",
    "0",
  ]);
  const binary = runJson(
    root,
    nodeCmd(`process.stdout.write(Buffer.from(${JSON.stringify(BINARY.toString("hex"))}, "hex"))`),
    ["--binary", "keep"],
  );
  const entries: AccessEntry[] = [];
  let server: InProcessServer;
  let h: Record<string, string>;
  const url = (id: string, q = "") => `/api/v1/captures/${id}/streams/stdout${q}`;
  const bytes = Buffer.from(TEXT);

  beforeAll(async () => {
    // No test here is about the grep's time limit: a worker that starts slowly on a loaded
    // machine (the suite's other files) must not cut a scan to no matches.
    server = await serveInProcess(root, { accessLog: (e) => entries.push(e), grepMs: 60_000 });
    h = bearer(server.rootToken);
  });
  afterAll(async () => {
    await server.close();
  });

  it("stored the captures as expected", () => {
    expect(text.receipt.streams.stdout).toMatchObject({ committed: bytes.length });
    expect(text.receipt.streams.stdout.ref).not.toBeNull();
    expect(binary.receipt.streams.stdout).toMatchObject({ representation: "binary" });
    expect(spool(["read", "--root", root, binary.receipt.captureId]).stdout.equals(BINARY)).toBe(
      true,
    );
  });

  it("a Range number past 2^53 is read exactly: 416 for a start, the stream's end for an end", async () => {
    const id = text.receipt.captureId;
    for (const n of ["9007199254740992", "9007199254740993", "99999999999999999999"]) {
      const r = await rawGet(server.url, url(id), { ...h, range: `bytes=${n}-` });
      expect(r.status, n).toBe(416);
      expect(r.headers["content-range"]).toBe(`bytes */${bytes.length}`);
      const whole = await rawGet(server.url, url(id), { ...h, range: `bytes=0-${n}` });
      expect(whole.status).toBe(206);
      expect(whole.body.equals(bytes)).toBe(true);
    }
    const overlong = await rawGet(server.url, url(id), { ...h, range: `bytes=${"1".repeat(65)}-` });
    expect(overlong.status).toBe(416);
    expect(JSON.parse(overlong.body.toString()).error.message).toMatch(/at most 64 digits/);
  });

  it("a Range with ?offset, ?lines, ?cursor or ?length is refused 400, one line", async () => {
    const id = text.receipt.captureId;
    for (const q of ["?offset=2", "?lines=1:1", "?cursor=web", "?length=3", "?offset=0&length=1"]) {
      const r = await rawGet(server.url, url(id, q), { ...h, range: "bytes=0-3" });
      expect(r.status, q).toBe(400);
      const { error } = JSON.parse(r.body.toString());
      expect(error.code).toBe("SPOOL_E_USAGE");
      expect(error.message).toBe("one selector at a time: Range, offset, lines or cursor");
    }
    // Each alone is still answered.
    expect((await rawGet(server.url, url(id, "?offset=1"), h)).status).toBe(200);
    expect((await rawGet(server.url, url(id), { ...h, range: "bytes=0-3" })).status).toBe(206);
  });

  it("a Last-Event-ID that is not an id of this server is refused 400; one that is resumes", async () => {
    const id = text.receipt.captureId;
    const events = `/api/v1/captures/${id}/events?stream=stdout`;
    const bad = ["garbage", "stdout:1", "stdout:1,stderr:x", "stdout:1,stderr:2,x", ""];
    bad.push("stdout:99999999999999999999,stderr:0");
    for (const lastId of bad) {
      const r = await rawGet(server.url, events, { ...h, "last-event-id": lastId });
      expect(r.status, lastId).toBe(400);
      expect(JSON.parse(r.body.toString()).error.message).toMatch(/Last-Event-ID/);
    }
    const from = TEXT.indexOf("\n") + 1;
    const resumed = await followEvents(server.url, events, {
      ...h,
      "last-event-id": `stdout:${Buffer.byteLength(TEXT.slice(0, from))},stderr:0`,
    });
    expect(resumed.status).toBe(200);
    expect(followedText(resumed.events)).toBe(TEXT.slice(from));
  });

  it("an SSE resume inside a character starts at that character, never with an invented U+FFFD", async () => {
    const id = text.receipt.captureId;
    for (let offset = 0; offset <= bytes.length; offset++) {
      let start = Math.min(offset, bytes.length);
      while (start > 0 && start < bytes.length && ((bytes[start] as number) & 0xc0) === 0x80) {
        start--;
      }
      const expected = bytes.subarray(start).toString("utf8");
      for (const how of ["query", "last-event-id"]) {
        const target = `/api/v1/captures/${id}/events?stream=stdout${how === "query" ? `&stdout=${offset}` : ""}`;
        const headers =
          how === "query" ? h : { ...h, "last-event-id": `stdout:${offset},stderr:0` };
        const { events } = await followEvents(server.url, target, headers);
        const got = followedText(events);
        expect(got, `${how} ${offset}`).toBe(expected);
        expect(got).not.toContain("\uFFFD");
        const first = events.find((e) => e.event === "bytes");
        if (first) expect(JSON.parse(first.data).offset).toBe(start);
      }
    }
  });

  it("the grep refuses what spool grep refuses, with its message; RE2 decides a backtracking pattern", async () => {
    const id = text.receipt.captureId;
    for (const pattern of ["(?=a)b", "(?<=a)b", "(a)\\1", "a(?!b)", "("]) {
      const r = await rawGet(
        server.url,
        url(id, `/grep?pattern=${encodeURIComponent(pattern)}`),
        h,
      );
      expect(r.status, pattern).toBe(400);
      const cli = spool(["grep", "--root", root, id, pattern]);
      expect(cli.status).toBe(64);
      const { error } = JSON.parse(r.body.toString());
      expect(error.code).toBe("SPOOL_E_USAGE");
      expect(`spool grep: ${error.message}\n`).toBe(cli.stderr);
    }
    const ok = await rawGet(
      server.url,
      url(id, `/grep?pattern=${encodeURIComponent("(é+)+$")}`),
      h,
    );
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body.toString()).matches).toMatchObject([{ line: 2 }]);
  });

  it("a --binary keep line of invalid UTF-8 is matched, at exact byte offsets, as spool grep matches it", async () => {
    const id = binary.receipt.captureId;
    const second = BINARY.indexOf("ok\n") + 3;
    for (const [pattern, only, want] of [
      ["error", false, [0, second]],
      ["error \\w+", true, [BINARY.indexOf("error one"), BINARY.indexOf("error two")]],
      ["\\xff", true, [0, BINARY.lastIndexOf(0xff)]],
      ["two \\xa0", true, [BINARY.indexOf("two")]],
    ] as const) {
      const q = `/grep?pattern=${encodeURIComponent(pattern)}${only ? "&o=1" : ""}`;
      const r = await rawGet(server.url, url(id, q), h);
      expect(r.status).toBe(200);
      const { matches, cut } = JSON.parse(r.body.toString());
      expect(cut, pattern).toBeNull();
      expect(
        matches.map((m: { offset: number }) => m.offset),
        pattern,
      ).toEqual(want);
      const cli = spool(["grep", "--root", root, id, pattern, "--json", ...(only ? ["-o"] : [])]);
      expect(cli.status, cli.stderr).toBe(0);
      const cliMatches = cli.stdout
        .toString()
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(matches).toEqual(cliMatches);
    }
  });

  it("logs one entry per request, the answer's status and body bytes included", async () => {
    const id = text.receipt.captureId;
    const targets = [url(id, "?offset=0&length=5"), url(id, "?lines=2:2"), "/api/v1/%2e%2e/x"];
    const r = await rawGet(server.url, targets[0] as string, h);
    const denied = await rawGet(server.url, targets[1] as string, {});
    const refused = await rawGet(server.url, targets[2] as string, h);
    // Earlier tests' entries may still be coming: these three are this test's own.
    const ours = () => entries.filter((e) => targets.includes(e.target));
    await until(() => ours().length >= 3);
    expect(ours().map((e) => [e.method, e.target, e.status, e.bytes, e.complete])).toEqual([
      ["GET", targets[0], 200, r.body.length, true],
      ["GET", targets[1], 401, denied.body.length, true],
      ["GET", targets[2], 400, refused.body.length, true],
    ]);
    expect(r.body.length).toBe(3); // "aé": the € at 3 would be split at 5
    for (const e of ours()) expect(e.ms).toBeGreaterThanOrEqual(0);
  });
});

describe("spool serve: slow clients", () => {
  it("a client trickling its headers is cut at the header timeout (408), not when Node's 30 s check comes", async () => {
    const server = await serveInProcess(tempRoot(), { timeouts: { headersMs: 300, checkMs: 50 } });
    try {
      const socket = net.connect(server.port, "127.0.0.1");
      const got: Buffer[] = [];
      socket.on("data", (c: Buffer) => got.push(c));
      const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
      socket.on("error", () => {});
      await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
      socket.write(`GET /api/v1/captures HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nX-Slow: `);
      // One byte every 100 ms for 4 s (13 times the timeout), unless the server cuts first.
      let sentAll = false;
      let gone = false;
      void closed.then(() => {
        gone = true;
      });
      for (let i = 0; i < 40 && !gone; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        if (!gone) socket.write("x");
      }
      if (!gone) {
        sentAll = true;
        socket.write("\r\nConnection: close\r\n\r\n");
      }
      await closed;
      expect(sentAll).toBe(false);
      expect(Buffer.concat(got).toString()).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      await server.close();
    }
  });
});

describe("spool serve --access-log", () => {
  it("FILE is created 0600 and holds one line per request, never the token, a cookie or a query value", async () => {
    const root = tempRoot();
    const run = runJson(root, nodeCmd(`process.stdout.write("secret-free text\\n")`), [
      "--preview-stdout",
      "0",
    ]);
    const log = path.join(root, "access.log");
    const served = await serveBinary(["--root", root, "--access-log", log]);
    const token = fs.readFileSync(String(served.start.tokenFile), "utf8").trim();
    const base = String(served.start.url);
    const target = `/api/v1/captures/${run.receipt.captureId}/streams/stdout/grep?pattern=hunter2value`;
    try {
      expect(fs.statSync(log).mode & 0o777).toBe(0o600);
      const headers = { ...bearer(token), cookie: "session=cookievalue" };
      expect((await rawGet(base, target, headers)).status).toBe(200);
      expect(
        (await rawGet(base, "/api/v1/captures", { cookie: "session=cookievalue" })).status,
      ).toBe(401);
    } finally {
      expect(await served.stop()).toBe(0);
    }
    const text = fs.readFileSync(log, "utf8");
    const lines = text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toMatchObject([
      {
        method: "GET",
        path: target.slice(0, target.indexOf("?")),
        query: ["pattern"],
        status: 200,
      },
      { method: "GET", path: "/api/v1/captures", query: [], status: 401 },
    ]);
    for (const secret of [token, token.slice(-12), "cookievalue", "hunter2value", "Bearer"]) {
      expect(text).not.toContain(secret);
    }
    // A second server appends to the private file it left.
    const again = await serveBinary(["--root", root, "--access-log", log]);
    await rawGet(String(again.start.url), "/api/v1/captures", {});
    expect(await again.stop()).toBe(0);
    expect(fs.readFileSync(log, "utf8").trim().split("\n")).toHaveLength(3);
    // One that others may read is refused before anything listens.
    fs.chmodSync(log, 0o644);
    const refused = await spoolAsync(["serve", "--root", root, "--access-log", log]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toMatch(/--access-log must be/);
  });
});

/** The text of a follow's `bytes` events, in order. */
function followedText(events: readonly { event: string; data: string }[]): string {
  return events
    .filter((e) => e.event === "bytes")
    .map((e) => JSON.parse(e.data).text as string)
    .join("");
}

/** Wait for `ready` (each answer's log entry is written when its connection says it is done). */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setImmediate(resolve));
}
