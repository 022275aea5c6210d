import { spawn } from "node:child_process";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import type { ChildEvents, SpawnChild } from "../src/child-spawn.js";
import { createManualClock } from "../src/clock.js";
import {
  groupAlive,
  processAlive,
  processStart,
  readProcStat,
  signalGroup,
} from "../src/process-group.js";
import { runProcess } from "../src/process-runner.js";

const hasProc = readProcStat(process.pid) !== null;
const groups: number[] = [];
afterEach(() => {
  for (const pgid of groups.splice(0)) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // gone
    }
  }
});

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("not reached in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(!hasProc)("process groups from /proc", () => {
  it("a zombie is dead, though its /proc entry is there (#12 item 6)", async () => {
    // `sleep 0` exits at once under a parent (the exec'd sleep 5) that never reaps it.
    const parent = spawn("sh", ["-c", "sleep 0 & echo $!; exec sleep 5"], {
      detached: true,
      stdio: ["ignore", "pipe", "ignore"],
    });
    groups.push(parent.pid!);
    const zombie = Number(
      await new Promise<string>((resolve) =>
        parent.stdout!.once("data", (d) => resolve(String(d))),
      ),
    );
    await until(() => readProcStat(zombie)?.state === "Z");
    const start = processStart(zombie);
    expect(start).not.toBeNull();
    expect(processAlive(zombie, start)).toBe(false);
    expect(processAlive(parent.pid!, processStart(parent.pid!))).toBe(true);
  });

  it("a group is ours by its leader's start time, and lives on after the leader exits", async () => {
    const leader = spawn("sh", ["-c", "sleep 30 & echo $!"], {
      detached: true,
      stdio: ["ignore", "pipe", "ignore"],
    });
    groups.push(leader.pid!);
    // Listened for from the start: the leader may exit before its output is read.
    const exited = new Promise((resolve) => leader.once("exit", resolve));
    const group = { pgid: leader.pid!, leaderStart: processStart(leader.pid!) };
    const member = Number(
      await new Promise<string>((resolve) =>
        leader.stdout!.once("data", (d) => resolve(String(d))),
      ),
    );
    await exited;
    expect(readProcStat(member)?.pgrp).toBe(group.pgid);
    expect(groupAlive(group)).toBe(true);
    expect(groupAlive({ ...group, leaderStart: "1" })).toBe(true); // leader gone: its group is
    expect(signalGroup(group, "SIGKILL")).toBe(true);
    await until(() => !groupAlive(group));
    expect(signalGroup(group, "SIGTERM")).toBe(false);
  });

  it("a live leader with another start time is not the recorded group: never signalled", async () => {
    const other = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
    groups.push(other.pid!);
    await until(() => readProcStat(other.pid!) !== null);
    const forged = { pgid: other.pid!, leaderStart: "1" };
    expect(groupAlive(forged)).toBe(false);
    expect(signalGroup(forged, "SIGKILL")).toBe(false);
    expect(processAlive(other.pid!, null)).toBe(true);
  });
});

describe("escalation goes on after the leader exits (#12 item 5)", () => {
  function fakeRun(groupLeft: { alive: boolean }) {
    const clock = createManualClock();
    const signals: string[] = [];
    let events!: ChildEvents;
    const spawnFake: SpawnChild = (_request, e) => {
      events = e;
      return {
        stdout: new PassThrough(),
        stderr: new PassThrough(),
        signal: (s) => void signals.push(s),
        group: () => ({ pgid: 4242, leaderStart: "77" }),
        groupAlive: () => groupLeft.alive,
      };
    };
    const run = runProcess({
      request: { command: "x", args: [], env: {}, stdin: "ignore" },
      startedAt: 0,
      timeoutMs: null,
      killGraceMs: 2000,
      clock,
      spawn: spawnFake,
    });
    events.spawned(4242);
    let settled = false;
    void run.settled.then(() => {
      settled = true;
    });
    const flush = () => new Promise((r) => setImmediate(r));
    return { clock, signals, events, run, settled: () => settled, flush };
  }

  it("SIGKILL at the end of the grace reaches what is left of the group", async () => {
    const left = { alive: true };
    const t = fakeRun(left);
    expect(t.run.snapshot().pidStart).toBe("77");
    t.run.cancel("SIGTERM");
    t.events.exited(null, "SIGTERM"); // the leader died; a member ignored SIGTERM
    await t.flush();
    expect(t.settled()).toBe(false);
    t.clock.advance(1999);
    expect(t.signals).toEqual(["SIGTERM"]);
    t.clock.advance(1);
    expect(t.signals).toEqual(["SIGTERM", "SIGKILL"]);
    await t.flush();
    expect(t.settled()).toBe(true);
  });

  it("a group that empties within the grace gets no SIGKILL; no cancel, no wait", async () => {
    const left = { alive: true };
    const t = fakeRun(left);
    t.run.cancel("SIGTERM");
    t.events.exited(null, "SIGTERM");
    left.alive = false;
    t.clock.advance(50);
    await t.flush();
    expect(t.settled()).toBe(true);
    t.clock.advance(5000);
    expect(t.signals).toEqual(["SIGTERM"]);

    const quiet = fakeRun({ alive: true });
    quiet.events.exited(0, null);
    await quiet.flush();
    expect(quiet.settled()).toBe(true);
    expect(quiet.signals).toEqual([]);
  });

  it("a cancel after the leader exited signals what is left and escalates", async () => {
    const left = { alive: true };
    const t = fakeRun(left);
    t.events.exited(0, null); // the leader is done; a descendant holds the pipe
    await t.flush();
    t.run.cancel("SIGTERM");
    expect(t.signals).toEqual(["SIGTERM"]);
    t.clock.advance(2000);
    expect(t.signals).toEqual(["SIGTERM", "SIGKILL"]);
    expect(t.run.snapshot().state).toBe("exited"); // the leader's own exit stays as observed
  });
});
