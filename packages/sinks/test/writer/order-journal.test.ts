import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nodeFs } from "../../src/file/fs-layer.js";
import {
  appendOrder,
  closeOrder,
  createOrderFile,
  createOrderJournal,
  ORDER_JOURNAL,
  orderEntries,
} from "../../src/writer/order-journal.js";

/** Replay offers ([stream, bytes]…) into a journal, taking its entries now and then. */
function replay(offers: [0 | 1, number][], takeEvery: number, max?: number) {
  const journal = createOrderJournal(max);
  const offered = [0, 0];
  const taken: Uint8Array[] = [];
  offers.forEach(([stream, bytes], i) => {
    journal.note(stream, offered[stream]!, bytes);
    offered[stream]! += bytes;
    if (i % takeEvery === 0) taken.push(journal.take() ?? new Uint8Array(0));
  });
  taken.push(journal.take() ?? new Uint8Array(0));
  return { entries: orderEntries(Buffer.concat(taken)), full: journal.full };
}

/** The switches computed the slow way: where each run of one stream starts. */
function expected(offers: [0 | 1, number][]): [0 | 1, number][] {
  const out: [0 | 1, number][] = [];
  const offered = [0, 0];
  let last: number | null = null;
  for (const [stream, bytes] of offers) {
    if (bytes > 0 && stream !== last) {
      out.push([stream, offered[stream]!]);
      last = stream;
    }
    offered[stream]! += bytes;
  }
  return out;
}

const offers = fc.array(fc.tuple(fc.constantFrom<0 | 1>(0, 1), fc.nat({ max: 5000 })), {
  maxLength: 200,
});

describe("the stream-switch journal (order.jnl)", () => {
  it("records where each run of a stream starts, however its entries are taken", () => {
    fc.assert(
      fc.property(offers, fc.integer({ min: 1, max: 20 }), (list, every) => {
        expect(replay(list, every).entries).toEqual(expected(list));
      }),
    );
  });

  it("stops at its bound and says so", () => {
    const list: [0 | 1, number][] = Array.from({ length: 10 }, (_, i) => [(i % 2) as 0 | 1, 3]);
    const { entries, full } = replay(list, 3, 4);
    expect(entries).toEqual(expected(list).slice(0, 4));
    expect(full).toBe(true);
    expect(replay(list, 3, 10).full).toBe(true);
    expect(replay(list, 3, 11).full).toBe(false);
  });

  it("keeps offsets past 2^32 exact", () => {
    const journal = createOrderJournal();
    journal.note(1, 0, 1);
    journal.note(0, 2 ** 40 + 7, 1);
    expect(orderEntries(journal.take()!)).toEqual([
      [1, 0],
      [0, 2 ** 40 + 7],
    ]);
    expect(journal.take()).toBeNull();
  });

  it("is appended to a private file created once, and a torn last entry is left out", () => {
    const dir = fs.mkdtempSync(path.join(tmpdir(), "spool-order-"));
    const file = createOrderFile();
    const a = createOrderJournal();
    a.note(0, 0, 1);
    a.note(1, 0, 1);
    appendOrder(file, dir, a.take()!, nodeFs);
    a.note(0, 1, 1);
    appendOrder(file, dir, a.take()!, nodeFs);
    closeOrder(file, nodeFs);
    const written = path.join(dir, ORDER_JOURNAL);
    expect(fs.statSync(written).mode & 0o777).toBe(0o600);
    const bytes = fs.readFileSync(written);
    expect(orderEntries(bytes)).toEqual([
      [0, 0],
      [1, 0],
      [0, 1],
    ]);
    expect(orderEntries(bytes.subarray(0, 20))).toEqual([
      [0, 0],
      [1, 0],
    ]);
  });

  it("stops, without throwing, when its file cannot be made (a link in its place)", () => {
    const dir = fs.mkdtempSync(path.join(tmpdir(), "spool-order-"));
    fs.symlinkSync("/etc/passwd", path.join(dir, ORDER_JOURNAL));
    const file = createOrderFile();
    appendOrder(file, dir, new Uint8Array(8), nodeFs);
    expect(file.failed).toBe(true);
    expect(fs.readlinkSync(path.join(dir, ORDER_JOURNAL))).toBe("/etc/passwd");
  });
});
