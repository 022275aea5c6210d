/**
 * `spool bench redact`: throughput of the redactor (built-in rules plus N known secrets) on
 * generated log-like text, measured in the same run as two peers given the same literals:
 *
 * - **replacestream** (npm), one alternation regex of the escaped literals, driven through
 *   its stream interface (the only one it has). It is imported dynamically: it is a dev
 *   dependency of this package, and when it is not installed the result says so
 *   (`available: false`) instead of failing the whole bench.
 * - **naive per-line regex**: decode each chunk, split lines (carrying the partial last
 *   line), `replace` with one regex of the literals and the common credential shapes,
 *   encode again.
 *
 * Peers run on at most `peerSizeBytes` (throughput does not depend on size, and a slow peer
 * at 256 MiB would dominate the run). A linearity check times the redactor on `sizeBytes`
 * and on twice that. The result is plain JSON.
 *
 * @example
 * ```ts
 * import { benchRedact } from "./bench-redact.js";
 * const result = await benchRedact({ sizeBytes: 64 << 20, secrets: [10, 1000] });
 * console.log(JSON.stringify(result, null, 2));
 * ```
 */
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { compileRedaction, createRedactor, seededRandom } from "@spool/transforms";

export interface BenchRedactOptions {
  /** Bytes of log text per measured run of the redactor. @default 256 MiB */
  readonly sizeBytes?: number;
  /** Numbers of known secrets to measure with. @default [10, 1000] */
  readonly secrets?: readonly number[];
  /** Bytes the peers process (at most `sizeBytes`). @default 32 MiB */
  readonly peerSizeBytes?: number;
  /** Chunk size fed to every contender. @default 64 KiB */
  readonly chunkBytes?: number;
  /** PRNG seed for the text and secrets. @default 1 */
  readonly seed?: number;
}

export interface BenchRun {
  readonly bytes: number;
  readonly seconds: number;
  readonly mbPerSecond: number;
}

export interface BenchRedactCase {
  readonly secrets: number;
  readonly compileSeconds: number;
  readonly spool: BenchRun & { readonly redactions: number; readonly omissions: number };
  readonly replacestream:
    | (BenchRun & { readonly available: true })
    | { readonly available: false; readonly reason: string };
  readonly perLineRegex: BenchRun;
  /** spool MB/s divided by the faster peer's. */
  readonly ratioToFasterPeer: number;
  readonly linearity: {
    readonly bytes: number;
    readonly seconds: number;
    readonly doubleBytes: number;
    readonly doubleSeconds: number;
    readonly ratio: number;
    readonly linear: boolean;
  };
}

export interface BenchRedactResult {
  readonly bench: "redact";
  readonly node: string;
  readonly sizeBytes: number;
  readonly peerSizeBytes: number;
  readonly chunkBytes: number;
  readonly cases: readonly BenchRedactCase[];
}

const MB = 1e6;

export async function benchRedact(options: BenchRedactOptions = {}): Promise<BenchRedactResult> {
  const sizeBytes = options.sizeBytes ?? 256 << 20;
  const chunkBytes = options.chunkBytes ?? 64 << 10;
  const peerSizeBytes = Math.min(sizeBytes, options.peerSizeBytes ?? 32 << 20);
  const random = seededRandom(options.seed ?? 1);
  const cases: BenchRedactCase[] = [];
  for (const count of options.secrets ?? [10, 1000]) {
    const secrets = Array.from({ length: count }, () => randomToken(random, 32));
    const base = logText(random, 4 << 20, secrets);
    const t0 = performance.now();
    const compiled = compileRedaction({ knownValues: secrets });
    const compileSeconds = (performance.now() - t0) / 1000;

    const runSpool = (bytes: number) => {
      const redactor = createRedactor(compiled);
      const start = performance.now();
      let produced = 0;
      for (const chunk of chunksOf(base, bytes, chunkBytes)) {
        for (const piece of redactor.push([chunk])) produced += piece.byteLength;
      }
      for (const piece of redactor.end()) produced += piece.byteLength;
      const seconds = (performance.now() - start) / 1000;
      if (produced === 0) throw new Error("bench: redactor produced nothing");
      return { seconds, counters: redactor.counters };
    };
    runSpool(Math.min(sizeBytes, 8 << 20)); // warm-up: let the JIT settle before timing
    const spoolRun = runSpool(sizeBytes);
    const spool = { ...rate(sizeBytes, spoolRun.seconds), ...spoolRun.counters };
    const replacestream = await runReplacestream(base, peerSizeBytes, chunkBytes, secrets);
    const perLineRegex = runPerLineRegex(base, peerSizeBytes, chunkBytes, secrets);
    const peers = [
      perLineRegex.mbPerSecond,
      replacestream.available ? replacestream.mbPerSecond : 0,
    ];
    const double = runSpool(2 * sizeBytes);
    const ratio = double.seconds / spoolRun.seconds;
    cases.push({
      secrets: count,
      compileSeconds,
      spool,
      replacestream,
      perLineRegex,
      ratioToFasterPeer: spool.mbPerSecond / Math.max(...peers),
      linearity: {
        bytes: sizeBytes,
        seconds: spoolRun.seconds,
        doubleBytes: 2 * sizeBytes,
        doubleSeconds: double.seconds,
        ratio,
        linear: ratio <= 2.2,
      },
    });
  }
  return { bench: "redact", node: process.version, sizeBytes, peerSizeBytes, chunkBytes, cases };
}

