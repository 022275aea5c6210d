/**
 * `spool bench serve [--size 1GiB] [--load-size 64MiB] [--rounds 3] [--report DIR]`: the
 * HTTP server against `cat` on the same file, in one run.
 *
 * 1. Download: a final capture of `--size` bytes, round by round (`serve-download.ts`):
 *    one sha256 consumer fed by `cat FILE` (the baseline) and by a whole GET from
 *    `spool serve` over loopback; the figure is the speed ratio (the baseline's median
 *    time / the GET's). Every hashed download must be byte-identical (its sha256 is the
 *    receipt's). For transparency also `cat FILE > /dev/null` against GETs whose bytes are
 *    dropped, from `spool serve` and from a bare Node server, with each serving process's
 *    CPU seconds beside it, and the load average before and after the rounds.
 * 2. Load: a job writes half of `--load-size` at full speed; 200 concurrent readers then
 *    each fetch 64 KiB ranges of its committed bytes (bounded: 20 requests each, 120 s at
 *    most), and once a quarter of those are answered the job writes the other half at
 *    full speed; 20 SSE followers follow it from byte 0 to its final receipt. Reported:
 *    errors (and their kinds), p50/p99 latency of a 64 KiB range, ranges answered while
 *    the job was live, the bytes each follower got against the committed length, and the
 *    server's RSS during the load (`VmHWM` reset before it, and sampled every 100 ms: the
 *    highest and the median sample). Loopback only.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as http from "node:http";
import { loadavg } from "node:os";
import * as path from "node:path";
import { type Receipt, ReceiptSchema } from "@spool/core";
import { z } from "zod";
import { type BenchIo, type BenchOptions, benchContext, MiB } from "./context.js";
import { median } from "./measure.js";
import { type BenchReport, emitReport, machine } from "./report.js";
import {
  type DownloadTarget,
  downloadRounds,
  downloadTable,
  startBareNode,
} from "./serve-download.js";
import { sseParser } from "./sse-blocks.js";

const READERS = 200;
const FOLLOWERS = 20;
const REQUESTS_PER_READER = 20;
const LOAD_DEADLINE_MS = 120_000;
const RANGE = 64 * 1024;
/** `spool serve --max-transfer` at most: one response carries the whole download. */
const MAX_TRANSFER = 1024 * MiB;

export async function benchServe(options: BenchOptions, io: BenchIo): Promise<number> {
  const c = benchContext(options);
  const loadSize = options["load-size"] ?? 64 * MiB;
  const size = c.size(1024 * MiB);
  const rounds = c.rounds(3);
  const root = path.join(c.work, "root");
  const quota = [
    "--max-bytes",
    String(size + loadSize + MiB),
    "--root-quota",
    String(2 * (size + loadSize) + MiB),
  ];
  if (size > MAX_TRANSFER)
    throw new Error(`--size is at most ${MAX_TRANSFER} bytes (the largest --max-transfer)`);
  let server: ChildProcess | null = null;
  let bare: ChildProcess | null = null;
  try {
    const receipt = await finalCapture(c.node, c.spool, root, quota, size);
    const file = path.join(root, receipt.streams.stdout.ref ?? "");
    const expected = receipt.streams.stdout.sha256;

    const started = await startServe(
      c.node,
      c.spool,
      root,
      Math.min(MAX_TRANSFER, Math.max(size, 256 * MiB)),
    );
    server = started.child;
    const token = readFileSync(path.join(root, "serve.token"), "utf8").trim();
    const auth = { authorization: `Bearer ${token}` };
    const base = new URL(started.url);
    const serveTarget: DownloadTarget = {
      name: "spool serve",
      base,
      target: `/api/v1/captures/${receipt.captureId}/streams/stdout`,
      headers: auth,
      pid: started.pid,
    };
    const bareNode = await startBareNode(c.node, file);
    bare = bareNode.child;
    const loadBefore = loadAverage();
    const downloads = await downloadRounds(
      file,
      expected ?? "",
      serveTarget,
      bareNode.target,
      rounds,
    );
    bareNode.child.kill("SIGTERM");
    const loadAfter = loadAverage();
    const { rows, runs, ratio, rawRatio } = downloadTable(downloads, size);

    if (existsSync(`/proc/${started.pid}/clear_refs`)) {
      // Reset the server's peak RSS so the load figure is the load's, not the download's.
      writeFileSync(`/proc/${started.pid}/clear_refs`, "5");
    }
    const load = await loadPhase(c.node, c.spool, root, quota, loadSize, base, auth, started.pid);
    return emitReport(
      io,
      c.reportDir,
      serveReport({
        size,
        rounds,
        loadSize,
        rows,
        runs,
        ratio,
        rawRatio,
        loadAverages: [loadBefore, loadAfter],
        identical: downloads.identical,
        load,
        host: base.host,
      }),
    );
  } finally {
    if (server && server.exitCode === null) server.kill("SIGTERM");
    if (bare && bare.exitCode === null) bare.kill("SIGTERM");
    c.dispose();
  }
}

