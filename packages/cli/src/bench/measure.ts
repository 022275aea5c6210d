/**
 * Run one benchmark command and measure it: wall time (monotonic clock), CPU seconds of
 * the whole process tree and its largest process's peak RSS (GNU `time`, when installed),
 * and the peak RSS (`VmHWM`) of one chosen process of the tree, polled from `/proc`.
 *
 * @example
 * ```ts
 * import { measure } from "./measure.js";
 * const m = await measure(["sh", "-c", "yes | head -c 1G > /tmp/x"], { rssOf: null });
 * m.wallS; // 0.9
 * ```
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

/** Which process's peak RSS is "the capture's": the command itself, one found by name, or none. */
export type RssTarget = "command" | { readonly name: string } | null;

export interface MeasureOptions {
  readonly rssOf: RssTarget;
  readonly env?: NodeJS.ProcessEnv;
  /** Where the command's stdout goes. @default "ignore" */
  readonly stdout?: "ignore" | "pipe";
  /** How often `/proc` is polled. @default 25 */
  readonly pollMs?: number;
}

export interface Measurement {
  readonly wallS: number;
  /** User + system seconds of every process of the tree; null without GNU time. */
  readonly cpuS: number | null;
  /** Peak RSS of the chosen process (KiB), null when none was chosen or seen. */
  readonly peakRssKiB: number | null;
  /** Largest peak RSS of any process of the tree (GNU time's %M, KiB), or null. */
  readonly treeMaxRssKiB: number | null;
  readonly exitCode: number;
  readonly stdout: string;
}

const GNU_TIME = "/usr/bin/time";

export async function measure(
  argv: readonly string[],
  options: MeasureOptions,
): Promise<Measurement> {
  const timed = existsSync(GNU_TIME);
  const dir = mkdtempSync(path.join(tmpdir(), "spool-measure-"));
  const timeOut = path.join(dir, "time");
  const full = timed ? [GNU_TIME, "-f", "%U %S %M", "-o", timeOut, "--", ...argv] : [...argv];
  const started = process.hrtime.bigint();
  const child = spawn(full[0]!, full.slice(1), {
    stdio: ["ignore", options.stdout ?? "ignore", "inherit"],
    env: options.env ?? process.env,
  });
  let stdout = "";
  child.stdout?.setEncoding("utf8").on("data", (s: string) => {
    stdout += s;
  });
  const peaks = new Map<number, { name: string; depth: number; hwm: number }>();
  const poll = () => {
    if (child.pid !== undefined) walk(child.pid, 0, peaks);
  };
  const timer = setInterval(poll, options.pollMs ?? 25);
  const exitCode = await new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve(code ?? 1));
  });
  const wallS = Number(process.hrtime.bigint() - started) / 1e9;
  clearInterval(timer);
  let cpuS: number | null = null;
  let treeMaxRssKiB: number | null = null;
  if (timed) {
    const [user, sys, rss] = readFileSync(timeOut, "utf8")
      .trim()
      .split(/\s+/)
      .slice(-3)
      .map(Number);
    if (user !== undefined && sys !== undefined) cpuS = user + sys;
    treeMaxRssKiB = rss ?? null;
  }
  rmSync(dir, { recursive: true, force: true });
  return {
    wallS,
    cpuS,
    peakRssKiB: pick(peaks, options.rssOf, timed),
    treeMaxRssKiB,
    exitCode,
    stdout,
  };
}

function pick(
  peaks: Map<number, { name: string; depth: number; hwm: number }>,
  target: RssTarget,
  timed: boolean,
): number | null {
  if (target === null) return null;
  let best: number | null = null;
  for (const p of peaks.values()) {
    const match = target === "command" ? p.depth === (timed ? 1 : 0) : p.name === target.name;
    if (match) best = Math.max(best ?? 0, p.hwm);
  }
  return best;
}

/** Record the VmHWM of `pid` and its descendants (Linux only; elsewhere nothing is seen). */
function walk(
  pid: number,
  depth: number,
  peaks: Map<number, { name: string; depth: number; hwm: number }>,
) {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return;
  }
  const name = /^Name:\s*(.*)$/m.exec(status)?.[1] ?? "";
  const hwm = Number(/^VmHWM:\s*(\d+)/m.exec(status)?.[1] ?? 0);
  const seen = peaks.get(pid);
  peaks.set(pid, { name, depth, hwm: Math.max(seen?.hwm ?? 0, hwm) });
  let children: string;
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8");
  } catch {
    return;
  }
  for (const c of children.split(" ")) if (c.trim()) walk(Number(c), depth + 1, peaks);
}

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
