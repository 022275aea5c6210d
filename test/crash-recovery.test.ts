/**
 * SIGKILL `spool run` (the supervisor) at random points of a 64 MiB capture: every
 * leftover reconciles to partial/crash (never complete), every receipt is valid
 * against the schema, committed bytes are a prefix of the true output, and recovery is
 * idempotent.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ReceiptSchema } from "@spool/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSpool, SPOOL } from "./fixtures/cli.js";
import { GEN, pattern } from "./fixtures/pattern.js";

const TOTAL = 64 * 1024 * 1024;
const KILLS = 10;
const LIMITS = ["--max-bytes", "1GiB", "--root-quota", "64GiB"];
let root: string;
let truth: Buffer;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "spool-crash-"));
  truth = pattern(TOTAL);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/**
 * Start `spool run` on the generator with its state log on stderr. When it logs the
 * spill (storage opened, bytes start flowing to disk), SIGKILL it after `delayMs`
 * (null: let it finish). Resolves with how it ended and the log's spill→finalize span.
 */
function runAndKill(delayMs: number | null) {
  const child = spawn(
    process.execPath,
    [
      SPOOL,
      "run",
      "--root",
      root,
      ...LIMITS,
      "--log",
      "stderr",
      "--",
      process.execPath,
      GEN,
      String(TOTAL),
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let timer: NodeJS.Timeout | null = null;
  const times: Record<string, number> = {};
  let buffered = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => {
    buffered += text;
    let nl = buffered.indexOf("\n");
    while (nl !== -1) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      nl = buffered.indexOf("\n");
      let entry: { event?: string; time?: number };
      try {
        entry = JSON.parse(line);
      } catch {
        continue;
      }
      if (entry.event && entry.time) times[entry.event] = entry.time;
      if (entry.event === "spill" && delayMs !== null) {
        timer = setTimeout(() => child.kill("SIGKILL"), delayMs);
      }
    }
  });
  return new Promise<{ signal: NodeJS.Signals | null; window: number }>((resolve) => {
    child.once("exit", (_code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ signal, window: (times.finalize ?? 0) - (times.spill ?? 0) });
    });
  });
}

function captureDirs(): string[] {
  const outputs = path.join(root, "tool-outputs");
  return fs.existsSync(outputs) ? fs.readdirSync(outputs).map((id) => path.join(outputs, id)) : [];
}

function checkPrefix(file: string) {
  const kept = fs.readFileSync(file);
  expect(kept.equals(truth.subarray(0, kept.byteLength))).toBe(true);
  return kept.byteLength;
}

describe("crash recovery", () => {
  it(`${KILLS} SIGKILLs at random points of a 64 MiB capture`, async () => {
    // One undisturbed run measures how long a capture takes here.
    const reference = await runAndKill(null);
    expect(reference.signal).toBeNull();
    const [refDir] = captureDirs();
    const ref = ReceiptSchema.parse(
      JSON.parse(fs.readFileSync(path.join(refDir!, "receipt.json"), "utf8")),
    );
    expect(ref.capture.state).toBe("complete");
    expect(ref.streams.stdout.committed).toBe(TOTAL);
    fs.rmSync(refDir!, { recursive: true });

    const crashed: Array<{ at: number; committed: number }> = [];
    for (let i = 0; i < KILLS; i++) {
      // Spread over the run: early (before and around the spill), middle, near the end.
      const at = Math.round(((i + Math.random()) / KILLS) * reference.window);
      const { signal } = await runAndKill(at);
      const before = new Set(captureDirs());
      const ls = await runSpool(["ls", "--json", "--root", root]);
      expect(ls.code).toBe(0);
      for (const dir of before) {
        const receipt = ReceiptSchema.parse(
          JSON.parse(fs.readFileSync(path.join(dir, "receipt.json"), "utf8")),
        );
        if (signal === "SIGKILL" && receipt.capture.state !== "complete") {
          expect(receipt.capture.state).toBe("partial");
          expect(receipt.capture.reasons).toContain("crash");
        } else if (signal === "SIGKILL") {
          // Killed after it had published its own receipt (a loaded machine stretches the
          // time between publishing and exiting): complete only with every byte kept.
          expect(receipt.streams.stdout.committed).toBe(TOTAL);
          expect(checkPrefix(receipt.streams.stdout.path!)).toBe(TOTAL);
        } else {
          expect(receipt.capture.state).toBe("complete"); // the kill came after the end
        }
        for (const name of ["stdout", "stderr"] as const) {
          const s = receipt.streams[name];
          if (s.path === null) continue;
          expect(s.path.startsWith(dir)).toBe(true);
          const size = checkPrefix(s.path);
          expect(s.committed).toBe(size);
          expect(s.retained).toEqual({ start: 0, end: size });
          expect(s.committed).toBeLessThanOrEqual(s.produced);
        }
        const listed = JSON.parse(ls.stdout).find(
          (c: { captureId: string }) => c.captureId === path.basename(dir),
        );
        expect(listed.capture).toBe(receipt.capture.state);
        if (signal === "SIGKILL") crashed.push({ at, committed: receipt.streams.stdout.committed });
      }
      // Idempotent: a second recovery finds nothing to do and changes nothing.
      const snapshot = [...before].map((d) =>
        fs.readFileSync(path.join(d, "receipt.json"), "utf8"),
      );
      const again = await runSpool(["recover", "--json", "--root", root]);
      expect(JSON.parse(again.stdout).recovered).toEqual([]);
      expect([...before].map((d) => fs.readFileSync(path.join(d, "receipt.json"), "utf8"))).toEqual(
        snapshot,
      );
      for (const dir of before) fs.rmSync(dir, { recursive: true });
    }
    // Kills land after the spill and mostly before the end: leftovers to recover.
    expect(crashed.length).toBeGreaterThanOrEqual(KILLS / 2);
    expect(crashed.some((c) => c.committed > 0)).toBe(true);
    console.info(
      `spill→finalize ${reference.window} ms; crash leftovers (kill ms after spill → committed bytes): ${crashed
        .map((c) => `${c.at}→${c.committed}`)
        .join(", ")}`,
    );
  }, 120_000);
});