/** A final capture of `size` bytes of text, made with `spool run`. */
async function finalCapture(
  node: string,
  spool: string,
  root: string,
  quota: string[],
  size: number,
): Promise<Receipt> {
  const made = await runJson(node, [
    spool,
    "run",
    "--root",
    root,
    "--json",
    "--no-redact",
    ...quota,
    "--",
    "sh",
    "-c",
    `yes 'spool serve bench 0123456789 abcdefghijklmnopqrstuvwxyz é€' | head -c ${size}`,
  ]);
  const receipt = ReceiptSchema.parse(JSON.parse(made));
  if (receipt.streams.stdout.committed !== size)
    throw new Error(`capture kept ${receipt.streams.stdout.committed} of ${size} bytes`);
  return receipt;
}

type Load = Awaited<ReturnType<typeof loadPhase>>;

interface ServeFigures {
  readonly size: number;
  readonly rounds: number;
  readonly loadSize: number;
  readonly rows: ReturnType<typeof downloadTable>["rows"];
  readonly runs: ReturnType<typeof downloadTable>["runs"];
  readonly ratio: number;
  readonly rawRatio: number;
  /** The 1-minute load average before and after the download rounds. */
  readonly loadAverages: readonly [number, number];
  readonly identical: boolean;
  readonly load: Load;
  readonly host: string;
}

/** The bench's report from its figures. */
function serveReport(r: ServeFigures): BenchReport {
  const { size, rounds, loadSize, rows, runs, ratio, load } = r;
  return {
    bench: "serve",
    title: "spool serve: whole-stream download against cat, and load",
    machine: machine(),
    params: {
      size,
      rounds,
      loadSize,
      readers: READERS,
      followers: FOLLOWERS,
      requestsPerReader: REQUESTS_PER_READER,
    },
    columns: [
      { key: "variant", label: "variant" },
      { key: "mibps", label: "MiB/s (median)" },
      { key: "ms", label: "ms" },
      { key: "ratio", label: "× its baseline" },
      { key: "cpu", label: "CPU s per GiB (of)" },
    ],
    rows,
    tables: [
      {
        title: `Load: ${READERS} range readers + ${FOLLOWERS} SSE followers while a job writes ${loadSize / MiB} MiB (its second half once a quarter of the ranges are answered)`,
        columns: [
          { key: "what", label: "what" },
          { key: "value", label: "value" },
        ],
        rows: loadRows(load),
      },
    ],
    targets: targetsOf(ratio, r.identical, load),
    chart: {
      title: "Whole-stream download, MiB/s",
      unit: "MiB/s",
      bars: rows.map((r) => ({
        label: r.variant,
        value: r.mibps,
        note: `${r.ratio.toFixed(2)}×`,
      })),
    },
    runs,
    notes: [
      ...NOTES,
      `Raw ratio (GET with bytes dropped × cat FILE > /dev/null): ${r.rawRatio.toFixed(2)}×.`,
      `Load average (1 min) on a ${machine().cpus}-CPU machine: ${r.loadAverages[0]} before the download rounds, ${r.loadAverages[1]} after.`,
      `Loopback only (${r.host}).`,
      ...load.followerProblems.map((p) => `follower not exact: ${p}`),
      ...load.errorKinds.map((k) => `range error: ${k}`),
    ],
  };
}

