import { runStage } from "@spool/core";
import { createUtf8Decoder } from "@spool/transforms";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/** What a whole-input decode gives: WHATWG replacement, re-encoded as UTF-8 bytes. */
const reference = (bytes: Uint8Array) =>
  Buffer.from(new TextDecoder("utf-8").decode(bytes), "utf8");

/** Split `bytes` at the given cut points. */
const split = (bytes: Uint8Array, cuts: number[]) => {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let prev = 0;
  for (const p of [...points, bytes.length]) {
    chunks.push(bytes.subarray(prev, p));
    prev = p;
  }
  return chunks;
};

// Bytes that exercise every branch: ASCII, valid multi-byte, lone continuations,
// overlong leads, surrogates, truncated sequences and values past U+10FFFF.
const interesting = fc.oneof(
  fc.integer({ min: 0, max: 255 }).map((b) => [b]),
  fc.constantFrom(
    [0xe6, 0x97, 0xa5],
    [0xf0, 0x9f, 0x98, 0x80],
    [0xc3, 0xa9],
    [0xed, 0xa0, 0x80],
    [0xf4, 0x90, 0x80, 0x80],
  ),
  fc.constantFrom(
    [0xe0, 0x80],
    [0xf0, 0x80],
    [0xc0, 0xaf],
    [0xe6, 0x97],
    [0xf0, 0x9f, 0x98],
    [0xff],
    [0x80, 0x80],
  ),
);
const bytesArb = fc
  .array(interesting, { maxLength: 60 })
  .map((parts) => Uint8Array.from(parts.flat()));

describe("utf8 decoder", () => {
  it("equals a whole-input TextDecoder for every random chunking (property)", () => {
    fc.assert(
      fc.property(bytesArb, fc.array(fc.nat(), { maxLength: 12 }), (bytes, cuts) => {
        const out = runStage(createUtf8Decoder(), split(bytes, cuts));
        expect(out.equals(reference(bytes))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("counts one replacement per U+FFFD the whole-input decode makes", () => {
    fc.assert(
      fc.property(bytesArb, fc.array(fc.nat(), { maxLength: 8 }), (bytes, cuts) => {
        const decoder = createUtf8Decoder();
        runStage(decoder, split(bytes, cuts));
        const expected = [...new TextDecoder().decode(bytes)].filter((c) => c === "\ufffd").length;
        expect(decoder.counters.replacements).toBe(expected - countLiteralFffd(bytes));
      }),
      { numRuns: 1000 },
    );
  });

  it("keeps 日本語テスト intact when split at every byte, and byte-at-a-time", () => {
    const text = Buffer.from("日本語テスト");
    for (let cut = 0; cut <= text.length; cut++) {
      expect(
        runStage(createUtf8Decoder(), [text.subarray(0, cut), text.subarray(cut)]).toString(),
      ).toBe("日本語テスト");
    }
    const bytewise = [...text].map((b) => Uint8Array.of(b));
    const decoder = createUtf8Decoder();
    expect(runStage(decoder, bytewise).toString()).toBe("日本語テスト");
    expect(decoder.counters.replacements).toBe(0);
  });

  it("passes valid chunks through without copying", () => {
    const chunk = Buffer.from("plain ascii and ünïcödé\n");
    const out = createUtf8Decoder().push([chunk]);
    expect(out).toHaveLength(1);
    expect(out[0]!.buffer).toBe(chunk.buffer);
  });

  it("never holds more than 3 bytes, and flushes a truncated tail as one replacement", () => {
    const decoder = createUtf8Decoder();
    decoder.push([Uint8Array.of(0x41, 0xf0, 0x9f, 0x98)]);
    expect(decoder.held).toBe(3);
    expect(Buffer.concat(decoder.end()).toString()).toBe("\ufffd");
    expect(decoder.counters.replacements).toBe(1);
  });

  it("replaces \\xff\\xfe but keeps the NUL and hello", () => {
    const out = runStage(createUtf8Decoder(), [
      Buffer.from([0xff, 0xfe, 0x00, ...Buffer.from("hello")]),
    ]);
    expect(out.toString()).toBe("\ufffd\ufffd\u0000hello");
  });
});

/** U+FFFD already present as valid bytes in the input (not a replacement). */
function countLiteralFffd(bytes: Uint8Array): number {
  let n = 0;
  for (let i = 0; i + 2 < bytes.length; i++)
    if (bytes[i] === 0xef && bytes[i + 1] === 0xbf && bytes[i + 2] === 0xbd) n++;
  return n;
}
