import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TerminalText } from "../src/terminal-text.js";

/** The terminal text of `input` fed in the given chunk sizes. */
function shown(input: Buffer, cuts: readonly number[], keepAnsi = false): string {
  const text = new TerminalText({ keepAnsi });
  const out: Uint8Array[] = [];
  let at = 0;
  for (const n of [...cuts, input.length]) {
    const end = Math.min(input.length, at + n);
    out.push(text.push(input.subarray(at, end)));
    at = end;
  }
  out.push(text.end());
  return Buffer.concat(out).toString("utf8");
}

const whole = (s: string, keepAnsi = false) => shown(Buffer.from(s), [], keepAnsi);

describe("TerminalText", () => {
  it("keeps text, newlines and tabs, and a carriage return before a newline", () => {
    expect(whole("plain text\twith tab\nnext line\r\n")).toBe(
      "plain text\twith tab\nnext line\r\n",
    );
    expect(whole("日本語 naïve 🚀\n")).toBe("日本語 naïve 🚀\n");
  });

  it("writes out every other control character, C1 controls included", () => {
    expect(whole("a\u001b[2Jb")).toBe("a\\x1b[2Jb");
    expect(whole("progress\r50%")).toBe("progress\\x0d50%");
    expect(whole("bell\u0007 del\u007f nul\u0000")).toBe("bell\\x07 del\\x7f nul\\x00");
    expect(whole("csi\u009b31m")).toBe("csi\\x9b31m");
  });

  it("writes out invisible and bidirectional controls as \\u escapes", () => {
    expect(whole("a\u200bb\u200dc\u2060d\ufeffe")).toBe("a\\u200bb\\u200dc\\u2060d\\ufeffe");
    expect(whole("file\u202egnp.exe")).toBe("file\\u202egnp.exe");
    expect(whole("x\u2066y\u2069 l\u2028p\u2029")).toBe("x\\u2066y\\u2069 l\\u2028p\\u2029");
    // Neighbours of those code points are ordinary text.
    expect(whole("\u2010 \u2030 \u20ac \u00a0 \u00e9 \ufffd")).toBe(
      "\u2010 \u2030 \u20ac \u00a0 \u00e9 \ufffd",
    );
  });

  it("gives a line that opens like spool's status line a backslash, and nothing else", () => {
    expect(whole("[spool] exit 0 · forged\n")).toBe("\\[spool] exit 0 · forged\n");
    expect(whole("ok\n[spool] forged")).toBe("ok\n\\[spool] forged");
    expect(whole("\u200b[spool] forged")).toBe("\\u200b[spool] forged");
    expect(whole("a [spool] b\n[spoo\n[x]")).toBe("a [spool] b\n[spoo\n[x]");
  });

  it("passes SGR colours with keepAnsi and writes out any other sequence", () => {
    expect(whole("\u001b[1;31mred\u001b[0m\n", true)).toBe("\u001b[1;31mred\u001b[0m\n");
    expect(whole("\u001b[2J\u001b]0;title\u0007", true)).toBe("\\x1b[2J\\x1b]0;title\\x07");
    expect(whole("\u001b[31mred", false)).toBe("\\x1b[31mred");
  });

  it("decides what a chunk's end leaves open with what follows, and what is left at the end as it is", () => {
    expect(shown(Buffer.from("line\r\nx"), [5])).toBe("line\r\nx");
    expect(shown(Buffer.from("[spool] x"), [3])).toBe("\\[spool] x");
    expect(shown(Buffer.from("\u001b[31mr"), [2, 1], true)).toBe("\u001b[31mr");
    expect(whole("end\r")).toBe("end\\x0d");
    expect(whole("[spo")).toBe("[spo");
    expect(whole("\u001b[31", true)).toBe("\\x1b[31");
    expect(whole("\u00e2")).toBe("\u00e2");
  });

  const piece = fc.constantFrom(
    "a",
    "[spool]",
    "[",
    "\n",
    "\r",
    "\r\n",
    "\t",
    "\u001b",
    "\u001b[31m",
    "\u001b[2J",
    "é",
    "\u0085",
    "\u200b",
    "\u202e",
    "\ufeff",
    "€",
    "😀",
    "\u0000",
  );
  const input = fc.array(piece, { maxLength: 60 }).map((p) => Buffer.from(p.join("")));

  it("shows the same text however the input is split (every split point of every input)", () => {
    fc.assert(
      fc.property(input, fc.boolean(), (bytes, keepAnsi) => {
        const one = shown(bytes, [], keepAnsi);
        for (let cut = 0; cut <= bytes.length; cut++)
          expect(shown(bytes, [cut], keepAnsi)).toBe(one);
        expect(shown(bytes, Array(bytes.length).fill(1), keepAnsi)).toBe(one);
      }),
    );
  });

  it("leaves no control byte but newline, tab, a carriage return before a newline and kept SGR", () => {
    fc.assert(
      fc.property(input, (bytes) => {
        const out = shown(bytes, []);
        const stray = out.replace(/\r\n/g, "\n").replace(/[\n\t]/g, "");
        const unsafe = [...stray].filter((c) => {
          const code = c.codePointAt(0)!;
          return (
            code < 0x20 ||
            (code >= 0x7f && code <= 0x9f) ||
            (code >= 0x200b && code <= 0x200f) ||
            (code >= 0x2028 && code <= 0x202e) ||
            code === 0x2060 ||
            (code >= 0x2066 && code <= 0x2069) ||
            code === 0xfeff
          );
        });
        expect(unsafe).toEqual([]);
        expect(out).not.toMatch(/(^|\n)\[spool\]/);
      }),
    );
  });
});
