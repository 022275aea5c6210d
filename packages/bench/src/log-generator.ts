/**
 * The benchmark's input: mixed log-like text (ASCII and multi-byte lines, credential-shaped
 * strings, and the ten known secrets now and then), written by a child process as fast as
 * the pipe takes it. Deterministic: the same size gives the same bytes.
 *
 * Run as a program: `node log-generator.js SIZE [--quiet]` writes SIZE bytes to stdout
 * (`--quiet`: one credential line in a hundred).
 *
 * @example
 * ```ts
 * import { logBlock, benchSecrets } from "./log-generator.js";
 * const block = logBlock(benchSecrets(), 64 * 1024); // 64 KiB of whole lines
 * ```
 */
import { writeSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** Environment variables the ten known secrets are passed in (for `--redact-env`). */
export const BENCH_SECRET_ENV: readonly string[] = Array.from(
  { length: 10 },
  (_, i) => `SPOOL_BENCH_KNOWN_${i}`,
);

/** Ten deterministic secret values, 32 characters each. */
export function benchSecrets(): string[] {
  const next = prng(0x5eed);
  return BENCH_SECRET_ENV.map((_, i) => `sk_bench${i}_${word(next, 22, ALNUM)}`);
}

/** The environment that carries {@link benchSecrets} under {@link BENCH_SECRET_ENV}. */
export function benchSecretEnv(): Record<string, string> {
  const secrets = benchSecrets();
  return Object.fromEntries(BENCH_SECRET_ENV.map((name, i) => [name, secrets[i]!]));
}

/** About `bytes` of whole log lines (the generator repeats this block). */
export function logBlock(secrets: readonly string[], bytes: number): Buffer {
  return lineBlock(prng(42), bytes, (next, n) => logLine(next, n, secrets));
}

/**
 * About `bytes` of log lines of which one in a hundred carries a credential (the ordinary
 * lines of {@link logBlock}, the credential lines of {@link denseCredentialBlock}): the
 * redactor's everyday case, where its cost is the scan over text that holds nothing.
 */
export function quietLogBlock(secrets: readonly string[], bytes: number): Buffer {
  return lineBlock(prng(11), bytes, (next, n) => quietLine(next, n, secrets));
}

/**
 * About `bytes` of whole lines that each carry a credential (an AWS key id, a GitHub
 * token, a bearer JWT, a URL with a password and a `password=`, a known secret, a secret
 * access key assignment): the redactor's worst everyday case, where most lines stop it.
 */
export function denseCredentialBlock(secrets: readonly string[], bytes: number): Buffer {
  return lineBlock(prng(7), bytes, (next, n) => credentialLine(next, n, secrets));
}

/** Whole lines from `line` until about `bytes`. */
function lineBlock(
  next: () => number,
  bytes: number,
  line: (next: () => number, n: number) => string,
): Buffer {
  const lines: string[] = [];
  let size = 0;
  for (let n = 0; size < bytes; n++) {
    const text = `${line(next, n)}\n`;
    lines.push(text);
    size += Buffer.byteLength(text);
  }
  return Buffer.from(lines.join(""));
}

/** Write `size` bytes of log text to `fd`, a block at a time ({@link quietLogBlock}'s when `quiet`). */
export function generate(size: number, fd = 1, quiet = false): void {
  const block = (quiet ? quietLogBlock : logBlock)(benchSecrets(), 1024 * 1024);
  let left = size;
  while (left > 0) {
    const chunk = left >= block.byteLength ? block : block.subarray(0, left);
    writeAll(fd, chunk);
    left -= chunk.byteLength;
  }
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const PATHS = ["/api/v1/items", "/healthz", "/api/v2/users", "/static/app.js", "/login"];
const INTL = [
  "日本語のメッセージを処理しました",
  "naïve café résumé — déjà vu",
  "Größenänderung abgeschlossen ✓",
  "обработка завершена успешно",
  "🚀 deploy finished in 3.2s 🎉",
];

function logLine(next: () => number, n: number, secrets: readonly string[]): string {
  const ts = stamp(n);
  const r = next() % 100;
  if (r < 80 || r >= 97) return ordinaryLine(next, ts, r);
  if (r < 84) return `${ts} DEBUG aws key AKIA${word(next, 16, UPPER)} region=eu-west-1`;
  if (r < 88) return `${ts} DEBUG cloning with ghp_${word(next, 36, ALNUM)}`;
  if (r < 91)
    return `${ts} DEBUG Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.${word(next, 40, ALNUM)}.${word(next, 43, ALNUM)}`;
  if (r < 94)
    return `${ts} DEBUG connecting to postgres://app:${word(next, 12, ALNUM)}@db.internal:5432/app password=${word(next, 14, ALNUM)}`;
  return `${ts} INFO  using token=${secrets[next() % secrets.length]} for upload`;
}

/** A log line without a credential, of the kind `r` picks (as in {@link logLine}). */
function ordinaryLine(next: () => number, ts: string, r: number): string {
  if (r < 55) {
    const path = PATHS[next() % PATHS.length]!;
    return `${ts} INFO  [worker-${next() % 8}] GET ${path}/${next() % 100000} 200 ${next() % 500}ms user=u${next() % 1000} trace=${word(next, 16, ALNUM)}`;
  }
  if (r < 72) return `${ts} WARN  [i18n] ${INTL[next() % INTL.length]} count=${next() % 100}`;
  if (r < 80)
    return `${ts} ERROR [db] query failed: timeout after 30000ms\n    at Pool.query (/srv/app/db.js:${next() % 900}:17)\n    at async handler (/srv/app/routes.js:${next() % 400}:5)`;
  return `${ts} INFO  ${"-".repeat(next() % 120)}`;
}

/** One line in a hundred carries a credential (one of {@link credentialLine}'s). */
function quietLine(next: () => number, n: number, secrets: readonly string[]): string {
  if (next() % 100 === 0) return credentialLine(next, n, secrets);
  // The ordinary kinds of logLine, in its proportions.
  const r = next() % 83;
  return ordinaryLine(next, stamp(n), r < 80 ? r : r + 17);
}

function credentialLine(next: () => number, n: number, secrets: readonly string[]): string {
  const ts = stamp(n);
  switch (next() % 6) {
    case 0:
      return `${ts} DEBUG aws key AKIA${word(next, 16, UPPER)} region=eu-west-1`;
    case 1:
      return `${ts} DEBUG cloning with ghp_${word(next, 36, ALNUM)}`;
    case 2:
      return `${ts} DEBUG Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.${word(next, 40, ALNUM)}.${word(next, 43, ALNUM)}`;
    case 3:
      return `${ts} DEBUG connecting to postgres://app:${word(next, 12, ALNUM)}@db.internal:5432/app password=${word(next, 14, ALNUM)}`;
    case 4:
      return `${ts} INFO  using token=${secrets[next() % secrets.length]} for upload`;
    default:
      return `${ts} DEBUG env AWS_SECRET_ACCESS_KEY=${word(next, 40, ALNUM)}`;
  }
}

function stamp(n: number): string {
  return `2024-05-01T12:${pad(Math.floor(n / 60) % 60)}:${pad(n % 60)}.${String(n % 1000).padStart(3, "0")}Z`;
}

function writeAll(fd: number, chunk: Uint8Array): void {
  let off = 0;
  while (off < chunk.byteLength) {
    try {
      off += writeSync(fd, chunk, off);
    } catch (error) {
      // A non-blocking pipe that is full: try again (the reader is what we measure).
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
    }
  }
}

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
}

function word(next: () => number, length: number, alphabet: string): string {
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[next() % alphabet.length];
  return out;
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const size = Number(process.argv[2]);
  const quiet = process.argv[3] === "--quiet";
  if (!Number.isSafeInteger(size) || size < 0 || (process.argv.length > 3 && !quiet)) {
    process.stderr.write("usage: log-generator SIZE [--quiet]\n");
    process.exit(64);
  }
  generate(size, 1, quiet);
}
