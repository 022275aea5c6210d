/** Drive the real, built `spool` binary as a child process, the way users do. */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Receipt } from "@spool/core";

export const SPOOL_BIN = fileURLToPath(new URL("../packages/cli/bin/spool.js", import.meta.url));

export interface SpoolResult {
  status: number | null;
  stdout: Buffer;
  stderr: string;
}

export function tempRoot(): string {
  return mkdtempSync(path.join(tmpdir(), "spool-e2e-"));
}

/** Run `spool ARGS` to completion (synchronously). */
export function spool(args: string[], env: NodeJS.ProcessEnv = {}): SpoolResult {
  const r = spawnSync(process.execPath, [SPOOL_BIN, ...args], {
    env: { ...process.env, ...env },
    maxBuffer: 256 * 1024 * 1024,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString() };
}

/** Run `spool ARGS` without blocking the test's event loop. */
export function spoolAsync(args: string[], env: NodeJS.ProcessEnv = {}): Promise<SpoolResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SPOOL_BIN, ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.on("error", reject);
    child.on("close", (status) =>
      resolve({ status, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString() }),
    );
  });
}

/** `spool run --json` and the parsed receipt. */
export function runJson(
  root: string,
  command: string[],
  extra: string[] = [],
): SpoolResult & { receipt: Receipt } {
  const r = spool(["run", "--root", root, "--json", ...extra, "--", ...command]);
  return { ...r, receipt: JSON.parse(r.stdout.toString()) as Receipt };
}

/** A node one-liner as a command. */
export const nodeCmd = (script: string): string[] => [process.execPath, "-e", script];

/** SIGKILL each process group in `pgids` (jobs a test may leave running); gone ones are skipped. */
export function killGroups(pgids: readonly number[]): void {
  for (const pgid of pgids) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/**
 * Resolves once `pid` no longer exists (polled every 20 ms). After 30 s: throws, or, with
 * `required` false, resolves anyway (the caller checks what the process left instead).
 */
export async function waitGone(pid: number, required = true): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    if (Date.now() - t0 > 30_000) {
      if (required) throw new Error(`pid ${pid} did not end`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
