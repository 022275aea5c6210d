import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createLineIndexer, seekLine } from "../../src/store/line-index.js";

/** Entries computed the slow way: the start offset of every `every`th+1 line. */
function expectedEntries(text: Buffer, every: number): number[] {
  const out: number[] = [];
  let newlines = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === 0x0a && ++newlines % every === 0) out.push(i + 1);
  }
  return out;
}

function decode(entries: Buffer[]): number[] {
  const all = Buffer.concat(entries);
  const out: number[] = [];
  for (let i = 0; i + 8 <= all.length; i += 8) out.push(Number(all.readBigUInt64LE(i)));
  return out;
}

describe("sparse line index", () => {
  it("records the same entries however the stream is split into writes", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("a", "\n", "é", "\n\n", "xyz"), { maxLength: 400, size: "max" }),
        // Cuts long enough that dense runs of newlines take the plain-loop path too.
        fc.array(fc.nat(300), { maxLength: 30 }),
        fc.integer({ min: 1, max: 5 }),
        (parts, cuts, every) => {
          const text = Buffer.from(parts.join(""));
          const indexer = createLineIndexer(every);
          const written: Buffer[] = [];
          let at = 0;
          for (const cut of [...cuts, text.length]) {
            const next = Math.min(text.length, at + cut);
            const out = indexer.scan(text.subarray(at, next));
            if (out) written.push(out);
            at = next;
            if (at >= text.length) break;
          }
          expect(decode(written)).toEqual(expectedEntries(text, every));
        },
      ),
    );
  });

  it("seeks to the nearest indexed line at or before the wanted one, within committed bytes", () => {
    const dir = fs.mkdtempSync(path.join(tmpdir(), "spool-idx-"));
    const text = Buffer.from(Array.from({ length: 50 }, (_, i) => `line ${i + 1}\n`).join(""));
    const file = path.join(dir, "stdout.idx");
    fs.writeFileSync(file, createLineIndexer(10).scan(text) ?? Buffer.alloc(0));
    const fd = fs.openSync(file, "r");
    try {
      const lineStart = (n: number) => text.indexOf(`line ${n}\n`);
      // Line 37: the entry for line 31, then 6 newlines to pass.
      expect(seekLine(fd, 37, text.length, 10)).toEqual({ offset: lineStart(31), skip: 6 });
      expect(seekLine(fd, 5, text.length, 10)).toEqual({ offset: 0, skip: 4 });
      // Entries past the committed length are not used.
      expect(seekLine(fd, 37, lineStart(25), 10)).toEqual({ offset: lineStart(21), skip: 16 });
      expect(seekLine(null, 37, text.length, 10)).toEqual({ offset: 0, skip: 36 });
    } finally {
      fs.closeSync(fd);
    }
  });
});
