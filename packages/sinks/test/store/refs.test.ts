import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { isSpoolError } from "@spool/core";
import { resolveRef } from "@spool/sinks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const ID = "AAAAAAAAAAAAAAAAAAAAAAAA";
const OTHER = "BBBBBBBBBBBBBBBBBBBBBBBB";
let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "spool-refs-"));
  const dir = path.join(root, "tool-outputs", ID);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(dir, "stdout.txt"), "hello\n");
  fs.writeFileSync(
    path.join(dir, "receipt.json"),
    JSON.stringify({ callId: "call-1", process: { startedAt: "2025-01-01T00:00:00.000Z" } }),
  );
  fs.writeFileSync(path.join(root, "secret"), "outside");
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const codeOf = (ref: string): string => {
  try {
    resolveRef(root, ref);
  } catch (error) {
    if (isSpoolError(error)) return error.code;
    throw error;
  }
  return "resolved";
};

describe("resolveRef", () => {
  it("resolves a captureId, a callId and a root-relative ref", () => {
    const dir = path.join(root, "tool-outputs", ID);
    const capture = { captureId: ID, dir, file: null, stream: null };
    expect(resolveRef(root, ID)).toEqual(capture);
    expect(resolveRef(root, "call-1")).toEqual(capture);
    expect(resolveRef(root, `tool-outputs/${ID}/stdout.txt`)).toEqual({
      captureId: ID,
      dir,
      file: path.join(dir, "stdout.txt"),
      stream: "stdout",
    });
    expect(resolveRef(root, `tool-outputs/${ID}`)).toEqual(capture);
    expect(resolveRef(root, `tool-outputs/${ID}/receipt.json`)).toMatchObject({ stream: null });
  });

  it("follows a stream across its renames: a launch ref (.live) still works after the end", () => {
    const dir = path.join(root, "tool-outputs", ID);
    const stdout = { file: path.join(dir, "stdout.txt"), stream: "stdout" };
    expect(resolveRef(root, `tool-outputs/${ID}/stdout.live`)).toMatchObject(stdout);
    expect(resolveRef(root, `tool-outputs/${ID}/stdout.bin`)).toMatchObject(stdout);
    fs.writeFileSync(path.join(dir, "stderr.live"), "");
    expect(resolveRef(root, `tool-outputs/${ID}/stderr.txt`)).toMatchObject({
      file: path.join(dir, "stderr.live"),
      stream: "stderr",
    });
  });

  it("a callId names the newest capture carrying it, final or live", () => {
    const at = (iso: string, file = "receipt.json", id = OTHER) => {
      const dir = path.join(root, "tool-outputs", id);
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(
        path.join(dir, file),
        JSON.stringify({ callId: "call-1", process: { startedAt: iso } }),
      );
    };
    at("2024-12-31T00:00:00.000Z");
    expect(resolveRef(root, "call-1").captureId).toBe(ID);
    at("2025-06-01T00:00:00.000Z", "live.json", "CCCCCCCCCCCCCCCCCCCCCCCC");
    expect(resolveRef(root, "call-1").captureId).toBe("CCCCCCCCCCCCCCCCCCCCCCCC");
  });

  it("a callId search follows no link: a linked receipt or capture directory is passed over", () => {
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "spool-elsewhere-"));
    const claim = JSON.stringify({ callId: "lure", process: { startedAt: "2030-01-01" } });
    fs.writeFileSync(path.join(elsewhere, "receipt.json"), claim);
    fs.mkdirSync(path.join(root, "tool-outputs", OTHER));
    fs.symlinkSync(
      path.join(elsewhere, "receipt.json"),
      path.join(root, "tool-outputs", OTHER, "receipt.json"),
    );
    fs.symlinkSync(elsewhere, path.join(root, "tool-outputs", "CCCCCCCCCCCCCCCCCCCCCCCC"));
    expect(codeOf("lure")).toBe("SPOOL_E_REF_NOT_FOUND");
    fs.rmSync(elsewhere, { recursive: true, force: true });
  });

  it("changes nothing on disk, whatever it refuses", () => {
    const tree = () =>
      fs
        .readdirSync(root, { recursive: true, withFileTypes: true })
        .map((e) => `${path.relative(root, path.join(e.parentPath, e.name))}:${e.isFile()}`)
        .sort();
    const before = tree();
    for (const ref of ["../secret", `tool-outputs/${ID}/../${ID}/x`, "no-such", "tool-outputs"]) {
      expect(codeOf(ref)).not.toBe("resolved");
    }
    expect(tree()).toEqual(before);
  });

  it("refuses .. and absolute paths", () => {
    expect(codeOf("../secret")).toBe("SPOOL_E_REF_OUTSIDE_ROOT");
    expect(codeOf(`tool-outputs/${ID}/../../secret`)).toBe("SPOOL_E_REF_OUTSIDE_ROOT");
    expect(codeOf(`tool-outputs/../secret`)).toBe("SPOOL_E_REF_OUTSIDE_ROOT");
    expect(codeOf("..")).toBe("SPOOL_E_REF_OUTSIDE_ROOT");
    expect(codeOf(path.join(root, "secret"))).toBe("SPOOL_E_REF_OUTSIDE_ROOT");
    expect(codeOf("/etc/passwd")).toBe("SPOOL_E_REF_OUTSIDE_ROOT");
    expect(codeOf("secret/x")).toBe("SPOOL_E_REF_OUTSIDE_ROOT");
    expect(codeOf(`tool-outputs/${ID}/./stdout.txt`)).toBe("SPOOL_E_REF_OUTSIDE_ROOT");
    expect(codeOf(`tool-outputs//${ID}`)).toBe("SPOOL_E_REF_OUTSIDE_ROOT");
    // resolving would land inside tool-outputs again, but a REF has no ".." at all
    expect(codeOf(`tool-outputs/${ID}/../${ID}/stdout.txt`)).toBe("SPOOL_E_REF_OUTSIDE_ROOT");
    expect(codeOf(`tool-outputs\\${ID}\\..\\..\\secret`)).toBe("SPOOL_E_REF_OUTSIDE_ROOT");
    expect(codeOf("C:/Windows")).toBe("SPOOL_E_REF_OUTSIDE_ROOT");
  });

  it("refuses NUL bytes, over-long and malformed names", () => {
    expect(codeOf(`tool-outputs/${ID}/stdout.txt\0`)).toBe("SPOOL_E_REF_INVALID");
    expect(codeOf("a".repeat(5000))).toBe("SPOOL_E_REF_INVALID");
    expect(codeOf(`tool-outputs/${ID}/${"a".repeat(1000)}`)).toBe("SPOOL_E_REF_INVALID");
    expect(codeOf("call\nid")).toBe("SPOOL_E_REF_INVALID");
    expect(codeOf(`tool-outputs/${ID}/${"a".repeat(300)}`)).toBe("SPOOL_E_REF_INVALID");
    expect(codeOf(`tool-outputs/${ID}/.hidden`)).toBe("SPOOL_E_REF_INVALID");
    expect(codeOf("tool-outputs/short/stdout.txt")).toBe("SPOOL_E_REF_INVALID");
    expect(codeOf("")).toBe("SPOOL_E_REF_INVALID");
    expect(codeOf("has space")).toBe("SPOOL_E_REF_INVALID");
  });

  it("refuses links at every level", () => {
    // a link as the file
    fs.symlinkSync(path.join(root, "secret"), path.join(root, "tool-outputs", ID, "stderr.txt"));
    expect(codeOf(`tool-outputs/${ID}/stderr.txt`)).toBe("SPOOL_E_REF_OUTSIDE_ROOT");
    // a link as the capture directory
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "spool-elsewhere-"));
    fs.writeFileSync(path.join(elsewhere, "stdout.txt"), "x");
    fs.symlinkSync(elsewhere, path.join(root, "tool-outputs", OTHER));
    expect(codeOf(`tool-outputs/${OTHER}/stdout.txt`)).toBe("SPOOL_E_REF_OUTSIDE_ROOT");
    expect(codeOf(OTHER)).toBe("SPOOL_E_REF_OUTSIDE_ROOT");
    // a link as tool-outputs
    fs.renameSync(path.join(root, "tool-outputs"), path.join(root, "real-outputs"));
    fs.symlinkSync(path.join(root, "real-outputs"), path.join(root, "tool-outputs"));
    expect(codeOf(`tool-outputs/${ID}/stdout.txt`)).toBe("SPOOL_E_REF_OUTSIDE_ROOT");
    expect(codeOf("call-1")).toBe("SPOOL_E_REF_OUTSIDE_ROOT");
    fs.rmSync(elsewhere, { recursive: true, force: true });
  });

  it("reports what does not exist", () => {
    expect(codeOf(`tool-outputs/${ID}/stderr.txt`)).toBe("SPOOL_E_REF_NOT_FOUND");
    expect(codeOf(`tool-outputs/${ID}/stderr.live`)).toBe("SPOOL_E_REF_NOT_FOUND");
    expect(codeOf(`tool-outputs/${OTHER}/stdout.txt`)).toBe("SPOOL_E_REF_NOT_FOUND");
    expect(codeOf(OTHER)).toBe("SPOOL_E_REF_NOT_FOUND");
    expect(codeOf("no-such-call")).toBe("SPOOL_E_REF_NOT_FOUND");
  });
});
