import { isUtf8 } from "node:buffer";
import { runStage } from "@spool/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createAnsiStrip, MAX_CONTROL_STRING } from "../src/ansi-strip.js";
import { allChunkings, checkStage, splitAt } from "../src/testing.js";

const strip = (text: string) => runStage(createAnsiStrip(), [Buffer.from(text)]).toString();

describe("ansi-strip", () => {
  it("removes CSI, OSC, DCS and two-byte escapes, keeping text", () => {
    expect(strip("\x1b[1;31mred\x1b[0m plain")).toBe("red plain");
    expect(strip("\x1b]0;title\x07after")).toBe("after");
    expect(strip("\x1b]8;;https://x.y/\x1b\\link\x1b]8;;\x1b\\")).toBe("link");
    expect(strip("\x1bPq#0;2;0;0;0\x1b\\done")).toBe("done");
    expect(strip("\x1b(Bx\x1b=y\x1b7z")).toBe("xyz");
    expect(strip("progress\r\x1b[2K50%\n")).toBe("progress\r50%\n");
    expect(strip("bad \x1b\n keep")).toBe("bad \n keep");
    expect(strip("csi broken \x1b[12ü rest")).toBe("csi broken ü rest");
  });

  it("hands on one buffer per chunk: the chunk itself without escapes, its text joined with them", () => {
    const plain = Buffer.from("no escapes here\n");
    const clean = createAnsiStrip().push([plain]);
    expect(clean).toHaveLength(1);
    expect(clean[0]).toBe(plain);
    // An escape every few bytes (as decoded random bytes hold one every ~256): still one piece.
    const coloured = Buffer.from("a\x1b[31mb\x1b[0mc\x1b]0;t\x07d\x1b(Be".repeat(50));
    const out = createAnsiStrip().push([
      coloured,
      Buffer.from("\x1b[1m"),
      Buffer.from("x\x1b[0my"),
    ]);
    expect(out.map((b) => Buffer.from(b).toString())).toEqual(["abcde".repeat(50), "xy"]);
  });

  it("cuts off an unterminated string sequence without splitting a character", () => {
    for (const lead of ["0;", "0;x"]) {
      const out = runStage(createAnsiStrip(), [
        Buffer.from(`\x1b]${lead}${"é".repeat(MAX_CONTROL_STRING / 2 + 2)}after`),
      ]);
      expect(isUtf8(out)).toBe(true);
      expect(out.toString()).toMatch(/^é{1,3}after$/);
    }
    // "0;" and 4095 x make the string 4097 bytes long: cut off there, the other 11 x are text.
    expect(strip(`\x1b]0;${"x".repeat(MAX_CONTROL_STRING + 10)}`)).toBe("x".repeat(11));
  });

  it("is chunking invariant: every split of short inputs, random splits of longer ones", () => {
    for (const text of ["a\x1b[31mb\x1b]t\x07c", "\x1b\x1b[0m\x1b(Bé", "x\x1b]8;;u\x1b\\y\x1bPz"]) {
      const input = Buffer.from(text);
      for (const chunks of allChunkings(input)) checkStage(createAnsiStrip, input, chunks);
    }
    const piece = fc.constantFrom(
      "\x1b",
      "[",
      "]",
      "0;",
      "m",
      "31",
      "\x07",
      "\\",
      "text",
      "é",
      "日",
      "\n",
      "P",
      "(",
      "B",
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 80 }),
        fc.array(fc.integer({ min: 1, max: 200 })),
        (parts, cuts) => {
          const input = Buffer.from(parts.join(""));
          checkStage(createAnsiStrip, input, splitAt(input, cuts));
        },
      ),
      { numRuns: 300 },
    );
    expect(createAnsiStrip().held).toBe(0);
  });
});