async function runReplacestream(
  base: Buffer,
  bytes: number,
  chunkBytes: number,
  secrets: readonly string[],
): Promise<BenchRedactCase["replacestream"]> {
  let replaceStream: (search: RegExp, replace: string) => NodeJS.ReadWriteStream;
  try {
    const name = "replacestream";
    const mod = (await import(name)) as { default: typeof replaceStream };
    replaceStream = mod.default;
  } catch (error) {
    return {
      available: false,
      reason: `replacestream is not installed (${(error as Error).message.split("\n")[0]})`,
    };
  }
  const regex = new RegExp(secrets.map(escapeRegExp).join("|"), "g");
  const start = performance.now();
  let produced = 0;
  await pipeline(
    Readable.from(chunksOf(base, bytes, chunkBytes)),
    replaceStream(regex, "[REDACTED]"),
    new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        produced += chunk.length;
        callback();
      },
    }),
  );
  if (produced === 0) throw new Error("bench: replacestream produced nothing");
  return { available: true, ...rate(bytes, (performance.now() - start) / 1000) };
}

function runPerLineRegex(
  base: Buffer,
  bytes: number,
  chunkBytes: number,
  secrets: readonly string[],
): BenchRun {
  const shapes = [
    "AKIA[0-9A-Z]{16}",
    "gh[pousr]_[A-Za-z0-9]{30,}",
    "github_pat_[A-Za-z0-9_]{40,}",
    "glpat-[A-Za-z0-9_-]{20,}",
    "xox[abeoprs]-[A-Za-z0-9-]{10,}",
    "[rs]k_live_[A-Za-z0-9]{16,}",
    "npm_[A-Za-z0-9]{36,}",
    "sk-[A-Za-z0-9_-]{20,}",
    "AIza[A-Za-z0-9_-]{30,}",
    "eyJ[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_.-]*",
    "(?<=(?:token|secret|password|passwd|api_?key|credential)[A-Za-z0-9_]*\\s*[=:]\\s*)[^\\s\"',;]+",
  ];
  const regex = new RegExp([...secrets.map(escapeRegExp), ...shapes].join("|"), "gi");
  const start = performance.now();
  let carry = "";
  let produced = 0;
  for (const chunk of chunksOf(base, bytes, chunkBytes)) {
    const lines = (carry + chunk.toString("utf8")).split("\n");
    carry = lines.pop() ?? "";
    for (const line of lines) produced += Buffer.byteLength(line.replace(regex, "[REDACTED]")) + 1;
  }
  produced += Buffer.byteLength(carry.replace(regex, "[REDACTED]"));
  if (produced === 0) throw new Error("bench: per-line regex produced nothing");
  return rate(bytes, (performance.now() - start) / 1000);
}

function rate(bytes: number, seconds: number): BenchRun {
  return { bytes, seconds, mbPerSecond: bytes / MB / seconds };
}

/** `bytes` of `base` repeated, in chunks of `chunkBytes` (views, no copies). */
function* chunksOf(base: Buffer, bytes: number, chunkBytes: number): Generator<Buffer> {
  let left = bytes;
  let at = 0;
  while (left > 0) {
    const size = Math.min(chunkBytes, left, base.length - at);
    yield base.subarray(at, at + size);
    left -= size;
    at = (at + size) % base.length;
  }
}

/** Log-like lines (timestamps, levels, paths, key=value pairs, some UTF-8), with a known secret every ~64 KiB. */
function logText(random: () => number, size: number, secrets: readonly string[]): Buffer {
  const levels = ["INFO", "DEBUG", "WARN", "ERROR", "info", "trace"];
  const words = [
    "GET",
    "POST",
    "/api/v1/items",
    "user=alice",
    "status=200",
    "latency_ms=12",
    "cache=miss",
    "über",
    "résumé",
    "ok",
    "retrying",
    "connection",
    "pool",
    "worker-3",
    "sha=9f86d081",
    "took",
    "rows=1200",
  ];
  const parts: string[] = [];
  let length = 0;
  let nextSecret = 65_536;
  let line = 0;
  while (length < size) {
    const n = 4 + Math.floor(random() * 10);
    let text = `2025-01-0${1 + (line % 9)}T12:${String(line % 60).padStart(2, "0")}:00.${line % 1000}Z ${levels[line % levels.length]} [req ${Math.floor(random() * 1e6)}]`;
    for (let i = 0; i < n; i++) text += ` ${words[Math.floor(random() * words.length)]}`;
    if (length >= nextSecret && secrets.length > 0) {
      text += ` auth=${secrets[Math.floor(random() * secrets.length)]}`;
      nextSecret += 65_536;
    }
    text += "\n";
    parts.push(text);
    length += Buffer.byteLength(text);
    line++;
  }
  return Buffer.from(parts.join(""), "utf8").subarray(0, size);
}

function randomToken(random: () => number, length: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let token = "";
  for (let i = 0; i < length; i++) token += alphabet[Math.floor(random() * alphabet.length)];
  return token;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
