/**
 * The download half of `spool bench serve`: one file, read in the same minutes by `cat`
 * and fetched whole over loopback from `spool serve` and from a bare Node server, round
 * by round (page cache warmed first, so every variant reads memory, not disk).
 *
 * - The baseline is a consumer that hashes what it reads (sha256, in this process, by one
 *   function for both arms): fed by `cat FILE` through a pipe, or by a GET from
 *   `spool serve`. The same work is done on the same bytes in both arms, so the ratio is
 *   what reading through the server costs a reader against reading the file where it
 *   lies. Every hash must be the receipt's.
 * - For transparency, also `cat FILE > /dev/null` (the least any reader of the file does:
 *   one copy, no consumer) against GETs whose bytes a Node client drops, from
 *   `spool serve` and from a bare Node server.
 * - Besides wall time, the CPU seconds of the serving process (`/proc/PID/stat`) and of
 *   `cat` (the shell's `times`) are kept: on a loaded machine they move less.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import * as http from "node:http";
import { MiB } from "./context.js";
import { median } from "./measure.js";

/** One timed fetch or read: wall and CPU milliseconds (CPU of the serving process, or of `cat`). */
export interface Timing {
  readonly ms: number;
  readonly cpuMs: number;
  readonly sha256: string | null;
}

export interface DownloadTarget {
  readonly name: string;
  readonly base: URL;
  readonly target: string;
  readonly headers: Record<string, string>;
  /** The serving process, whose CPU is read from /proc. */
  readonly pid: number;
}

export type Variant = "cat" | "serve" | "bare" | "cat-sha" | "serve-sha";

export interface DownloadResult {
  /** Per variant, the timing of each round. */
  readonly rounds: Record<Variant, Timing[]>;
  /** Every hash equalled the receipt's. */
  readonly identical: boolean;
}

/** `rounds` interleaved rounds of every variant; throws as soon as a hash differs. */
export async function downloadRounds(
  file: string,
  expected: string,
  serve: DownloadTarget,
  bare: DownloadTarget,
  rounds: number,
): Promise<DownloadResult> {
  const out: Record<Variant, Timing[]> = {
    cat: [],
    serve: [],
    bare: [],
    "cat-sha": [],
    "serve-sha": [],
  };
  await catToNull(file); // warm the page cache
  for (let round = 0; round < rounds; round++) {
    out.cat.push(await catToNull(file));
    out.serve.push(await fetchWhole(serve, false));
    out.bare.push(await fetchWhole(bare, false));
    out["cat-sha"].push(await catHashed(file));
    out["serve-sha"].push(await fetchWhole(serve, true));
    for (const v of ["cat-sha", "serve-sha"] as const) {
      // The hashed pair last, back to back: the baseline and the target in the same minute.
      if (out[v][round]?.sha256 !== expected)
        throw new Error(`round ${round}: ${v} sha256 differs`);
    }
  }
  return { rounds: out, identical: true };
}

/** The median of a variant's wall and CPU milliseconds. */
export function medians(timings: readonly Timing[]): { ms: number; cpuMs: number } {
  return { ms: median(timings.map((t) => t.ms)), cpuMs: median(timings.map((t) => t.cpuMs)) };
}

/**
 * The report's rows (medians; the hashed pair against each other, the dropped GETs against
 * `cat > /dev/null`), per-round runs with both ratios, and the two ratios of the medians:
 * `ratio` (the target's: GET | sha256 against cat | sha256) and `rawRatio`.
 */
export function downloadTable(downloads: DownloadResult, size: number) {
  const m = (v: Variant) => medians(downloads.rounds[v]);
  const cat = m("cat");
  const catSha = m("cat-sha");
  const gib = size / (1024 * MiB);
  const row = (variant: string, v: Variant, against: { ms: number }, cpuOf: string | null) => ({
    variant,
    mibps: Number((size / MiB / (m(v).ms / 1000)).toFixed(1)),
    ms: Number(m(v).ms.toFixed(1)),
    ratio: Number((against.ms / m(v).ms).toFixed(3)),
    cpu: cpuOf === null ? "" : `${(m(v).cpuMs / 1000 / gib).toFixed(2)} (${cpuOf})`,
  });
  const rows = [
    row("cat FILE | sha256 consumer (the baseline)", "cat-sha", catSha, null),
    row(
      "GET from spool serve | the same sha256 consumer (× the baseline)",
      "serve-sha",
      catSha,
      "server",
    ),
    row("cat FILE > /dev/null (no consumer; for transparency)", "cat", cat, "cat"),
    row("GET from spool serve, bytes dropped (× cat > /dev/null)", "serve", cat, "server"),
    row(
      "GET from a bare node:http + createReadStream server, bytes dropped (× cat > /dev/null)",
      "bare",
      cat,
      "server",
    ),
  ];
  const rounds = downloads.rounds.cat.length;
  const at = (v: Variant, round: number) => downloads.rounds[v][round]?.ms ?? Number.NaN;
  const runs = Array.from({ length: rounds }, (_, round) => {
    const run: Record<string, number> = {
      round,
      ratio: Number((at("cat-sha", round) / at("serve-sha", round)).toFixed(3)),
      rawRatio: Number((at("cat", round) / at("serve", round)).toFixed(3)),
    };
    for (const [v, timings] of Object.entries(downloads.rounds) as [Variant, Timing[]][]) {
      run[`${v}Ms`] = Number((timings[round]?.ms ?? 0).toFixed(1));
      run[`${v}CpuMs`] = Number((timings[round]?.cpuMs ?? 0).toFixed(1));
    }
    return run;
  });
  return { rows, runs, ratio: catSha.ms / m("serve-sha").ms, rawRatio: cat.ms / m("serve").ms };
}

