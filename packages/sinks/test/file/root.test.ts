import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { nodeFs } from "@spool/sinks/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makePrivateDirs } from "../../src/file/root.js";

let base: string;
beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "spool-root-"));
});
afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

/** A file system where another process makes `raced` just before we do. */
function racedAt(raced: string, code = "EEXIST") {
  return {
    ...nodeFs,
    mkdirSync(p: string, options: { mode: number }) {
      if (p !== raced) return nodeFs.mkdirSync(p, options);
      if (code === "EEXIST") fs.mkdirSync(p, { mode: 0o700 });
      throw Object.assign(new Error(`${code}: mkdir '${p}'`), { code });
    },
  };
}

describe("makePrivateDirs", () => {
  it("makes each missing directory 0700 and returns them outermost first", () => {
    const dir = path.join(base, "a", "b", "c");
    expect(makePrivateDirs(dir)).toEqual([path.join(base, "a"), path.join(base, "a", "b"), dir]);
    for (const p of [path.join(base, "a"), path.join(base, "a", "b"), dir])
      expect(fs.statSync(p).mode & 0o777).toBe(0o700);
  });

  it("a directory another process made first is not an error, and not counted as ours", () => {
    const dir = path.join(base, "a", "b");
    // Two captures starting together on a new root: the other one's mkdir wins the race.
    expect(makePrivateDirs(dir, racedAt(path.join(base, "a")))).toEqual([dir]);
    expect(fs.statSync(dir).isDirectory()).toBe(true);
    expect(makePrivateDirs(path.join(base, "x"), racedAt(path.join(base, "x")))).toEqual([]);
  });

  it("any other failure is thrown", () => {
    const dir = path.join(base, "a");
    expect(() => makePrivateDirs(dir, racedAt(dir, "EACCES"))).toThrow(/EACCES/);
    expect(fs.existsSync(dir)).toBe(false);
  });
});
