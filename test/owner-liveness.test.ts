/**
 * One liveness rule for every command: a foreground `spool run` SIGKILLed mid-capture
 * (no supervisor, no job.json, only owner.json) is crashed at once for `status`, `wait`,
 * `tail --follow`, `ls` and `recover`, and they all report the same receipt.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { type Receipt, ReceiptSchema } from "@spool/core";
import { afterAll, describe, expect, it } from "vitest";
import {
  killGroups,
  nodeCmd,
  SPOOL_BIN,
  spool,
  spoolAsync,
  tempRoot,
  waitGone,
} from "./helpers.js";

const groups: number[] = [];
afterAll(() => killGroups(groups));

/** The live receipt of `ref` once `ok` holds for it (bounded: 400 polls). */
async function untilLive(root: string, ref: string, ok: (r: Receipt) => boolean): Promise<Receipt> {
  for (let i = 0; i < 400; i++) {
    const r = await spoolAsync(["status", "--root", root, ref]);
    if (r.status === 0) {
      const receipt = JSON.parse(r.stdout.toString()) as Receipt;
      if (ok(receipt)) return receipt;
    }
  }
  throw new Error(`${ref} never became live`);
}

describe("a SIGKILLed foreground spool run", () => {
  it("is partial/crash for status, wait, tail --follow, ls and recover, promptly and alike", async () => {
    const root = tempRoot();
    // 64 KiB at once (past the preview: it spills), then a line every 20 ms, for ever.
    const script =
      'process.stdout.write("x".repeat(65535) + "\\n"); setInterval(() => process.stdout.write("tick\\n"), 20)';
    const run = spawn(
      process.execPath,
      [
        SPOOL_BIN,
        "run",
        "--root",
        root,
        "--call-id",
        "doomed",
        "--",
        process.execPath,
        "-e",
        script,
      ],
      { stdio: "ignore" },
    );
    const exited = new Promise((resolve) => run.once("exit", resolve));
    const live = await untilLive(root, "doomed", (r) => r.streams.stdout.committed >= 65536);
    groups.push(live.process.pid!);
    expect(live.process.state).toBe("running");
    expect(live.capture.state).toBe("pending");
    const follow = spoolAsync(["tail", "--root", root, "--follow", "-n", "1", "doomed"]);

    run.kill("SIGKILL");
    await exited;
    const t0 = Date.now();
    const waited = await spoolAsync(["wait", "--root", root, "doomed", "--timeout", "60"]);
    // Before: wait saw no job.json, took the capture for running and stopped only at --timeout.
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(waited.status, waited.stderr).toBe(70);
    expect(waited.stderr).toMatch(/died; capture partial \(crash\)/);
    const crashed = ReceiptSchema.parse(JSON.parse(waited.stdout.toString()));
    expect(crashed.captureId).toBe(live.captureId);
    expect(crashed.capture).toEqual({ state: "partial", reasons: ["crash"] });
    expect(crashed.process.exitCode).toBeNull();
    expect(crashed.streams.stdout.committed).toBeGreaterThanOrEqual(65536);

    const status = spool(["status", "--root", root, live.captureId]);
    expect(status.status).toBe(0);
    expect(JSON.parse(status.stdout.toString())).toEqual(crashed);

    const followed = await follow;
    expect(followed.status).toBe(0);
    expect(followed.stderr).toMatch(/died; capture partial \(crash\)/);
    const dir = path.join(root, "tool-outputs", live.captureId);
    const kept = fs.readFileSync(path.join(root, crashed.streams.stdout.ref!));
    expect(kept.byteLength).toBe(crashed.streams.stdout.committed);
    expect(kept.toString().endsWith(followed.stdout.toString())).toBe(true);

    // Reading wrote nothing; recover publishes exactly what status and wait reported.
    expect(fs.existsSync(path.join(dir, "receipt.json"))).toBe(false);
    const recovered = spool(["recover", "--root", root, "--json"]);
    expect(JSON.parse(recovered.stdout.toString()).recovered).toEqual([live.captureId]);
    expect(JSON.parse(fs.readFileSync(path.join(dir, "receipt.json"), "utf8"))).toEqual(crashed);
    const listed = JSON.parse(spool(["ls", "--root", root, "--json"]).stdout.toString());
    expect(listed).toMatchObject([
      { captureId: live.captureId, condition: "final", capture: "partial", reasons: ["crash"] },
    ]);
    // Once recover has stored the crash receipt, wait says the same (before: exit 1, silent).
    const again = spool(["wait", "--root", root, "doomed"]);
    expect(again.status, again.stderr).toBe(70);
    expect(again.stderr).toMatch(
      /died; capture partial \(crash\), the job's exit status is unknown/,
    );
    expect(JSON.parse(again.stdout.toString())).toEqual(crashed);
  });
});

describe("a job whose supervisor is SIGKILLed while its child runs", () => {
  for (const first of ["nothing", "ls", "recover"] as const) {
    it(`wait exits 70 with a message after ${first}`, async () => {
      const root = tempRoot();
      const started = spool([
        "start",
        "--root",
        root,
        "--",
        ...nodeCmd("setInterval(() => {}, 1000)"),
      ]);
      expect(started.status, started.stderr).toBe(0);
      const id = (JSON.parse(started.stdout.toString()) as Receipt).captureId;
      const job = JSON.parse(
        fs.readFileSync(path.join(root, "tool-outputs", id, "job.json"), "utf8"),
      ) as { supervisorPid: number; pgid: number };
      groups.push(job.pgid);
      process.kill(job.supervisorPid, "SIGKILL");
      await waitGone(job.supervisorPid);
      if (first !== "nothing") expect(spool([first, "--root", root]).status).toBe(0);
      const waited = spool(["wait", "--root", root, id]);
      // Before: 70 before ls or recover, 1 with no message after them.
      expect(waited.status, waited.stderr).toBe(70);
      expect(waited.stderr).toMatch(
        /died; capture partial \(crash\), the job's exit status is unknown/,
      );
    });
  }
});
