import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileRedaction } from "../src/compile-redaction.js";
import { buildStartFilter, type StartFilter } from "../src/start-filter.js";
import { nextChunkSerial, type StartScan, startScanOf } from "../src/start-scan.js";

const needle = (bytes: Uint8Array, anchor: number) => ({ bytes, literal: -1, anchor });

/** Every stop of `scan` over `chunk`, going on after each as the redactor does (key: the last three bytes). */
function stops(scan: StartScan, chunk: Uint8Array, serial: number, step: number): number[][] {
  const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.length);
  const result = new Int32Array(1);
  const out: number[][] = [];
  let key = 0;
  let i = 0;
  while (i < chunk.length) {
    const limit = Math.min(chunk.length, i + step);
    i = scan.scan(chunk, view, serial, i, limit, key, result);
    out.push([i, result[0]!]);
    key = i < limit ? (result[0]! >> 8) & 0xffffff : result[0]! & 0xffffff;
    if (i < limit) i++;
  }
  return out;
}

const BYTES = [..."abAB-_. =\n\t"].map((c) => c.charCodeAt(0)).concat([0x00, 0xc3, 0xa9, 0xff]);
const arbBytes = (max: number) =>
  fc.array(fc.constantFrom(...BYTES), { maxLength: max }).map((b) => Uint8Array.from(b));

describe("start scan: WebAssembly and JavaScript", () => {
  it("runs as WebAssembly here (Node 20 has it)", () => {
    const filter = buildStartFilter([needle(Buffer.from("token"), 0)], []);
    expect(startScanOf(filter).constructor.name).toBe("WasmScan");
    expect(startScanOf(filter, false).constructor.name).toBe("JsScan");
  });

  it("stops at the same bytes with the same key, for any needles, text and stretches", () => {
    fc.assert(
      fc.property(
        fc.array(arbBytes(5), { minLength: 1, maxLength: 6 }),
        fc.array(arbBytes(5), { maxLength: 3 }),
        arbBytes(300),
        fc.integer({ min: 1, max: 64 }),
        (exact, folded, text, step) => {
          const filter: StartFilter = buildStartFilter(
            exact.filter((b) => b.length > 0).map((b, i) => needle(b, i)),
            folded.filter((b) => b.length > 0).map((b, i) => needle(b, i)),
          );
          const serial = nextChunkSerial();
          const js = stops(startScanOf(filter, false), text, serial, step);
          expect(stops(startScanOf(filter), text, serial, step)).toEqual(js);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("reads chunks longer than its window, and never another chunk's bytes as its own", () => {
    const filter = compileRedaction({}).startFilter;
    const wasm = startScanOf(filter);
    const js = startScanOf(filter, false);
    const line = Buffer.from("GET /api/v1/items 200 user=u1 trace=abcDEF123 password=x token=y\n");
    const long = Buffer.alloc(200_000);
    for (let at = 0; at < long.length; at += line.length) line.copy(long, at);
    const other = Buffer.alloc(1000, 0x20);
    expect(stops(wasm, long, nextChunkSerial(), 9000)).toEqual(stops(js, long, 0, 9000));
    // Half of the chunk, another chunk in between (a nested redactor), then the rest.
    const serial = nextChunkSerial();
    const view = new DataView(long.buffer, long.byteOffset, long.length);
    const result = new Int32Array(1);
    const half = wasm.scan(long, view, serial, 0, 30_000, 0, result);
    expect(half).toBe(js.scan(long, view, 0, 0, 30_000, 0, new Int32Array(1)));
    expect(stops(wasm, other, nextChunkSerial(), 9000)).toEqual([[1000, 0x20202020]]);
    const key = (result[0]! >> 8) & 0xffffff;
    const rest = [wasm.scan(long, view, serial, half + 1, long.length, key, result), result[0]];
    expect(rest).toEqual([js.scan(long, view, 0, half + 1, long.length, key, result), result[0]]);
  });
});
