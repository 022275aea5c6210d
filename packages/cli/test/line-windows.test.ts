import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createLineWindows, type LineWindow } from "../src/line-windows.js";

/** Feed `text` in the given chunk sizes; collect the windows. */
function windowsOf(text: Buffer, cuts: number[], window: number, overlap: number): LineWindow[] {
  const out: LineWindow[] = [];
  const lines = createLineWindows({ window, overlap }, (w) => {
    out.push({ ...w, bytes: Buffer.from(w.bytes) });
    return true;
  });
  let at = 0;
  for (const n of [...cuts, text.length]) {
    lines.push(text.subarray(at, Math.min(text.length, at + n)));
    at = Math.min(text.length, at + n);
  }
  lines.end();
  return out;
}

const piece = fc.constantFrom("a", "b", "ab", "\n", "é", "€", "😀", "xyz");
const textArb = fc.array(piece, { maxLength: 200 }).map((p) => Buffer.from(p.join("")));

describe("createLineWindows", () => {
  it("windows' own parts rebuild every line exactly, at the right offsets, whatever the chunking", () => {
    fc.assert(
      fc.property(
        textArb,
        fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 20 }),
        fc.integer({ min: 16, max: 40 }),
        (text, cuts, window) => {
          const windows = windowsOf(text, cuts, window, 4);
          const lines = text.toString().split("\n");
          if (text.length > 0 && text.at(-1) === 0x0a) lines.pop();
          if (text.length === 0) lines.pop();
          const rebuilt: Buffer[][] = lines.map(() => []);
          let offset = 0;
          for (const w of windows) {
            expect(w.bytes.length).toBeLessThanOrEqual(window);
            expect(text.subarray(w.offset, w.offset + w.bytes.length).equals(w.bytes)).toBe(true);
            rebuilt[w.line - 1]!.push(w.bytes.subarray(w.from, w.keep));
            if (w.last) {
              expect(w.lineOffset).toBe(offset);
              expect(w.lineBytes).toBe(Buffer.byteLength(lines[w.line - 1]!));
              offset += (w.lineBytes ?? 0) + 1;
            }
          }
          expect(rebuilt.map((parts) => Buffer.concat(parts).toString())).toEqual(lines);
        },
      ),
    );
  });

  it("a needle no longer than the overlap is found once per occurrence, across window boundaries", () => {
    const needle = "NEEDLE";
    const line = Array.from({ length: 300 }, (_, i) => (i % 7 === 3 ? needle : `${i}é,`)).join("");
    const text = Buffer.from(`${line}\nshort ${needle}\n`);
    const expected: number[] = [];
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1))
      expected.push(at);
    for (const window of [16, 33, 100, 1 << 16]) {
      const found: number[] = [];
      for (const w of windowsOf(text, [5, 77, 3], window, 8)) {
        let at = w.bytes.indexOf(needle, w.from);
        while (at !== -1 && at < w.keep) {
          found.push(w.offset + at);
          at = w.bytes.indexOf(needle, at + 1);
        }
      }
      expect(found, `window ${window}`).toEqual(expected);
    }
  });

  it("stops when the visitor says so", () => {
    let seen = 0;
    const lines = createLineWindows({}, () => ++seen < 2);
    expect(lines.push(Buffer.from("a\nb\nc\nd\n"))).toBe(false);
    lines.end();
    expect(seen).toBe(2);
  });
});
