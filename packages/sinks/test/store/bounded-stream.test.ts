import { isUtf8 } from "node:buffer";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { StoredCapture, StoredStream } from "@spool/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createFileStore } from "../../src/store/file-store.js";

const ID = "AAAAAAAAAAAAAAAAAAAAAAAA";

/**
 * A file store whose one capture holds `text` as stdout, of which `committed` bytes are
 * advertised, opened for reading (the file store's reader: real files, `O_NOFOLLOW`).
 */
async function fakeStream(
  text: Buffer,
  committed: number,
): Promise<StoredStream & { root: string }> {
  const root = fs.mkdtempSync(path.join(tmpdir(), "spool-read-"));
  const dir = path.join(root, "tool-outputs", ID);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(dir, "stdout.live"), text);
  const stream = {
    representation: "utf8",
    committed,
    retained: { start: 0, end: committed },
    ref: `tool-outputs/${ID}/stdout.live`,
  };
  const state = {
    captureId: ID,
    condition: "live",
    owner: null,
    job: null,
    receipt: { captureId: ID, streams: { stdout: stream, stderr: { ...stream, committed: 0 } } },
  } as unknown as StoredCapture;
  const opened = await createFileStore({ root }).openStream(state, "stdout");
  return Object.assign(opened, { root });
}

const TEXT = Buffer.from("aé€😀\n".repeat(40));

describe("committed reads", () => {
  it("never split a character, never pass committed, and reassemble exactly with any lengths", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: TEXT.length }),
        fc.array(fc.integer({ min: 1, max: 13 }), { minLength: 1, maxLength: 60 }),
        async (committed, lengths) => {
          const reader = await fakeStream(TEXT, committed);
          const parts: Buffer[] = [];
          let offset = 0;
          try {
            for (let i = 0; i < 400; i++) {
              const slice = await reader.read(offset, lengths[i % lengths.length]!);
              expect(slice.offset).toBe(offset);
              expect(slice.nextOffset).toBeLessThanOrEqual(committed);
              expect(isUtf8(slice.bytes)).toBe(true);
              if (slice.bytes.length === 0) break;
              parts.push(slice.bytes);
              offset = slice.nextOffset;
            }
          } finally {
            await reader.close();
            fs.rmSync(reader.root, { recursive: true });
          }
          const got = Buffer.concat(parts);
          // Everything up to the last whole character within committed, byte for byte.
          expect(TEXT.subarray(0, got.length).equals(got)).toBe(true);
          expect(committed - got.length).toBeLessThan(4);
          // What is left is the start of a character not yet whole within committed.
          if (got.length < committed)
            expect(isUtf8(TEXT.subarray(got.length, committed))).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("moves an offset inside a character back to its start", async () => {
    const reader = await fakeStream(TEXT, TEXT.length);
    try {
      // Each line is 11 bytes: "a" 1, "é" 2, "€" 3, "😀" 4, "\n" 1; byte 2 is inside "é".
      expect(await reader.read(2, 2)).toMatchObject({ offset: 1, nextOffset: 3 });
      // Less than one character asked for: that whole character.
      expect(await reader.read(6, 1)).toMatchObject({ offset: 6, nextOffset: 10 });
      expect(await reader.tailStart(2)).toBe(TEXT.length - 2 * 11);
      expect(await reader.lineRange(3, 4)).toEqual({ start: 22, end: 44 });
      // Chunks never pass committed, whatever range is asked for.
      const all: Buffer[] = [];
      for await (const chunk of reader.chunks(0, TEXT.length * 2)) all.push(chunk);
      expect(Buffer.concat(all).equals(TEXT)).toBe(true);
    } finally {
      await reader.close();
      fs.rmSync(reader.root, { recursive: true });
    }
  });

  it("readInto gives the raw bytes below committed through any buffer size, reused", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: TEXT.length }),
        fc.integer({ min: 0, max: TEXT.length + 5 }),
        fc.integer({ min: 1, max: 50 }),
        async (committed, from, size) => {
          const reader = await fakeStream(TEXT, committed);
          try {
            const buf = Buffer.alloc(size);
            const parts: Buffer[] = [];
            for (let at = from, i = 0; i < 1000; i++) {
              const n = await reader.readInto(at, buf);
              if (n === 0) break;
              parts.push(Buffer.from(buf.subarray(0, n)));
              at += n;
            }
            expect(
              Buffer.concat(parts).equals(TEXT.subarray(Math.min(from, committed), committed)),
            ).toBe(true);
          } finally {
            await reader.close();
            fs.rmSync(reader.root, { recursive: true });
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("chunks read ahead across READ_CHUNK and stop early without a read after close", async () => {
    // 2.5 MiB: three chunks of at most 1 MiB, the next read in flight while one is consumed.
    const big = Buffer.alloc(2.5 * 1024 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = 97 + ((i * 7) % 26);
    const reader = await fakeStream(big, big.length);
    try {
      const all: Buffer[] = [];
      for await (const chunk of reader.chunks(3, big.length)) all.push(chunk);
      expect(all.map((c) => c.length)).toEqual([
        1024 * 1024,
        1024 * 1024,
        big.length - 3 - 2 * 1024 * 1024,
      ]);
      expect(Buffer.concat(all).equals(big.subarray(3))).toBe(true);
      // Stop after the first chunk (a read of the second is in flight), then close: the
      // close waits for that read, and the stream gives nothing more.
      for await (const chunk of reader.chunks(0, big.length)) {
        expect(chunk.equals(big.subarray(0, 1024 * 1024))).toBe(true);
        break;
      }
      await reader.close();
      expect(await reader.readInto(0, Buffer.alloc(8))).toBe(0);
      const after: Buffer[] = [];
      for await (const chunk of reader.chunks(0, big.length)) after.push(chunk);
      expect(after).toEqual([]);
    } finally {
      await reader.close();
      fs.rmSync(reader.root, { recursive: true });
    }
  });
});
