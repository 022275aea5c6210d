import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ReceiptSchema } from "@spool/core";
import { currentOwner, readCaptureState, recoverRoot } from "@spool/sinks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const LIVE = "LLLLLLLLLLLLLLLLLLLLLLLL";
const DEAD = "DDDDDDDDDDDDDDDDDDDDDDDD";
const BARE = "BBBBBBBBBBBBBBBBBBBBBBBB";
let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "spool-recovery-"));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function makeCapture(id: string, owner: object | null) {
  const dir = path.join(root, "tool-outputs", id);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (owner) fs.writeFileSync(path.join(dir, "owner.json"), JSON.stringify(owner));
  fs.writeFileSync(path.join(dir, "stdout.live"), "one\ntwo\nthr");
  fs.writeFileSync(path.join(dir, "stderr.live"), "");
  fs.writeFileSync(path.join(dir, ".live.json.abc.tmp"), "torn");
  return dir;
}

describe("recovery", () => {
  it("recovers dead captures once, leaves live ones alone", () => {
    const exited = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
    const liveDir = makeCapture(LIVE, { ...currentOwner(), startedAt: "2025-01-01T00:00:00Z" });
    const deadDir = makeCapture(DEAD, { pid: Number(exited.stdout.toString()), start: "1" });
    const bareDir = makeCapture(BARE, null); // no owner.json: judged by its age

    const now = Date.now();
    expect(readCaptureState(bareDir, { now: () => now }).condition).toBe("live");
    const later = () => now + 120_000;
    expect(readCaptureState(liveDir, { now: later }).condition).toBe("live");
    const dead = readCaptureState(deadDir, { now: later });
    expect(dead.condition).toBe("crashed");
    expect(dead.receipt.capture).toEqual({ state: "partial", reasons: ["crash"] });
    expect(dead.receipt.streams.stdout).toMatchObject({
      committed: 11,
      retained: { start: 0, end: 11 },
      lines: 3,
      endsWithNewline: false,
      ref: `tool-outputs/${DEAD}/stdout.live`,
    });
    expect(fs.existsSync(path.join(deadDir, "receipt.json"))).toBe(false); // reading writes nothing

    const report = recoverRoot(root, { now: later });
    expect(report.recovered.sort()).toEqual([BARE, DEAD].sort());
    expect(report.live).toEqual([LIVE]);
    expect(fs.existsSync(path.join(liveDir, "receipt.json"))).toBe(false);
    expect(fs.existsSync(path.join(liveDir, ".live.json.abc.tmp"))).toBe(true);
    expect(fs.existsSync(path.join(deadDir, ".live.json.abc.tmp"))).toBe(false);
    const published = ReceiptSchema.parse(
      JSON.parse(fs.readFileSync(path.join(deadDir, "receipt.json"), "utf8")),
    );
    expect(published.capture.state).toBe("partial");
    expect(fs.readFileSync(path.join(deadDir, "stdout.live"), "utf8")).toBe("one\ntwo\nthr");

    const again = recoverRoot(root, { now: later });
    expect(again.recovered).toEqual([]);
    expect(again.final.sort()).toEqual([BARE, DEAD].sort());
  });

  it("never promotes a crashed capture whose streams were already renamed", () => {
    const exited = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
    const dir = makeCapture(DEAD, { pid: Number(exited.stdout.toString()), start: "1" });
    fs.renameSync(path.join(dir, "stdout.live"), path.join(dir, "stdout.txt"));
    const state = readCaptureState(dir);
    expect(state.receipt.capture.state).toBe("partial");
    expect(state.receipt.streams.stdout.ref).toBe(`tool-outputs/${DEAD}/stdout.txt`);
  });
});
