/**
 * SSE heartbeats of `spool serve`: a follow of a quiet job gets a comment line each time
 * the heartbeat interval passes without an event, on a manual clock (no sleeping for it),
 * loses no byte and no event to them, and leaves no timer behind once it ends.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import * as path from "node:path";
import type { Receipt } from "@spool/core";
import { createManualClock } from "@spool/core/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { killGroups, nodeCmd, spool, tempRoot } from "./helpers.js";
import {
  bearer,
  followEvents,
  type InProcessServer,
  type SseEvent,
  serveBinary,
  serveInProcess,
} from "./serve-helpers.js";

const leftovers: number[] = [];
afterAll(() => killGroups(leftovers));
const WAIT = { timeout: 60_000, interval: 20 };
let quietJobs = 0;

/**
 * A job under `root` that prints `hello`, is quiet until `release()` (a file it polls for
 * appears), then prints `bye` and exits.
 */
function startQuietJob(root: string): { launched: Receipt; release: () => void } {
  const go = path.join(root, `go-${++quietJobs}`);
  const script = `const fs = require("fs"); process.stdout.write("hello\\n");
const t = setInterval(() => { if (fs.existsSync(${JSON.stringify(go)})) { clearInterval(t); process.stdout.write("bye\\n"); } }, 10);`;
  const r = spool(["start", "--root", root, "--", ...nodeCmd(script)]);
  expect(r.status, r.stderr).toBe(0);
  const launched = JSON.parse(r.stdout.toString()) as Receipt;
  if (launched.process.pid) leftovers.push(launched.process.pid);
  return { launched, release: () => fs.writeFileSync(go, "") };
}

describe("spool serve: SSE heartbeat", () => {
  const root = tempRoot();
  const clock = createManualClock(0);
  let server: InProcessServer;
  beforeAll(async () => {
    server = await serveInProcess(root, { heartbeatMs: 15_000, clock });
  });
  afterAll(async () => {
    await server.close();
  });

  it("a quiet follow gets `: heartbeat` every interval, then every byte and the receipt", async () => {
    const { launched, release } = startQuietJob(root);
    const seen: SseEvent[] = [];
    const text = () =>
      seen
        .filter((e) => e.event === "bytes")
        .map((e) => JSON.parse(e.data).text)
        .join("");
    const beats = () => seen.filter((e) => e.event === ":").length;
    const done = followEvents(
      server.url,
      `/api/v1/captures/${launched.captureId}/events?stream=stdout`,
      bearer(server.rootToken),
      (e) => seen.push(e),
    );
    await vi.waitFor(() => expect(text()).toBe("hello\n"), WAIT);
    // The follow waits for the next state with one heartbeat timer armed.
    await vi.waitFor(() => expect(clock.pending).toBe(1), WAIT);
    expect(beats()).toBe(0);
    clock.advance(15_000);
    await vi.waitFor(() => expect(beats()).toBe(1), WAIT);
    await vi.waitFor(() => expect(clock.pending).toBe(1), WAIT);
    clock.advance(14_999);
    expect(clock.pending).toBe(1); // not yet due
    clock.advance(1);
    await vi.waitFor(() => expect(beats()).toBe(2), WAIT);

    release();
    const { status, events } = await done;
    expect(status).toBe(200);
    const heartbeats = events.filter((e) => e.event === ":");
    expect(heartbeats.every((e) => e.data === "heartbeat" && e.id === null)).toBe(true);
    expect(heartbeats.length).toBeGreaterThanOrEqual(2);
    expect(text()).toBe("hello\nbye\n");
    expect(events.at(-1)?.event).toBe("receipt");
    expect(clock.pending).toBe(0); // the ended follow cancelled its timer
  }, 120_000);

  it("a reader that leaves a quiet follow leaves no heartbeat timer behind", async () => {
    const { launched, release } = startQuietJob(root);
    const u = new URL(server.url);
    const req = http.get({
      host: u.hostname,
      port: u.port,
      path: `/api/v1/captures/${launched.captureId}/events`,
      headers: bearer(server.rootToken),
    });
    req.on("error", () => {});
    let text = "";
    req.on("response", (res) => res.on("data", (c: Buffer) => (text += c.toString())));
    await vi.waitFor(() => expect(text).toContain("hello\\n"), WAIT);
    await vi.waitFor(() => expect(clock.pending).toBe(1), WAIT);
    req.destroy();
    await vi.waitFor(() => expect(clock.pending).toBe(0), WAIT);
    release();
  }, 120_000);
});

describe("spool serve --heartbeat S (the binary)", () => {
  it("sets the quiet time: a quiet follow gets heartbeats, then its bytes and receipt", async () => {
    const root = tempRoot();
    const { launched, release } = startQuietJob(root);
    // The real clock: at the default (15 s) no heartbeat would come before the wait ends.
    const served = await serveBinary(["--root", root, "--heartbeat", "1"]);
    try {
      const token = fs.readFileSync(path.join(root, "serve.token"), "utf8").trim();
      const seen: SseEvent[] = [];
      const done = followEvents(
        served.start.url as string,
        `/api/v1/captures/${launched.captureId}/events?stream=stdout`,
        bearer(token),
        (e) => seen.push(e),
      );
      await vi.waitFor(() => expect(seen.filter((e) => e.event === ":").length).toBe(2), {
        timeout: 14_000,
        interval: 20,
      });
      release();
      const { events } = await done;
      const text = events.filter((e) => e.event === "bytes").map((e) => JSON.parse(e.data).text);
      expect(text.join("")).toBe("hello\nbye\n");
      expect(events.at(-1)?.event).toBe("receipt");
    } finally {
      await served.stop();
    }
  }, 120_000);
});