const NOTES = [
  "Rounds are interleaved after one warming cat, so every variant reads the page cache. Hashed: one sha256 consumer in this process, fed by cat's pipe or by the GET's response (the same work on the same bytes). Dropped bytes: the client here calls resume().",
  "CPU is the serving process's (from /proc/PID/stat) or cat's (the shell's times); on a loaded machine it moves less than wall time.",
  "A download copies every byte three times (page cache to the server, server to the socket, socket to the client) where cat > /dev/null copies it once, so a loopback download cannot approach cat > /dev/null by construction: the target compares the same consumer fed both ways.",
  "Load readers use a keep-alive agent with up to 200 sockets; followers each hold one SSE response from byte 0. A failed request is named by its kind (status, or network code and whether it went out on a reused keep-alive socket); a failed committed probe counts as an error too.",
  "The load's RSS is the same server's after the download rounds: what it kept from them counts in it.",
];

function targetsOf(ratio: number, identical: boolean, load: Load) {
  return [
    {
      name: "download speed",
      target: "≥ 0.5× cat FILE | the same sha256 consumer",
      value: `${ratio.toFixed(2)}×`,
      met: ratio >= 0.5,
    },
    {
      name: "download identical",
      target: "sha256 = receipt's, every round",
      value: identical ? "yes" : "no",
      met: identical,
    },
    { name: "load errors", target: "0", value: String(load.errors), met: load.errors === 0 },
    {
      name: "followers exact",
      target: `${FOLLOWERS}/${FOLLOWERS}`,
      value: `${load.followersExact}/${FOLLOWERS}`,
      met: load.followersExact === FOLLOWERS,
    },
  ];
}

/** The load table's rows. */
function loadRows(load: Load) {
  return [
    { what: "range requests", value: load.requests },
    {
      what: "errors (non-206/416, a 206 not of 64 KiB, network, a failed committed probe)",
      value: load.errors,
    },
    { what: "p50 latency of a 64 KiB range (ms)", value: load.p50 },
    { what: "p99 latency of a 64 KiB range (ms)", value: load.p99 },
    {
      what: "followers that got every committed byte once + the receipt",
      value: `${load.followersExact}/${FOLLOWERS}`,
    },
    { what: "range requests answered while the job was live", value: load.whileLive },
    {
      what: "server peak RSS during the load (MiB, VmHWM reset before it)",
      value: load.peakRssMiB,
    },
    { what: "server RSS, highest 100 ms sample during the load (MiB)", value: load.rssMaxMiB },
    { what: "server RSS, median 100 ms sample during the load (MiB)", value: load.rssMedianMiB },
    { what: "job's committed bytes", value: load.committed },
  ];
}

