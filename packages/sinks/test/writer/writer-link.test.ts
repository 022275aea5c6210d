import { MessageChannel, type MessagePort } from "node:worker_threads";
import { createManualClock } from "@spool/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import type { FromWriter, ToWriter } from "../../src/writer/protocol.js";
import { createWriterLink } from "../../src/writer/writer-link.js";

/** A writer end that records requests and answers only when told to. */
function fakeWriter(port: MessagePort) {
  const received: ToWriter[] = [];
  port.on("message", (m: ToWriter) => received.push(m));
  return {
    received,
    reply: (m: FromWriter) => port.postMessage(m),
    next: () =>
      new Promise<ToWriter>((resolve) => {
        port.once("message", resolve);
      }),
  };
}

const ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports.splice(0)) p.close();
});

function setup(timeoutMs = 1000) {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  const clock = createManualClock();
  const streamReplies: FromWriter[] = [];
  const link = createWriterLink(port1, {
    timeoutMs,
    clock,
    onStream: (r) => streamReplies.push(r),
  });
  return { link, clock, writer: fakeWriter(port2), streamReplies };
}

describe("writer link", () => {
  it("a reply wakes the one request it names, whatever order replies come in", async () => {
    const { link, writer } = setup();
    const live = link.request({ op: "live", json: "{}\n" });
    const finish = link.request({ op: "finish", finalNames: ["stdout.txt", "stderr.txt"] });
    const receipt = link.request({ op: "receipt", json: "{}\n" });
    while (writer.received.length < 3) await writer.next();
    const [a, b, c] = writer.received.map((m) => m.id);
    expect(new Set([a, b, c]).size).toBe(3);
    // A failure for the receipt must not be taken for the finish (or the live).
    writer.reply({ op: "failed", re: c!, stage: "receipt", code: "EIO", message: "x" });
    writer.reply({ op: "live-replaced", re: a!, ok: true });
    writer.reply({ op: "finished", re: b!, streams: [] as never });
    expect(await receipt).toMatchObject({ op: "failed", re: c });
    expect(await live).toEqual({ op: "live-replaced", re: a, ok: true });
    expect(await finish).toMatchObject({ op: "finished", re: b });
    expect(link.stuck).toBe(false);
  });

  it("one timeout: a silent writer answers every waiting and later request null, at once", async () => {
    const { link, clock, writer } = setup(1000);
    const live = link.request({ op: "live", json: "{}\n" });
    await writer.next();
    clock.advance(500);
    const finish = link.request({ op: "finish", finalNames: ["stdout.txt", "stderr.txt"] });
    clock.advance(500); // the first request's timeout: the writer is stuck
    expect(await live).toBeNull();
    expect(await finish).toBeNull();
    expect(link.stuck).toBe(true);
    expect(await link.request({ op: "receipt", json: "{}\n" })).toBeNull();
    expect(await link.bounded(new Promise(() => {}))).toBeNull();
  });

  it("a writer that went away fails every waiting and later request", async () => {
    const { link, writer } = setup();
    const open = link.request({ op: "live", json: "{}\n" });
    await writer.next();
    link.gone("EWORKER", "writer task failed");
    expect(await open).toMatchObject({ op: "failed", code: "EWORKER" });
    expect(await link.request({ op: "receipt", json: "{}\n" })).toMatchObject({
      op: "failed",
      code: "EWORKER",
    });
    expect(link.stuck).toBe(false);
  });

  it("write replies go to the stream handler, each naming its write", async () => {
    const { link, writer, streamReplies } = setup();
    link.post({ op: "write", stream: 0, data: new Uint8Array(3) });
    const write = await writer.next();
    const buffer = new ArrayBuffer(3);
    writer.reply({ op: "ack", re: write.id, stream: 0, committed: 3, buffer });
    while (streamReplies.length === 0) await new Promise((r) => setImmediate(r));
    expect(streamReplies[0]).toMatchObject({ op: "ack", re: write.id, committed: 3 });
  });
});
