import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { Receipt } from "@spool/core";
import { describe, expect, it } from "vitest";
import { runJson, tempRoot } from "./helpers.js";

/** The spooled stdout file of a capture. */
function stdoutFile(root: string, receipt: Receipt): Buffer {
  expect(receipt.streams.stdout.ref).not.toBeNull();
  return readFileSync(path.join(root, receipt.streams.stdout.ref!));
}

/** Occurrences of U+FFFD's encoding (EF BF BD) in `bytes`, read as bytes, not decoded. */
function countFffd(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(FFFD); at !== -1; at = bytes.indexOf(FFFD, at + 3)) count++;
  return count;
}
const FFFD = Buffer.from("\uFFFD", "utf8");

/** `size` bytes that look random and are the same on every run (SHA-256 in counter mode). */
function pseudoRandomBytes(size: number): Buffer {
  const blocks: Buffer[] = [];
  for (let i = 0; i * 32 < size; i++)
    blocks.push(createHash("sha256").update(`block ${i}`).digest());
  return Buffer.concat(blocks).subarray(0, size);
}

describe("invalid UTF-8 through the CLI: one U+FFFD per invalid sequence, none lost", () => {
  for (const extra of [[], ["--no-redact"]]) {
    it(`printf 'a\\377\\376b' gives a��b, produced 8 (${extra.join(" ") || "redaction on"})`, () => {
      const root = tempRoot();
      const { receipt } = runJson(root, ["printf", "a\\377\\376b"], extra);
      expect(receipt.streams.stdout).toMatchObject({ produced: 8, replacements: 2 });
      // Shown escaped (it looks binary): the two U+FFFD are both there. An escaped
      // description is not the bytes, so they are spooled even this small.
      expect(receipt.preview.text).toContain("\na\\ufffd\\ufffdb\n");
      expect(stdoutFile(root, receipt).toString()).toBe("a\uFFFD\uFFFDb");
    });
  }

  it("on 64 KiB of random bytes, replacements equals the U+FFFD in the file", () => {
    const root = tempRoot();
    const input = pseudoRandomBytes(64 << 10);
    const file = path.join(root, "random.bin");
    writeFileSync(file, input);
    const decoded = Buffer.from(new TextDecoder().decode(input), "utf8");
    // --keep-ansi: the ANSI stripper would drop control strings (and U+FFFD inside them).
    const { receipt } = runJson(root, ["cat", file], ["--keep-ansi", "--max-bytes", "1MiB"]);
    const out = receipt.streams.stdout;
    expect(out).toMatchObject({ redactions: 0, omissions: 0, produced: decoded.byteLength });
    const spooled = stdoutFile(root, receipt);
    expect(spooled.equals(decoded)).toBe(true);
    // A U+FFFD already spelled in the random input is text, not a replacement.
    expect(countFffd(spooled) - countFffd(input)).toBe(out.replacements);
    expect(out.replacements).toBeGreaterThan(10_000);
  });
});