async function loadPhase(
  node: string,
  spool: string,
  root: string,
  quota: string[],
  loadSize: number,
  base: URL,
  auth: Record<string, string>,
  serverPid: number,
) {
  const go = path.join(root, "go-load");
  const launched = ReceiptSchema.parse(
    JSON.parse(
      await runJson(node, [
        spool,
        "start",
        "--root",
        root,
        "--no-redact",
        ...quota,
        "--",
        "sh",
        "-c",
        // Half at full speed; then, once a quarter of the range requests are answered, the
        // other half at full speed while the rest are asked.
        'yes "load line 0123456789 abcdefghij" | head -c "$2"; while [ ! -e "$1" ]; do sleep 0.01; done; yes "load line 0123456789 abcdefghij" | head -c "$2"',
        "sh",
        go,
        String(Math.floor(loadSize / 2)),
      ]),
    ),
  );
  const id = launched.captureId;
  const target = `/api/v1/captures/${id}/streams/stdout`;
  const rssKiB: number[] = [];
  const sampler = setInterval(() => rssKiB.push(statusKiB(serverPid, "VmRSS")), 100);
  const followers = Array.from({ length: FOLLOWERS }, () =>
    followSse(base, `/api/v1/captures/${id}/events?stream=stdout`, auth),
  );
  await committedReaches(base, target, auth, Math.floor(loadSize / 2));
  const { requests, errors, whileLive, latencies, errorKinds } = await rangeReaders(
    base,
    target,
    auth,
    () => writeFileSync(go, ""),
  );
  const follows = await Promise.all(followers);
  clearInterval(sampler);
  const final = ReceiptSchema.parse(
    JSON.parse(await runJson(node, [spool, "status", "--root", root, id])),
  );
  const committed = final.streams.stdout.committed;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return {
    requests,
    errors,
    errorKinds,
    whileLive,
    rssMaxMiB: Number((Math.max(0, ...rssKiB) / 1024).toFixed(1)),
    rssMedianMiB: Number((median(rssKiB) / 1024).toFixed(1)),
    p50: Number(pct(0.5).toFixed(2)),
    p99: Number(pct(0.99).toFixed(2)),
    followersExact: follows.filter((f) => f.exact && f.bytes === committed && f.ended).length,
    peakRssMiB: Number((statusKiB(serverPid, "VmHWM") / 1024).toFixed(1)),
    followerProblems: follows
      .filter((f) => !(f.exact && f.bytes === committed && f.ended))
      .map(
        (f) =>
          `bytes ${f.bytes}/${committed}, contiguous ${f.exact}, receipt ${f.ended}, ${f.problem ?? "no error event"}`,
      ),
    committed,
  };
}

/**
 * {@link READERS} concurrent readers, each fetching up to {@link REQUESTS_PER_READER} random
 * 64 KiB ranges of the committed bytes (asked first each time) until the deadline.
 */
async function rangeReaders(
  base: URL,
  target: string,
  auth: Record<string, string>,
  atQuarter: () => void,
) {
  const deadline = Date.now() + LOAD_DEADLINE_MS;
  const agent = new http.Agent({ keepAlive: true, maxSockets: READERS });
  const latencies: number[] = [];
  let errors = 0;
  let requests = 0;
  let whileLive = 0;
  const kinds = new Map<string, number>();
  const why = (kind: string) => {
    if (!kind.startsWith("network")) errors++;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  };
  const reader = async () => {
    for (let i = 0; i < REQUESTS_PER_READER && Date.now() < deadline; i++) {
      const committed = await committedOf(base, target, auth, agent, (kind) =>
        why(`committed probe: ${kind}`),
      );
      const at = Math.floor(Math.random() * Math.max(1, committed - RANGE));
      const t0 = performance.now();
      const r = await get(
        base,
        target,
        { ...auth, range: `bytes=${at}-${at + RANGE - 1}` },
        agent,
      ).catch((e: NodeJS.ErrnoException) => {
        why(failureKind(e));
        return null;
      });
      if (++requests === (READERS * REQUESTS_PER_READER) / 4) atQuarter();
      if (r === null) errors++;
      else if (r.status !== 206 && r.status !== 416) why(`status ${r.status}`);
      else if (r.status === 206 && r.bytes !== RANGE) why(`206 of ${r.bytes} bytes`);
      else if (r.status === 206) {
        latencies.push(performance.now() - t0);
        if (r.headers["spool-condition"] === "live") whileLive++;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: READERS }, reader));
  } finally {
    agent.destroy();
    if (requests < (READERS * REQUESTS_PER_READER) / 4) atQuarter(); // cut by the deadline
  }
  const errorKinds = [...kinds].map(([kind, n]) => `${kind} ×${n}`);
  return { requests, errors, whileLive, latencies, errorKinds };
}

/** Follow an SSE response to its end: the bytes it delivered, whether offsets were contiguous, whether it ended with the receipt. */
/** The data of an SSE `bytes` event (`/api/v1/captures/:id/events`). */
const BytesEventSchema = z.object({ offset: z.number(), text: z.string() });

