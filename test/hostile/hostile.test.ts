/**
 * The hostile corpus (`corpus.ts`) through the real CLI: `run` (inline, success and
 * failure), `start`, and every read command (`status`, `wait`, `read`, `tail`, `grep`,
 * `ls`). Memory is bounded by construction here: every spool process runs with a 128 MiB
 * V8 heap (`--max-old-space-size`), so an unbounded buffer aborts the command and fails
 * the test; time by each command ending within the test's timeout. Bad option values
 * exit 64 with one line and create nothing.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Receipt } from "@spool/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spool, tempRoot } from "../helpers.js";
import { BAD_OPTIONS, CORPUS, writeCorpus } from "./corpus.js";

const BOUNDED = { NODE_OPTIONS: "--max-old-space-size=128" };
// Controls (C0 but tab and newline, DEL, C1), and the invisible, bidi and line-separator
// characters a forged separator or status line can hide behind.
const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2064\ufeff]/;
const LOOK_ALIKE = /(^|[^\\])\[(REDACTED:|OMITTED:|…|spool\]|binary-looking )/m;

let dir: string;
let files: Map<string, string>;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "spool-hostile-"));
  files = writeCorpus(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bounded = (args: string[]) => spool(args, BOUNDED);

/** The inline result split into preview and status line, checked for terminal safety. */
function checkInline(stdout: Buffer, noSecrets: boolean): string {
  const text = stdout.toString("utf8");
  expect(text).not.toMatch(UNSAFE);
  const lines = text.trimEnd().split("\n");
  const status = lines.pop()!;
  expect(status).toMatch(/^\[spool\] /);
  const id = /· id (\S+)$/.exec(status)![1]!;
  const preview = lines.join("\n");
  expect(preview.split("\n").filter((l) => l.startsWith("[spool]"))).toEqual([]);
  if (noSecrets) {
    // Only spool's own markers (naming this capture) may stand unescaped.
    const own = new RegExp(
      String.raw`\[… \d+ bytes of std(out|err) omitted · spool read tool-outputs/${id}/std(out|err)\.(txt|bin) --offset \d+ --length \d+ …\]|\[binary-looking std(out|err): \d+ bytes, shown escaped; bytes in tool-outputs/${id}/\S+\]`,
      "g",
    );
    expect(preview.replace(own, "")).not.toMatch(LOOK_ALIKE);
  }
  return id;
}

describe.each(CORPUS)("hostile input: $name", (input) => {
  it("run shows it escaped inline, success and failure, in bounded memory", () => {
    const file = files.get(input.name)!;
    const root = tempRoot();
    const ok = bounded(["run", "--root", root, "--", "cat", file]);
    expect(ok.status).toBe(0);
    checkInline(ok.stdout, input.noSecrets);
    const failed = bounded(["run", "--root", root, "--", "sh", "-c", `cat "$0" >&2; exit 3`, file]);
    expect(failed.status).toBe(3);
    checkInline(failed.stdout, input.noSecrets);
  });

  it("start, then status, wait, read, tail, grep and ls, each bounded and safe", () => {
    const file = files.get(input.name)!;
    const root = tempRoot();
    const label = "lab\u009b2J\u0007el";
    const started = bounded(["start", "--root", root, "--label", label, "--", "cat", file]);
    expect(started.status).toBe(0);
    expect(started.stdout.toString()).not.toMatch(UNSAFE);
    const id = (JSON.parse(started.stdout.toString()) as Receipt).captureId;

    const waited = bounded(["wait", id, "--root", root, "--timeout", "120"]);
    expect(waited.status).toBe(0);
    for (const r of [waited, bounded(["status", id, "--root", root])]) {
      expect(r.stdout.toString()).not.toMatch(UNSAFE);
      const receipt = JSON.parse(r.stdout.toString()) as Receipt;
      expect(receipt.label).toBe(label);
      expect(receipt.capture.state).toBe("complete");
    }
    // Files keep the representation: the exact bytes, controls included.
    const read = bounded(["read", id, "--root", root]);
    expect(read.status).toBe(0);
    if (input.keptAsIs) expect(read.stdout.equals(readFileSync(file))).toBe(true);

    expect(bounded(["tail", id, "--root", root, "--lines", "3"]).status).toBe(0);
    const grep = bounded(["grep", id, "^(a+)+$", "--root", root]);
    expect([0, 1]).toContain(grep.status);
    const ls = bounded(["ls", "--root", root]);
    expect(ls.status).toBe(0);
    expect(ls.stdout.toString()).not.toMatch(UNSAFE);
    expect(ls.stdout.toString()).toContain("lab?2J?el");
  });
});

describe("--binary keep keeps every hostile input as it came", () => {
  it.each(CORPUS.map((input) => [input.name]))("%s: read gives back its bytes", (name) => {
    const file = files.get(name)!;
    const root = tempRoot();
    const r = bounded(["run", "--root", root, "--binary", "keep", "--json", "--", "cat", file]);
    expect(r.status).toBe(0);
    const receipt = JSON.parse(r.stdout.toString()) as Receipt;
    expect(receipt.preview.text).not.toMatch(UNSAFE);
    // Raw bytes (no shape rule rewrites noise), whether kept inline or in a file.
    const read = bounded(["read", receipt.captureId, "--root", root]);
    if (read.status === 0) expect(read.stdout.equals(readFileSync(file))).toBe(true);
    else expect(receipt.streams.stdout.committed).toBe(readFileSync(file).byteLength);
  });
});

describe("hostile options", () => {
  it.each(BAD_OPTIONS)("%s %s: one line, exit 64, nothing created", (option, value) => {
    for (const command of ["run", "start"]) {
      const root = path.join(tempRoot(), "root");
      const r = bounded([command, "--root", root, option, value, "--", "true"]);
      expect(r.status).toBe(64);
      expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(r.stderr).not.toMatch(UNSAFE);
      expect(existsSync(root)).toBe(false);
    }
  });

  it("an unknown command or option is named with its controls escaped", () => {
    for (const args of [["fr\u001b]52;c;aGk=\u0007ob"], ["run", "--x\u009b2J", "--", "true"]]) {
      const r = bounded(args);
      expect(r.status).toBe(64);
      expect(r.stderr).not.toMatch(UNSAFE);
    }
  });

  it("a FIFO as --redact-file is refused at once, not waited on", () => {
    const fifo = path.join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    const r = bounded(["run", "--redact-file", fifo, "--", "true"]);
    expect(r.status).toBe(64);
    expect(r.stderr).toMatch(/not a regular file/);
  });

  it("the largest preview budgets hold a large output in bounded memory", () => {
    const root = tempRoot();
    const r = bounded([
      "run",
      "--root",
      root,
      "--json",
      "--preview-stdout",
      "1048576",
      "--preview-stderr",
      "1048576",
      "--preview-bytes",
      "4MiB",
      "--",
      "sh",
      "-c",
      "yes 0123456789abcdef | head -c 33554432",
    ]);
    expect(r.status).toBe(0);
    const receipt = JSON.parse(r.stdout.toString()) as Receipt;
    expect(receipt.streams.stdout.produced).toBe(33554432);
    expect(receipt.preview.bytes).toBeLessThanOrEqual(4 * 1024 * 1024);
  });
});
