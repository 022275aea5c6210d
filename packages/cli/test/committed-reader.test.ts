import { isUtf8 } from "node:buffer";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CaptureView } from "../src/capture-view.js";
import { openCommitted } from "../src/committed-reader.js";

/** A capture directory holding `text` as stdout, of which `committed` bytes are advertised. */
function fakeView(text: Buffer, committed: number): CaptureView {
  const dir = fs.mkdtempSync(path.join(tmpdir(), "spool-read-"));
  fs.writeFileSync(path.join(dir, "stdout.live"), text);
  const stream = {
    representation: "utf8",
    committed,
    retained: { start: 0, end: committed },
    ref: "tool-outputs/x/stdout.live",
  };
  return {
    dir,
    final: false,
    running: true,
    crashed: false,
    job: null,
    receipt: { captureId: "x", streams: { stdout: stream, stderr: { ...stream, committed: 0 } } },
  } as unknown as CaptureView;
}

const TEXT = Buffer.from("aé€😀\n".repeat(40));

describe("committed reads", () => {
  it("never split a character, never pass committed, and reassemble exactly with any lengths", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: TEXT.length }),
        fc.array(fc.integer({ min: 1, max: 13 }), { minLength: 1, maxLength: 60 }),
        (committed, lengths) => {
          const view = fakeView(TEXT, committed);
          const reader = openCommitted(view, "stdout");
          const parts: Buffer[] = [];
          let offset = 0;
          try {
            for (let i = 0; i < 400; i++) {
              const slice = reader.read(offset, lengths[i % lengths.length]!);
              expect(slice.offset).toBe(offset);
              expect(slice.nextOffset).toBeLessThanOrEqual(committed);
              expect(isUtf8(slice.bytes)).toBe(true);
              if (slice.bytes.length === 0) break;
              parts.push(slice.bytes);
              offset = slice.nextOffset;
            }
          } finally {
            reader.close();
            fs.rmSync(view.dir, { recursive: true });
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

  it("moves an offset inside a character back to its start", () => {
    const view = fakeView(TEXT, TEXT.length);
    const reader = openCommitted(view, "stdout");
    try {
      // Each line is 11 bytes: "a" 1, "é" 2, "€" 3, "😀" 4, "\n" 1; byte 2 is inside "é".
      expect(reader.read(2, 2)).toMatchObject({ offset: 1, nextOffset: 3 });
      // Less than one character asked for: that whole character.
      expect(reader.read(6, 1)).toMatchObject({ offset: 6, nextOffset: 10 });
      expect(reader.tailStart(2)).toBe(TEXT.length - 2 * 11);
      expect(reader.lineRange(3, 4)).toEqual({ start: 22, end: 44 });
    } finally {
      reader.close();
    }
  });
});
