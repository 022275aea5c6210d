/**
 * SIGKILL at random points (issue #12): 51 kills spread over the foreground `spool run`,
 * a job's supervisor and the job itself (its process group), each at a random delay
 * into a paced 1 MiB capture, each in a root of its own. Every root is reconciled
 * (`recoverRoot`, what `spool recover` runs; a killed job's supervisor publishes itself)
 * to a `receipt.json` that claims nothing it does not have: for each stream,
 * `committed` ≤ the bytes in its file, and those bytes are a prefix of the true output.
 * A crash receipt is never `complete`; a killed job is never reported as a crash. The
 * child's fate as each receipt reports it is tallied and printed. Needs no mounts.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Receipt } from "@spool/core";
import { recoverRoot } from "@spool/sinks";
import { seededRandom } from "@spool/transforms";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pattern } from "./fixtures/pattern.js";
import { killGroups, SPOOL_BIN, tempRoot, waitGone } from "./helpers.js";

const TOTAL = 1024 * 1024;
/**
 * The child: the test pattern (test/fixtures/gen.mjs) paced at 16 KiB every 160 ms, so a
 * capture lasts long enough (≥ 10 s) for the kills to land inside it; it sleeps most of
 * that time, so eight points run at once even on a loaded machine.
 */
const PACED = `
  const line = (i) => String(i).padStart(10, "0") + " abcdefghijklmnopqrstuvwxyz0123456789\\n";
  let s = ""; for (let i = 0; s.length < ${TOTAL}; i++) s += line(i);
  const data = Buffer.from(s.slice(0, ${TOTAL}), "latin1");
  let at = 0;
  const step = () => {
    if (at >= data.length) return;
    const chunk = data.subarray(at, Math.min(data.length, at + 16384)); at += chunk.length;
    if (process.stdout.write(chunk)) setTimeout(step, 160);
    else process.stdout.once("drain", () => setTimeout(step, 160));
  };
  step();`;
const KILLS_PER_MODE = 17;
const AT_ONCE = 8;
type Mode = "run" | "supervisor" | "job";

let root: string;
let truth: Buffer;
const children: number[] = [];
beforeAll(() => {
  root = tempRoot();
  truth = pattern(TOTAL);
});
afterAll(() => {
  killGroups(children);
  fs.rmSync(root, { recursive: true, force: true });
});

/**
 * `spool run` in a root of its own, SIGKILLed `delayMs` after its capture directory
 * appears (the first 16 KiB spill at once). The capture id, or null if it never spilled.
 */
