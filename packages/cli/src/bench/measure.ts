/**
 * Run a command as a real child and measure it: wall time, and (for `spool` itself)
 * peak RSS and CPU as the process reports them at exit through `SPOOL_RUSAGE_FILE`.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const SPOOL_BIN = fileURLToPath(new URL("../../bin/spool.js", import.meta.url));

export interface Measured {
  status: number | null;
  stdout: Buffer;
  stderr: Buffer;
  wallMs: number;
  /** Peak RSS in KiB, when the process reported it. */
  maxRssKiB: number | null;
  cpuMs: number | null;
}

export function measure(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<Measured> {
  const dir = mkdtempSync(path.join(tmpdir(), "spool-measure-"));
  const usage = path.join(dir, "usage.json");
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], {
      env: { ...process.env, ...env, SPOOL_RUSAGE_FILE: usage },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.on("error", reject);
    child.on("close", (status) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      let maxRssKiB: number | null = null;
      let cpuMs: number | null = null;
      try {
        const u = JSON.parse(readFileSync(usage, "utf8")) as { maxRssKiB: number; cpuMs: number };
        maxRssKiB = u.maxRssKiB;
        cpuMs = u.cpuMs;
      } catch {
        // the command did not report (not spool, or it died)
      }
      rmSync(dir, { recursive: true, force: true });
      resolve({
        status,
        stdout: Buffer.concat(out),
        stderr: Buffer.concat(err),
        wallMs,
        maxRssKiB,
        cpuMs,
      });
    });
  });
}

/** `spool ARGS` through the built binary. */
export const measureSpool = (args: readonly string[], env?: NodeJS.ProcessEnv) =>
  measure(process.execPath, [SPOOL_BIN, ...args], env);
