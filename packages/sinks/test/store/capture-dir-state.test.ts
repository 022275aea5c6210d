import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readProcStat } from "@spool/core/process-group";
import { currentOwner, readCaptureState } from "@spool/sinks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const ID = "SSSSSSSSSSSSSSSSSSSSSSSS";
let root: string;
let dir: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "spool-state-"));
  dir = path.join(root, "tool-outputs", ID);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(dir, "stdout.live"), "abc\n");
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** A pid that has certainly exited, as an owner record. */
function deadOwner() {
  const exited = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return { pid: Number(exited.stdout.toString()), start: "1" };
}

/** The crash receipt of the capture as it lies, to be published as receipt.json. */
function receiptOf(at: string) {
  fs.writeFileSync(path.join(dir, "owner.json"), JSON.stringify(deadOwner()));
  const receipt = readCaptureState(dir).receipt;
  fs.rmSync(path.join(dir, "owner.json"));
  return { ...receipt, process: { ...receipt.process, startedAt: at } };
}

describe("readCaptureState: one rule for every reader", () => {
  it("an owner that published and exited is final, never crashed", () => {
    const receipt = receiptOf("2025-01-01T00:00:00.000Z");
    fs.writeFileSync(path.join(dir, "receipt.json"), JSON.stringify(receipt));
    fs.writeFileSync(path.join(dir, "owner.json"), JSON.stringify(deadOwner()));
    const state = readCaptureState(dir);
    expect(state.condition).toBe("final");
    expect(state.receipt.process.startedAt).toBe("2025-01-01T00:00:00.000Z");
  });

  it("a live owner is live; the same files with the owner gone are crashed", () => {
    fs.writeFileSync(path.join(dir, "owner.json"), JSON.stringify(currentOwner()));
    expect(readCaptureState(dir)).toMatchObject({
      condition: "live",
      owner: { pid: process.pid },
      receipt: { capture: { state: "pending" } },
    });
    fs.writeFileSync(path.join(dir, "owner.json"), JSON.stringify(deadOwner()));
    expect(readCaptureState(dir)).toMatchObject({
      condition: "crashed",
      receipt: {
        capture: { state: "partial", reasons: ["crash"] },
        streams: { stdout: { committed: 4, ref: `tool-outputs/${ID}/stdout.live` } },
      },
    });
  });

  it("an owner that is a zombie nobody reaps is dead: crashed, process unknown (#12 items 4, 6)", async () => {
    // The parent outlives the poll below (a loaded machine once let it exit first, taking
    // the zombie with it), and is killed at the end.
    const parent = spawn("sh", ["-c", "sleep 0 & echo $!; exec sleep 60"], {
      detached: true,
      stdio: ["ignore", "pipe", "ignore"],
    });
    try {
      const zombie = Number(
        await new Promise<string>((r) => parent.stdout!.once("data", (d) => r(String(d)))),
      );
      const end = Date.now() + 30_000;
      while (readProcStat(zombie)?.state !== "Z" && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(readProcStat(zombie)?.state, "the child became a zombie").toBe("Z");
      const owner = { pid: zombie, start: readProcStat(zombie)!.start };
      fs.writeFileSync(path.join(dir, "owner.json"), JSON.stringify(owner));
      const state = readCaptureState(dir);
      expect(state.condition).toBe("crashed");
      expect(state.receipt.process).toMatchObject({ state: "unknown", exitCode: null });
    } finally {
      try {
        process.kill(-parent.pid!, "SIGKILL");
      } catch {
        // Already gone: a failure above says why.
      }
    }
  });

  it("follows no link in place of receipt.json: refuses it, saying so", () => {
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "spool-elsewhere-"));
    fs.writeFileSync(
      path.join(elsewhere, "receipt.json"),
      JSON.stringify(receiptOf("2030-01-01T00:00:00.000Z")),
    );
    fs.symlinkSync(path.join(elsewhere, "receipt.json"), path.join(dir, "receipt.json"));
    fs.writeFileSync(path.join(dir, "owner.json"), JSON.stringify(deadOwner()));
    expect(() => readCaptureState(dir)).toThrow(/receipt\.json is a symbolic link; refusing it/);
    fs.rmSync(elsewhere, { recursive: true, force: true });
  });
});
