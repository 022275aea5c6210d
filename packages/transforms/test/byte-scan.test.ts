import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findRun } from "../src/alphabet-runs.js";
import { type ByteScan, byteScanOf, nextChunkSerial } from "../src/byte-scan.js";
import { compileRedaction } from "../src/compile-redaction.js";
import { buildStartFilter, type StartFilter } from "../src/start-filter.js";

const needle = (bytes: Uint8Array, anchor: number, boundary = false) => ({
  bytes,
  literal: -1,
  anchor,
  boundary,
});

/**
 * Every stop of `scan` over `chunk`, going on after each from the next byte (the redactor
 * walks the byte it stopped at through the automata first), the key always the three bytes
 * before where it goes on, as `ByteScan.scan` takes it.
 */
function stops(
  scan: ByteScan,
  chunk: Uint8Array,
  serial: number,
  step: number,
  before = 0,
): number[][] {
  const result = new Int32Array(1);
  const out: number[][] = [];
  let key = before;
  let i = 0;
  while (i < chunk.length) {
    const limit = Math.min(chunk.length, i + step);
    i = scan.scan(chunk, serial, i, limit, key, result);
    out.push([i, result[0]!]);
    key = result[0]! & 0xffffff;
    if (i < limit) i++;
  }
  return out;
}

const BYTES = [..."abAB-_. =\n\t\\%"].map((c) => c.charCodeAt(0)).concat([0x00, 0xc3, 0xa9, 0xff]);
const arbBytes = (max: number) =>
  fc.array(fc.constantFrom(...BYTES), { maxLength: max }).map((b) => Uint8Array.from(b));

describe("byte scans: WebAssembly and JavaScript", () => {
  it("runs as WebAssembly here (Node 20 has it)", () => {
    const filter = buildStartFilter([needle(Buffer.from("token"), 0)], []);
    expect(byteScanOf(filter).constructor.name).toBe("WasmScan");
    expect(byteScanOf(filter, false).constructor.name).toBe("JsScan");
  });

  it("stops at the same bytes with the same key, for any needles, text and stretches", () => {
    fc.assert(
      fc.property(
        fc.array(arbBytes(5), { minLength: 1, maxLength: 6 }),
        fc.array(arbBytes(5), { maxLength: 3 }),
        arbBytes(300),
        fc.integer({ min: 1, max: 64 }),
        // The last three bytes of the chunk before (a needle may start there).
        fc.tuple(...[0, 1, 2].map(() => fc.constantFrom(...BYTES))),
        // Which needles are ruled out inside a word (a bit each).
        fc.nat(),
        (exact, folded, text, step, [a, b, c], boundary) => {
          const needles = (list: Uint8Array[], shift: number) =>
            list
              .filter((b) => b.length > 0)
              .map((b, i) => needle(b, i, ((boundary >>> (i + shift)) & 1) === 1));
          const filter: StartFilter = buildStartFilter(needles(exact, 0), needles(folded, 8));
          const serial = nextChunkSerial();
          const before = (a! << 16) | (b! << 8) | c!;
          const js = stops(byteScanOf(filter, false), text, serial, step, before);
          expect(stops(byteScanOf(filter), text, serial, step, before)).toEqual(js);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("reads chunks longer than its window, and never another chunk's bytes as its own", () => {
    const filter = compileRedaction({}).startFilter;
    const wasm = byteScanOf(filter);
    const js = byteScanOf(filter, false);
    const line = Buffer.from("GET /api/v1/items 200 user=u1 trace=abcDEF123 password=x token=y\n");
    const long = Buffer.alloc(200_000);
    for (let at = 0; at < long.length; at += line.length) line.copy(long, at);
    const other = Buffer.alloc(1000, 0x20);
    expect(stops(wasm, long, nextChunkSerial(), 9000)).toEqual(stops(js, long, 0, 9000));
    // Half of the chunk, another chunk in between (a nested redactor), then the rest.
    const serial = nextChunkSerial();
    const result = new Int32Array(1);
    const half = wasm.scan(long, serial, 0, 30_000, 0, result);
    expect(half).toBe(js.scan(long, 0, 0, 30_000, 0, new Int32Array(1)));
    expect(stops(wasm, other, nextChunkSerial(), 9000)).toEqual([[1000, 0x20202020]]);
    const key = result[0]! & 0xffffff; // the three bytes before `half + 1`
    const rest = [wasm.scan(long, serial, half + 1, long.length, key, result), result[0]];
    expect(rest).toEqual([js.scan(long, 0, half + 1, long.length, key, result), result[0]]);
  });

  it("finds the same alphabet runs, for any alphabet, text, range and length", () => {
    const scan = byteScanOf(compileRedaction({}).startFilter);
    const alphabetOf = (members: string) => {
      const alphabet = new Uint8Array(256);
      for (const m of Buffer.from(members, "latin1")) alphabet[m] = 1;
      return alphabet;
    };
    // At most four alphabets live in the module's memory: three here.
    const alphabets = ["ab", "aAbB-_.=", "\n\t \u00e9\u00ff"].map(alphabetOf);
    fc.assert(
      fc.property(
        fc.constantFrom(...alphabets),
        arbBytes(200),
        fc.nat({ max: 200 }),
        fc.nat({ max: 200 }),
        fc.integer({ min: 1, max: 40 }),
        (alphabet, text, a, b, min) => {
          const from = Math.min(a, b, text.length);
          const end = Math.min(Math.max(a, b), text.length);
          const expected = findRun(text, from, end, alphabet, min);
          expect(scan.findRun(text, nextChunkSerial(), from, end, alphabet, min)).toBe(expected);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("finds runs through the window of a chunk longer than 64 KiB, and in JS past it", () => {
    const scan = byteScanOf(compileRedaction({}).startFilter);
    const digits = new Uint8Array(256).fill(1, 0x30, 0x3a);
    const text = Buffer.alloc(150_000, 0x20);
    for (const at of [10, 70_000, 149_990]) text.write("0123456789", at);
    const serial = nextChunkSerial();
    for (const [from, end] of [
      [0, 150_000],
      [11, 150_000],
      [69_000, 100_000],
      [71_000, 150_000],
      [140_000, 150_000],
    ])
      expect(scan.findRun(text, serial, from, end, digits, 8)).toBe(
        findRun(text, from, end, digits, 8),
      );
  });
});
