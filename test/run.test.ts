import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { ReceiptSchema } from "@spool/core";
import { describe, expect, it } from "vitest";
import { nodeCmd, runJson, spool, spoolAsync, tempRoot } from "./helpers.js";

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

describe("spool run (end to end, built binary)", () => {
  it("spools 2,340,024 characters between BEGIN and END exactly, exits 2, previews the tail with END-MARKER", () => {
    const root = tempRoot();
    const script = `process.stdout.write("BEGIN-MARKER\\n"); const b = Buffer.alloc(65536, 97);
      let left = 2340024; const next = () => { while (left > 0) { const n = Math.min(left, b.length); left -= n;
      if (!process.stdout.write(b.subarray(0, n))) return process.stdout.once("drain", next); }
      process.stdout.write("\\nEND-MARKER\\n", () => process.exit(2)); }; next();`;
    const { status, receipt } = runJson(root, nodeCmd(script));
    expect(status).toBe(2);
    expect(ReceiptSchema.parse(receipt)).toBeTruthy();
    expect(receipt.process).toMatchObject({ state: "exited", exitCode: 2, signal: null });
    expect(receipt.capture).toEqual({ state: "complete", reasons: [] });
    const out = receipt.streams.stdout;
    const expected = Buffer.concat([
      Buffer.from("BEGIN-MARKER\n"),
      Buffer.alloc(2340024, 97),
      Buffer.from("\nEND-MARKER\n"),
    ]);
    expect(out.raw).toEqual({
      observed: 2340024 + 13 + 12,
      accepted: 2340024 + 13 + 12,
      pending: 0,
      discarded: 0,
    });
    expect(out.ref).toBe(`tool-outputs/${receipt.captureId}/stdout.txt`);
    const file = readFileSync(path.join(root, out.ref!));
    expect(file.equals(expected)).toBe(true);
    expect(out.sha256).toBe(sha(expected));
    expect(out).toMatchObject({
      produced: expected.length,
      committed: expected.length,
      retained: { start: 0, end: expected.length },
    });
    expect(receipt.preview.state).toBe("omitted");
    expect(receipt.preview.text).toContain("BEGIN-MARKER");
    expect(receipt.preview.text).toMatch(/END-MARKER\n$/);
    const omitted = /\[… (\d+) bytes of stdout omitted · spool read (\S+) --offset (\d+)/.exec(
      receipt.preview.text,
    );
    expect(omitted?.[2]).toBe(out.ref);
    expect(receipt.preview.bytes).toBeLessThanOrEqual(16384);
    // the receipt was published last, next to the final files; no .live file is left
    const dir = path.join(root, "tool-outputs", receipt.captureId);
    expect(readdirSync(dir).sort()).toEqual(
      expect.arrayContaining(["receipt.json", "stderr.txt", "stdout.txt"]),
    );
    expect(readdirSync(dir).some((f) => f.endsWith(".live") || f.endsWith(".tmp"))).toBe(false);
    expect(JSON.parse(readFileSync(path.join(dir, "receipt.json"), "utf8"))).toEqual(receipt);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, "stdout.txt")).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(root, "tool-outputs")).mode & 0o777).toBe(0o700);
  });

  it("keeps a small result inline, byte-identical, and writes nothing", () => {
    const root = tempRoot();
    const r = spool(["run", "--root", root, "--", "printf", "yes"]);
    expect(r.status).toBe(0);
    expect(r.stdout.toString()).toMatch(
      /^yes\n\[spool\] exit 0 · status 0 · capture complete · stdout 3 B\/1 lines · stderr 0 B · id [\w-]{24}\n$/,
    );
    expect(existsSync(path.join(root, "tool-outputs"))).toBe(false);
    const { receipt } = runJson(root, ["printf", "yes"]);
    expect(receipt.preview).toMatchObject({ state: "complete", text: "yes" });
    expect(receipt.streams.stdout).toMatchObject({
      produced: 3,
      committed: 3,
      endsWithNewline: false,
      lines: 1,
      ref: null,
      sha256: sha(Buffer.from("yes")),
    });
  });

  it("keeps stdout and stderr apart and reports exit 42", () => {
    const root = tempRoot();
    const { status, receipt } = runJson(root, [
      "sh",
      "-c",
      "echo out; echo err >&2; echo out2; exit 42",
    ]);
    expect(status).toBe(42);
    expect(receipt.process.exitCode).toBe(42);
    expect(receipt.preview.text).toBe("out\nout2\n--- stderr ---\nerr\n");
    expect(receipt.streams.stdout.produced).toBe(9);
    expect(receipt.streams.stderr.produced).toBe(4);
  });

  it("decodes 日本語テスト written one byte at a time without corruption", () => {
    const root = tempRoot();
    const script = `const b = Buffer.from("日本語テスト\\n"); let i = 0; const t = setInterval(() => { process.stdout.write(b.subarray(i, i + 1)); if (++i === b.length) clearInterval(t); }, 2);`;
    const { receipt } = runJson(root, nodeCmd(script));
    expect(receipt.preview.text).toBe("日本語テスト\n");
    expect(receipt.streams.stdout).toMatchObject({ representation: "utf8", replacements: 0 });
  });

  it("replaces invalid bytes, still shows hello, and says the stream looks binary", () => {
    const root = tempRoot();
    const { receipt } = runJson(
      root,
      nodeCmd(
        `process.stdout.write(Buffer.from([0xff, 0xfe, 0x00, 0x68, 0x65, 0x6c, 0x6c, 0x6f]))`,
      ),
    );
    expect(receipt.streams.stdout).toMatchObject({
      representation: "utf8-replaced",
      replacements: 2,
      raw: { observed: 8 },
    });
    expect(receipt.preview.text).toContain("hello");
    expect(receipt.preview.text).not.toContain("\u0000");
  });

  it("spools a 1 MB single line exactly and counts one line", () => {
    const root = tempRoot();
    const { receipt } = runJson(root, nodeCmd(`process.stdout.write("z".repeat(1000000))`));
    const out = receipt.streams.stdout;
    expect(out).toMatchObject({
      produced: 1000000,
      committed: 1000000,
      lines: 1,
      endsWithNewline: false,
    });
    expect(readFileSync(path.join(root, out.ref!)).equals(Buffer.alloc(1000000, "z"))).toBe(true);
    expect(receipt.preview.bytes).toBeLessThanOrEqual(16384);
  });

  it("gives 10 concurrent runs in one root distinct ids and their own exact files", async () => {
    const root = tempRoot();
    const runs = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        spoolAsync([
          "run",
          "--root",
          root,
          "--json",
          "--",
          ...nodeCmd(`process.stdout.write("${i}".repeat(50000))`),
        ]),
      ),
    );
    const receipts = runs.map((r) => JSON.parse(r.stdout.toString()));
    expect(new Set(receipts.map((r) => r.captureId)).size).toBe(10);
    receipts.forEach((r, i) => {
      expect(
        readFileSync(path.join(root, r.streams.stdout.ref)).equals(Buffer.alloc(50000, String(i))),
      ).toBe(true);
    });
  });

  it("maps spawn failures, signals and timeouts to exit statuses; a capture problem never changes them", () => {
    const root = tempRoot();
    expect(spool(["run", "--root", root, "--", "definitely-not-a-command-xyz"]).status).toBe(127);
    const notExecutable = path.join(root, "not-executable");
    writeFileSync(notExecutable, "echo hi\n", { mode: 0o644 });
    expect(spool(["run", "--root", root, "--", notExecutable]).status).toBe(126);
    const killed = runJson(root, ["sh", "-c", "kill -TERM $$"]);
    expect(killed.status).toBe(143);
    expect(killed.receipt.process).toMatchObject({
      state: "exited",
      signal: "SIGTERM",
      exitCode: null,
    });
    const timeout = runJson(root, ["sleep", "20"], ["--timeout", "0.3"]);
    expect(timeout.status).toBe(124);
    expect(timeout.receipt.process.state).toBe("timeout");
  });

  it("rejects bad input with one line and exit 64, writing nothing", () => {
    const root = tempRoot();
    for (const args of [
      ["run", "--root", root, "--bogus", "--", "true"],
      ["run", "--root", root, "true"],
      ["run", "--root", root, "--preview-bytes", "12XB", "--", "true"],
      ["run", "--root", root, "--timeout", "-1", "--", "true"],
      ["run", "--root", root, "--"],
      ["frobnicate"],
    ]) {
      const r = spool(args);
      expect(r.status, args.join(" ")).toBe(64);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stdout.length).toBe(0);
    }
    expect(readdirSync(root)).toEqual([]);
  });

  it("logs state changes (start, spill, finalize) to a file when asked, never output content", () => {
    const root = tempRoot();
    const log = path.join(root, "spool.log");
    const r = spool([
      "run",
      "--root",
      root,
      "--log",
      log,
      "--",
      "sh",
      "-c",
      "seq 1 5000; echo SECRET-CONTENT-LINE",
    ]);
    expect(r.status).toBe(0);
    const lines = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.event)).toEqual(["start", "spill", "finalize"]);
    expect(readFileSync(log, "utf8")).not.toContain("SECRET-CONTENT-LINE");
    expect(statSync(log).mode & 0o077).toBe(0);
  });

  it("says inline what it could not keep: a capture past --max-bytes is partial, with the kept bytes named", () => {
    const root = tempRoot();
    const r = spool(["run", "--root", root, "--max-bytes", "10KiB", "--", "seq", "1", "100000"]);
    expect(r.status).toBe(0);
    const status = r.stdout.toString().trimEnd().split("\n").at(-1)!;
    expect(status).toMatch(/capture partial \(quota\)/);
    // The lines are those of the kept bytes (seq's first 10240 bytes: 2269 lines and a part).
    expect(status).toMatch(/stdout 588895 B \(only 10240 B\/2270 lines kept\)/);
    // The preview still shows the real end of the output.
    expect(r.stdout.toString()).toContain("100000\n[spool]");
  });
});
