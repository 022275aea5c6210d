/**
 * `spool grep` on lines of any length: matches deep inside a 300 KB line are found once
 * each with exact byte offsets (`-o`), a huge matching line is shown clipped around its
 * match between exact byte counts, and `^` never matches at an internal window start.
 */
import { describe, expect, it } from "vitest";
import { nodeCmd, runJson, spool, tempRoot } from "./helpers.js";

// A 300 KB line of multi-byte filler with a marker every ~997 bytes, then short lines.
const SCRIPT = `
let line = "";
for (let i = 0; i < 300; i++) line += "é€x".repeat(140 + (i % 7)) + "<id:" + i + ">";
process.stdout.write(line + "\\n<id:short> first short line\\nplain\\n<id:last>");
`;

function expectedText(): string {
  let line = "";
  for (let i = 0; i < 300; i++) line += `${"é€x".repeat(140 + (i % 7))}<id:${i}>`;
  return `${line}\n<id:short> first short line\nplain\n<id:last>`;
}

describe("spool grep on long lines", () => {
  const root = tempRoot();
  const run = runJson(root, nodeCmd(SCRIPT));
  const ref = run.receipt.streams.stdout.ref ?? "";
  const text = Buffer.from(expectedText());

  it("-o finds every match once with its byte offset, however deep in the line", () => {
    const expected: string[] = [];
    const re = /<id:\w+>/g;
    const s = text.toString();
    for (let m = re.exec(s); m !== null; m = re.exec(s)) {
      const offset = Buffer.byteLength(s.slice(0, m.index));
      const line = s.slice(0, m.index).split("\n").length;
      expected.push(`${line}:${offset}:${m[0]}`);
    }
    const r = spool(["grep", "--root", root, ref, "<id:\\w+>", "-o", "--max", "1000"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.toString().trimEnd().split("\n")).toEqual(expected);
    expect(expected).toHaveLength(302);
    // The offset reads the match back.
    const [, offset, match] = /^\d+:(\d+):(.*)$/.exec(expected[250]!)!;
    const back = spool(["read", "--root", root, ref, "--offset", offset!, "--length", "8"]);
    expect(back.stdout.toString()).toBe(match);
  });

  it("shows a huge matching line clipped around its match, with exact byte counts either side", () => {
    const r = spool(["grep", "--root", root, ref, "<id:299>"]);
    expect(r.status, r.stderr).toBe(0);
    const out = r.stdout.toString();
    expect(out.length).toBeLessThan(2400);
    const m = /^1:0:\[… (\d+) bytes\] (.*?)(?: \[… (\d+) bytes\])?\n$/su.exec(out);
    expect(m, out).not.toBeNull();
    const before = Number(m![1]);
    const shown = Buffer.from(m![2]!);
    const after = Number(m![3] ?? 0);
    const lineBytes = text.indexOf(0x0a);
    expect(before + shown.length + after).toBe(lineBytes);
    expect(text.subarray(before, before + shown.length).equals(shown)).toBe(true);
    expect(shown.toString()).toContain("<id:299>");
    // A short line still prints whole, at its line offset.
    const short = spool(["grep", "--root", root, ref, "first short"]);
    expect(short.stdout.toString()).toBe(`2:${lineBytes + 1}:<id:short> first short line\n`);
  });

  it("anchors at line starts only, not at the start of an internal window", () => {
    const r = spool(["grep", "--root", root, ref, "^<id:\\w+>", "-o"]);
    expect(r.stdout.toString()).toBe(
      `2:${text.indexOf("<id:short>")}:<id:short>\n4:${text.indexOf("<id:last>")}:<id:last>\n`,
    );
    const zero = spool(["grep", "--root", root, ref, "<id", "--max", "0"]);
    expect(zero.stdout.length).toBe(0);
    const none = spool(["grep", "--root", root, ref, "^x"]);
    expect(none.status).toBe(1);
    expect(none.stdout.length).toBe(0);
  });
});