/** `cat FILE > /dev/null` in a shell whose `times` then says cat's CPU. */
function catToNull(file: string): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn("sh", ["-c", 'cat "$1" > /dev/null && times', "sh", file], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = performance.now() - t0;
      if (code !== 0) return reject(new Error(`cat exited ${code}`));
      resolve({ ms, cpuMs: childrenCpuMs(text), sha256: null });
    });
  });
}

/** The consumer both hashed arms share: every chunk of `from` into one sha256. */
function hashing(from: NodeJS.ReadableStream): { digest: () => string } {
  const hash = createHash("sha256");
  from.on("data", (chunk: Buffer) => hash.update(chunk));
  return { digest: () => hash.digest("hex") };
}

/** `cat FILE` piped into the hashing consumer. */
function catHashed(file: string): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn("cat", [file], { stdio: ["ignore", "pipe", "inherit"] });
    const hash = hashing(child.stdout);
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve({ ms: performance.now() - t0, cpuMs: Number.NaN, sha256: hash.digest() })
        : reject(new Error(`cat exited ${code}`)),
    );
  });
}

/** GET the whole target on a fresh connection, dropping or hashing its bytes. */
function fetchWhole(t: DownloadTarget, hashed: boolean): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const cpu0 = processCpuMs(t.pid);
    const t0 = performance.now();
    let hash: { digest: () => string } | null = null;
    const req = http.get(
      {
        host: t.base.hostname,
        port: t.base.port,
        path: t.target,
        headers: t.headers,
        agent: false,
      },
      (res) => {
        if (res.statusCode !== 200 || res.headers["spool-cut"]) {
          reject(
            new Error(
              `${t.name}: GET answered ${res.statusCode} ${res.headers["spool-cut"] ?? ""}`,
            ),
          );
        }
        if (hashed) hash = hashing(res);
        else res.resume();
        res.on("end", () =>
          resolve({
            ms: performance.now() - t0,
            cpuMs: processCpuMs(t.pid) - cpu0,
            sha256: hash ? hash.digest() : null,
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
  });
}

/** The least a Node HTTP server can do: the file piped to the response, no auth, no store. */
export function startBareNode(
  node: string,
  file: string,
): Promise<{ child: ChildProcess; target: DownloadTarget }> {
  const script = `const http = require("http"), fs = require("fs");
const s = http.createServer((q, r) => { r.writeHead(200, { "content-length": fs.statSync(process.argv[1]).size }); fs.createReadStream(process.argv[1], { highWaterMark: 1 << 20 }).pipe(r); });
s.listen(0, "127.0.0.1", () => console.log(s.address().port));`;
  return new Promise((resolve, reject) => {
    const child = spawn(node, ["-e", script, file], { stdio: ["ignore", "pipe", "inherit"] });
    child.stdout?.once("data", (chunk: Buffer) =>
      resolve({
        child,
        target: {
          name: "bare node",
          base: new URL(`http://127.0.0.1:${chunk.toString().trim()}`),
          target: "/",
          headers: {},
          pid: child.pid ?? 0,
        },
      }),
    );
    child.on("exit", (code) => reject(new Error(`bare node server exited ${code}`)));
  });
}

/** User + system CPU milliseconds of a process so far (0 if it cannot be read). */
function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux). */
const CLOCK_TICKS = 100;

/** The children's user + system time from `times` (`0m0.01s 0m0.12s` on its second line). */
function childrenCpuMs(text: string): number {
  const line = text.trim().split("\n")[1] ?? "";
  const times = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return times.length === 2 ? ((times[0] ?? 0) + (times[1] ?? 0)) * 1000 : Number.NaN;
}
