import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  currentOwner,
  processStart,
  recoverRoot,
  removeStaleStaging,
  stagingName,
  stagingOwner,
} from "@spool/sinks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "spool-staging-"));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** A staging directory with one staged file in it, as an import leaves it. */
function stage(name: string): string {
  const dir = path.join(root, name);
  fs.mkdirSync(path.join(dir, "AAAAAAAAAAAAAAAAAAAAAAAA"), { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(dir, "AAAAAAAAAAAAAAAAAAAAAAAA", "stdout.txt"), "staged\n");
  return name;
}

describe("import staging directories", () => {
  it("a name records its owner, and only names made that way are read", () => {
    const owner = currentOwner();
    expect(stagingOwner(stagingName())).toEqual(owner);
    expect(stagingOwner(stagingName({ pid: 7, start: null }))).toEqual({ pid: 7, start: null });
    for (const name of [
      ".spool-import-abc",
      ".spool-import-12-34",
      "spool-import-1-2-abcdefghijkl",
    ])
      expect(stagingOwner(name)).toBeNull();
  });

  it("recover removes those of dead importers and keeps live ones, links and foreign names", async () => {
    const exited = spawnSync("true");
    const sleeper = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      await new Promise((resolve) => sleeper.once("spawn", resolve));
      const sleeperOwner = { pid: sleeper.pid!, start: processStart(sleeper.pid!) };
      const me = currentOwner();
      const dead = [
        stage(stagingName({ pid: exited.pid, start: "1" })),
        // This very pid, started at another time: a reused pid is not the importer.
        stage(stagingName({ pid: me.pid, start: me.start === null ? "1" : `${me.start}9` })),
      ];
      const kept = [
        stage(stagingName(me)),
        stage(stagingName(sleeperOwner)),
        stage(".spool-import-not-ours"),
      ];
      // A link with a stale-looking name is not a directory of ours: left, and not followed.
      const outside = fs.mkdtempSync(path.join(os.tmpdir(), "spool-staging-outside-"));
      fs.writeFileSync(path.join(outside, "keep.txt"), "x");
      const link = stagingName({ pid: exited.pid, start: "2" });
      fs.symlinkSync(outside, path.join(root, link));
      try {
        recoverRoot(root);
        const left = fs.readdirSync(root).sort();
        expect(left).toEqual([...kept, link].sort());
        for (const name of dead) expect(left).not.toContain(name);
        expect(fs.readFileSync(path.join(outside, "keep.txt"), "utf8")).toBe("x");
        expect(removeStaleStaging(root)).toEqual([]);
      } finally {
        fs.rmSync(outside, { recursive: true, force: true });
      }
    } finally {
      sleeper.kill("SIGKILL");
    }
  });

  it("a missing root has nothing to remove", () => {
    expect(removeStaleStaging(path.join(root, "absent"))).toEqual([]);
  });
});
