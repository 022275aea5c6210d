/**
 * `spool grep` on lines of any length: matches deep inside a 300 KB line are found once
 * each with exact byte offsets (`-o`), a huge matching line is shown clipped around its
 * match between exact byte counts, and `^` never matches at an internal window start. On a
 * `--binary keep` capture, lines of invalid UTF-8 are matched at exact byte offsets.
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
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

describe("spool grep on a --binary keep capture", () => {
  // Lines of bytes that are mostly invalid UTF-8 (SHA-256 in counter mode, no newlines),
  // a marker in some, one line past a 64 KiB window with markers deep inside it.
  const lines: Buffer[] = [];
  for (let i = 0; i < 60; i++) {
    const noise = pseudoRandom(`line ${i}`, i === 30 ? 150_000 : 40 + i * 7);
    const marks = i === 30 ? [70_000, 131_070] : i % 4 === 0 ? [i % noise.length] : [];
    let line = noise;
    for (const at of marks.reverse()) {
      line = Buffer.concat([line.subarray(0, at), Buffer.from("needle"), line.subarray(at)]);
    }
    lines.push(line);
  }
  const bytes = Buffer.concat(lines.flatMap((l) => [l, Buffer.from("\n")]));
  const root = tempRoot();
  const file = path.join(root, "noise.bin");
  writeFileSync(file, bytes);
  const run = runJson(root, ["cat", file], ["--binary", "keep"]);
  const ref = run.receipt.captureId;

  it("matches lines holding invalid UTF-8, at exact byte offsets (-o and line mode)", () => {
    expect(spool(["read", "--root", root, ref]).stdout.equals(bytes)).toBe(true);
    const expected: string[] = [];
    const lineStarts = new Set<number>();
    for (let at = bytes.indexOf("needle"); at !== -1; at = bytes.indexOf("needle", at + 1)) {
      const line = bytes.subarray(0, at).filter((b) => b === 0x0a).length + 1;
      expected.push(`${line}:${at}:needle`);
      lineStarts.add(bytes.lastIndexOf(0x0a, at) + 1);
    }
    expect(expected.length).toBeGreaterThan(15);
    const o = spool(["grep", "--root", root, ref, "needle", "-o", "--max", "1000"]);
    expect(o.status, o.stderr).toBe(0);
    expect(o.stdout.toString().trimEnd().split("\n")).toEqual(expected);
    // A regular expression (RE2, not the plain-word path) finds the same.
    const re = spool(["grep", "--root", root, ref, "ne+dle", "-o", "--max", "1000", "--json"]);
    const offsets = re.stdout
      .toString()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).offset);
    expect(offsets).toEqual(expected.map((e) => Number(e.split(":")[1])));
    const lineMode = spool(["grep", "--root", root, ref, "needle", "--json", "--max", "1000"]);
    const starts = lineMode.stdout
      .toString()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).offset);
    expect(starts).toEqual([...lineStarts]);
  });
});

/** `size` bytes that look random and are the same on every run, with no newline. */
function pseudoRandom(seed: string, size: number): Buffer {
  const blocks: Buffer[] = [];
  for (let i = 0; i * 32 < size; i++) {
    blocks.push(createHash("sha256").update(`${seed} ${i}`).digest());
  }
  const out = Buffer.concat(blocks).subarray(0, size);
  for (let i = 0; i < out.length; i++) if (out[i] === 0x0a) out[i] = 0xff;
  return out;
}
