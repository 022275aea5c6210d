/**
 * Run one benchmark command as a real child and measure it, every time in milliseconds:
 * wall time (monotonic clock); CPU time of the whole process tree and its largest
 * process's peak RSS (GNU `time`, when installed and asked for); the peak RSS (`VmHWM`)
 * of one chosen process of the tree, polled from `/proc`; and what `spool` reports of
 * itself at exit (`SPOOL_RUSAGE_FILE`: peak RSS and CPU, worker threads included).
 *
 * @example
 * ```ts
 * import { measure } from "./measure.js";
 * const m = await measure(["sh", "-c", "yes | head -c 1G > /tmp/x"], { rssOf: null });
 * m.wallMs; // 900
 * ```
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { z } from "zod";

/** Which process's peak RSS is "the capture's": the command itself, one found by name, or none. */
export type RssTarget = "command" | { readonly name: string } | null;

export interface MeasureOptions {
  /** @default null */
  readonly rssOf?: RssTarget;
  /** Added to this process's environment. @default {} */
  readonly env?: NodeJS.ProcessEnv;
  /** Where the command's stdout and stderr go: kept (`pipe`) or not. @default "ignore" */
  readonly output?: "ignore" | "pipe";
  /** Run under GNU time for the tree's CPU and largest RSS. @default true */
  readonly gnuTime?: boolean;
  /** How often `/proc` is polled. @default 25 */
  readonly pollMs?: number;
}

export interface Measurement {
  readonly wallMs: number;
  /** User + system milliseconds of every process of the tree; null without GNU time. */
  readonly cpuMs: number | null;
  /** Peak RSS of the chosen process (KiB), null when none was chosen or seen. */
  readonly peakRssKiB: number | null;
  /** Largest peak RSS of any process of the tree (GNU time's %M, KiB), or null. */
  readonly treeMaxRssKiB: number | null;
  /** What `spool` reported of itself at exit, or null (not spool, or it died). */
  readonly self: { readonly maxRssKiB: number; readonly cpuMs: number } | null;
  /** The exit code (1 when ended by a signal). */
  readonly exitCode: number;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
}

const GNU_TIME = "/usr/bin/time";

export async function measure(
  argv: readonly string[],
  options: MeasureOptions = {},
): Promise<Measurement> {
  const timed = options.gnuTime !== false && existsSync(GNU_TIME);
  const dir = mkdtempSync(path.join(tmpdir(), "spool-measure-"));
  const timeOut = path.join(dir, "time");
  const usage = path.join(dir, "usage.json");
  const full = timed ? [GNU_TIME, "-f", "%U %S %M", "-o", timeOut, "--", ...argv] : [...argv];
  const output = options.output ?? "ignore";
  const started = process.hrtime.bigint();
  const child = spawn(full[0]!, full.slice(1), {
    stdio: ["ignore", output, output === "pipe" ? "pipe" : "inherit"],
    env: { ...process.env, ...options.env, SPOOL_RUSAGE_FILE: usage },
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout?.on("data", (c: Buffer) => out.push(c));
  child.stderr?.on("data", (c: Buffer) => err.push(c));
  const peaks = new Map<number, Peak>();
  const timer = setInterval(() => {
    if (child.pid !== undefined) walk(child.pid, 0, peaks);
  }, options.pollMs ?? 25);
  const exitCode = await new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve(code ?? 1));
  }).finally(() => clearInterval(timer));
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  let cpuMs: number | null = null;
  let treeMaxRssKiB: number | null = null;
  if (timed) {
    const [user, sys, rss] = readFileSync(timeOut, "utf8")
      .trim()
      .split(/\s+/)
      .slice(-3)
      .map(Number);
    if (user !== undefined && sys !== undefined) cpuMs = (user + sys) * 1000;
    treeMaxRssKiB = rss ?? null;
  }
  const self = selfReport(usage);
  rmSync(dir, { recursive: true, force: true });
  return {
    wallMs,
    cpuMs,
    peakRssKiB: pick(peaks, options.rssOf ?? null, timed),
    treeMaxRssKiB,
    self,
    exitCode,
    stdout: Buffer.concat(out),
    stderr: Buffer.concat(err),
  };
}

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

interface Peak {
  name: string;
  depth: number;
  hwm: number;
}

/** What a spool process writes to `SPOOL_RUSAGE_FILE` as it exits. */
const SelfReportSchema = z.object({ maxRssKiB: z.number(), cpuMs: z.number() });

function selfReport(file: string): Measurement["self"] {
  try {
    return SelfReportSchema.parse(JSON.parse(readFileSync(file, "utf8")));
  } catch {
    return null; // the command did not report (not spool, or it died)
  }
}

function pick(peaks: Map<number, Peak>, target: RssTarget, timed: boolean): number | null {
  if (target === null) return null;
  let best: number | null = null;
  for (const p of peaks.values()) {
    const match = target === "command" ? p.depth === (timed ? 1 : 0) : p.name === target.name;
    if (match) best = Math.max(best ?? 0, p.hwm);
  }
  return best;
}

/** Record the VmHWM of `pid` and its descendants (Linux only; elsewhere nothing is seen). */
function walk(pid: number, depth: number, peaks: Map<number, Peak>) {
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