function followSse(
  base: URL,
  target: string,
  headers: Record<string, string>,
): Promise<{ bytes: number; exact: boolean; ended: boolean; problem: string | null }> {
  return new Promise((resolve) => {
    let bytes = 0;
    let exact = true;
    let ended = false;
    let problem: string | null = null;
    const push = sseParser((e) => {
      if (e.event === "bytes") {
        const data = BytesEventSchema.parse(JSON.parse(e.data));
        if (data.offset !== bytes) exact = false;
        bytes += Buffer.byteLength(data.text);
      } else if (e.event === "receipt") ended = true;
      else if (e.event === "error" || e.event === "cut")
        problem = `${e.event}: ${e.data.slice(0, 300)}`;
    });
    const req = http.get({ host: base.hostname, port: base.port, path: target, headers }, (res) => {
      res.setEncoding("utf8");
      res.on("data", push);
      res.on("end", () => resolve({ bytes, exact, ended, problem }));
      res.on("error", (e) =>
        resolve({ bytes, exact: false, ended, problem: `response: ${e.message}` }),
      );
    });
    req.on("error", (e) =>
      resolve({ bytes, exact: false, ended, problem: `request: ${e.message}` }),
    );
  });
}

/** Wait (polling, 60 s at most) until the stream's committed length reaches `bytes`. */
async function committedReaches(
  base: URL,
  target: string,
  auth: Record<string, string>,
  bytes: number,
): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (const until = Date.now() + 60_000; Date.now() < until; ) {
      if ((await committedOf(base, target, auth, agent)) >= bytes) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the load job did not commit ${bytes} bytes within 60 s`);
  } finally {
    agent.destroy();
  }
}

async function committedOf(
  base: URL,
  target: string,
  auth: Record<string, string>,
  agent: http.Agent,
  onError: (kind: string) => void = () => {},
): Promise<number> {
  const r = await get(base, target, { ...auth, range: "bytes=0-0" }, agent).catch(
    (e: NodeJS.ErrnoException) => {
      onError(failureKind(e));
      return null;
    },
  );
  if (r !== null && r.status !== 206) onError(`status ${r.status}`);
  return Number(r?.headers["spool-committed"] ?? 0);
}

/** A failed request's kind: its code, and whether it went out on a kept-alive socket. */
function failureKind(e: NodeJS.ErrnoException & { reusedSocket?: boolean }): string {
  return `network ${e.code ?? e.message}${e.reusedSocket ? " (on a reused keep-alive socket)" : ""}`;
}

function get(base: URL, target: string, headers: Record<string, string>, agent: http.Agent) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: number }>(
    (resolve, reject) => {
      const req = http.get(
        { host: base.hostname, port: base.port, path: target, headers, agent },
        (res) => {
          let bytes = 0;
          res.on("data", (chunk: Buffer) => {
            bytes += chunk.length;
          });
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes }),
          );
          res.on("error", fail);
        },
      );
      // Which kind of socket it was tells a keep-alive race (the server closing an idle
      // socket as the request goes out on it) from a refused or reset connection.
      const fail = (e: Error) => reject(Object.assign(e, { reusedSocket: req.reusedSocket }));
      req.on("error", fail);
    },
  );
}

function startServe(node: string, spool: string, root: string, maxTransfer: number) {
  return new Promise<{ child: ChildProcess; url: string; pid: number }>((resolve, reject) => {
    const child = spawn(
      node,
      [
        spool,
        "serve",
        "--root",
        root,
        "--listen",
        "127.0.0.1:0",
        "--max-transfer",
        String(maxTransfer),
      ],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const nl = out.indexOf("\n");
      if (nl !== -1) resolve({ child, url: JSON.parse(out.slice(0, nl)).url, pid: child.pid ?? 0 });
    });
    child.on("exit", (code) => reject(new Error(`spool serve exited ${code}`)));
  });
}

function runJson(node: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", () => resolve(out));
  });
}

/** The 1-minute load average, to two places. */
function loadAverage(): number {
  return Number((loadavg()[0] ?? 0).toFixed(2));
}

/** A `kB` field of /proc/PID/status (VmRSS, VmHWM), or 0. */
function statusKiB(pid: number, field: string): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(
      readFileSync(`/proc/${pid}/status`, "utf8"),
    );
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}
