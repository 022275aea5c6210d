import { createBoundedStream, createLineIndexer, seekLineEntries } from "@spool/sinks";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countLines } from "../../src/serve/line-count.js";

/** A stored stream over `text`, with the sparse line index the writer would keep (every `every` lines). */
function streamOf(text: Buffer, every: number, committed = text.length) {
  const raw = createLineIndexer(every).scan(text);
  const entries: number[] = [];
  for (let i = 0; raw && i < raw.length; i += 8) entries.push(Number(raw.readBigUInt64LE(i)));
  let reads = 0;
  const stream = createBoundedStream(
    { captureId: "AAAAAAAAAAAAAAAAAAAAAAAA", stream: "stdout", committed, binary: false },
    {
      readAt: (at, n) => {
        reads += n;
        return text.subarray(at, Math.min(at + n, committed));
      },
      seekLine: (line, bound) =>
        seekLineEntries((i) => entries[i] ?? null, entries.length, line, bound, every),
      close() {},
    },
  );
  return { stream, reads: () => reads };
}

/** Lines as the receipt counts them: newlines, and a last line without one. */
function naive(text: Buffer) {
  let lines = 0;
  let lastLineStart = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === 0x0a) {
      lines++;
      if (i + 1 < text.length) lastLineStart = i + 1;
    }
  }
  if (text.length > 0 && text.at(-1) !== 0x0a) lines++;
  return { lines, lastLineStart: text.length === 0 ? 0 : lastLineStart };
}

describe("countLines: a stream's lines at its committed end, through the line index", () => {
  it("counts as the receipt does, whatever the lines and the index's step", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom("a", "\n", "é", "\n\n", "xyz\n", "line of text\n"), {
          maxLength: 3000,
        }),
        fc.constantFrom(1, 2, 7, 1024),
        async (pieces, every) => {
          const text = Buffer.from(pieces.join(""));
          const got = await countLines(streamOf(text, every).stream);
          expect({ lines: got.lines, lastLineStart: got.lastLineStart }).toEqual(naive(text));
          expect(got.endsWithNewline).toBe(text.length === 0 || text.at(-1) === 0x0a);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("reads a small part of a long stream (no scan from its start)", async () => {
    const text = Buffer.from("some line of build output\n".repeat(400_000)); // 10.4 MB
    const { stream, reads } = streamOf(text, 1024);
    expect((await countLines(stream)).lines).toBe(400_000);
    // The last index step (640 lines, 16.6 KB) once for the count, and again for each
    // probe of a step past the end (a seek there scans to the end): about ten of them.
    expect(reads()).toBeLessThan(256 * 1024);
  });
});