async function killRun(pointRoot: string, delayMs: number): Promise<{ captureId: string | null }> {
  const child = spawn(
    process.execPath,
    [SPOOL_BIN, "run", "--root", pointRoot, "--", process.execPath, "-e", PACED],
    { stdio: ["ignore", "ignore", "ignore"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  const outputs = path.join(pointRoot, "tool-outputs");
  const captureId = () => (fs.existsSync(outputs) ? (fs.readdirSync(outputs)[0] ?? null) : null);
  while (!ended && captureId() === null) await new Promise((r) => setTimeout(r, 10));
  const timer = setTimeout(() => child.kill("SIGKILL"), delayMs);
  await exited;
  clearTimeout(timer);
  return { captureId: captureId() };
}

/** `spool start`, then SIGKILL its supervisor or the job's group after `delayMs`. */
async function killJob(pointRoot: string, mode: "supervisor" | "job", delayMs: number) {
  const launched = await new Promise<string>((resolve) => {
    const c = spawn(
      process.execPath,
      [SPOOL_BIN, "start", "--root", pointRoot, "--", process.execPath, "-e", PACED],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    // The launch receipt, as soon as it is whole: `start` may linger after printing it.
    c.stdout.setEncoding("utf8").on("data", (t: string) => {
      out += t;
      try {
        JSON.parse(out);
        resolve(out);
      } catch {
        // not whole yet
      }
    });
    c.on("close", () => resolve(out));
  });
  const receipt = JSON.parse(launched) as Receipt;
  const dir = path.join(pointRoot, "tool-outputs", receipt.captureId);
  const job = JSON.parse(fs.readFileSync(path.join(dir, "job.json"), "utf8"));
  if (job.pgid) children.push(job.pgid);
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  try {
    if (mode === "supervisor") process.kill(job.supervisorPid, "SIGKILL");
    else process.kill(-job.pgid, "SIGKILL");
  } catch {
    // already ended: the point fell after the end
  }
  return { captureId: receipt.captureId, supervisorPid: job.supervisorPid as number };
}

interface Point {
  root: string;
  mode: Mode;
  delayMs: number;
  captureId: string;
  supervisorPid?: number;
}

/** Check one point's receipt (recovered, or its supervisor's); returns the child's fate. */
function reconcile(point: Point): string {
  const { captureId, mode } = point;
  const file = path.join(point.root, "tool-outputs", captureId, "receipt.json");
  expect(fs.existsSync(file), `${mode} ${captureId}: receipt.json`).toBe(true);
  const stored = JSON.parse(fs.readFileSync(file, "utf8")) as Receipt;
  for (const name of ["stdout", "stderr"] as const) {
    const s = stored.streams[name];
    const size = s.path === null ? 0 : fs.statSync(s.path).size;
    expect(
      s.committed,
      `${mode} ${captureId} ${name}: committed ≤ bytes present`,
    ).toBeLessThanOrEqual(size);
    if (s.path !== null && s.committed > 0) {
      const kept = fs.readFileSync(s.path).subarray(0, s.committed);
      const expected = name === "stdout" ? truth.subarray(0, s.committed) : Buffer.alloc(0);
      expect(kept.equals(expected), `${mode} ${captureId} ${name}: a prefix of the output`).toBe(
        true,
      );
    }
  }
  const out = stored.streams.stdout;
  if (stored.capture.state === "complete") {
    expect(out.committed, `${mode}: complete only when whole`).toBe(out.produced);
  }
  // A killed job is its supervisor's to report; only a dead owner gives a crash receipt.
  if (mode === "job") expect(stored.capture.reasons).not.toContain("crash");
  if (stored.capture.reasons.includes("crash")) expect(stored.capture.state).toBe("partial");
  const p = stored.process!;
  if (p.pid) children.push(p.pid);
  return p.signal ?? (p.exitCode !== null ? `exit ${p.exitCode}` : `${p.state}, status unknown`);
}

describe("SIGKILL at random points", () => {
  it(`${KILLS_PER_MODE * 3} kills across run, supervisor and job reconcile to honest receipts`, async () => {
    const seed = Number(process.env.SPOOL_KILL_SEED ?? Date.now() % 1_000_000);
    const next = seededRandom(seed); // the seed is printed, so a failing run can be replayed
    console.log(`sigkill-points: seed ${seed} (SPOOL_KILL_SEED replays it)`);
    const plan: Array<{ mode: Mode; delayMs: number }> = [];
    for (let i = 0; i < KILLS_PER_MODE; i++) {
      // run: from its spill; supervisor and job: from the launch receipt.
      plan.push({ mode: "run", delayMs: Math.floor(next() * 4000) });
      plan.push({ mode: "supervisor", delayMs: Math.floor(next() * 4000) });
      plan.push({ mode: "job", delayMs: Math.floor(next() * 4000) });
    }
    const points: Point[] = [];
    const runPoint = async (i: number) => {
      const { mode, delayMs } = plan[i]!;
      const pointRoot = path.join(root, `p${i}`);
      const r =
        mode === "run"
          ? await killRun(pointRoot, delayMs)
          : await killJob(pointRoot, mode, delayMs);
      expect(r.captureId, `${mode}: a capture was made`).not.toBeNull();
      const supervisorPid = "supervisorPid" in r ? r.supervisorPid : undefined;
      points.push({ root: pointRoot, mode, delayMs, captureId: r.captureId!, supervisorPid });
    };
    // AT_ONCE points in flight at any time.
    let nextPoint = 0;
    const lanes = Array.from({ length: AT_ONCE }, async () => {
      while (nextPoint < plan.length) await runPoint(nextPoint++);
    });
    await Promise.all(lanes);
    expect(points).toHaveLength(KILLS_PER_MODE * 3);
    // Every killed supervisor is gone (reaped) before recovery looks at its captures, and
    // every supervisor whose job was killed has published.
    for (const p of points) if (p.supervisorPid) await waitGone(p.supervisorPid, false);
    // Recovery (what `spool recover` runs) of every root whose owner died.
    for (const p of points) expect(recoverRoot(p.root).errors).toEqual([]);
    const fates = new Map<string, number>();
    for (const point of points) {
      const key = `${point.mode}: ${reconcile(point)}`;
      fates.set(key, (fates.get(key) ?? 0) + 1);
    }
    console.log(
      `sigkill-points: the child's fate as reported\n${[...fates]
        .sort()
        .map(([k, n]) => `  ${n} × ${k}`)
        .join("\n")}`,
    );
  }, 300_000);
});
