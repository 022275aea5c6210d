/** `spool capture`: the capture of `spool run`, from spool's own stdin. */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { SPOOL_BIN, spool, tempRoot } from "./helpers.js";

function capture(root: string, input: Buffer, extra: string[] = []) {
  const r = spawnSync(process.execPath, [SPOOL_BIN, "capture", "--root", root, ...extra], {
    input,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString() };
}

describe("spool capture", () => {
  it("captures stdin with the inline result; read returns it byte for byte", () => {
    const root = tempRoot();
    let text = "";
    for (let i = 0; i < 50000; i++) text += `line ${i} é\n`;
    const r = capture(root, Buffer.from(text), ["--label", "pod"]);
    expect(r.status).toBe(0);
    expect(r.stdout.toString()).toMatch(/\[spool\] source ended · status 0 · capture complete/);
    const id = /id (\S+)\n$/.exec(r.stdout.toString())?.[1] ?? "";
    expect(spool(["read", id, "--root", root]).stdout.toString()).toBe(text);
    expect(spool(["tail", id, "--root", root, "-n", "1"]).stdout.toString()).toBe("line 49999 é\n");
    expect(spool(["grep", id, "^line 4242 ", "--root", root]).stdout.toString()).toMatch(
      /^4243:\d+:line 4242 é\n$/,
    );
  });

  it("redacts like run, and a declared truncation is never complete", () => {
    const root = tempRoot();
    const r = capture(root, Buffer.from("token ghp_abcdefghijklmnopqrstuvwxyz0123456789\n"), [
      "--json",
      "--declared",
      "truncated",
    ]);
    const receipt = JSON.parse(r.stdout.toString());
    expect(receipt.preview.text).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz0123456789");
    expect(receipt.capture.state).not.toBe("complete");
    expect(r.status).toBe(1);
    expect(capture(root, Buffer.from(""), ["--", "x"]).status).toBe(64);
  });
});
