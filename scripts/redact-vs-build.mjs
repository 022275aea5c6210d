#!/usr/bin/env node
// Redactor CPU time of this checkout against another built checkout, in one process and one
// run (rounds interleaved in a rotated order, so the machine's load hits both alike):
// built-in rules plus 10 known secrets, on log text like `spool bench redact`'s and on text
// full of base64 runs (lockfile integrity lines, go.sum hashes), and on `bench throughput`'s
// log, quiet-log and dense-credential texts, 64 KiB chunks. Prints MB
// per CPU-second (median of the rounds), the ratio to the other build, and this build's
// time at 2× input. `--no-base64` runs this build without base64 decoding (a separate run:
// two configurations of one build in one process share the engine's type feedback, which
// slows both). `--other-rules` runs this build with the other build's built-in rules instead
// of its own, and without base64 decoding: the same work in both, so the ratio is the cost
// of this build's code alone.
//
//   node scripts/redact-vs-build.mjs /path/to/other/checkout [MiB] [rounds] [--no-base64|--other-rules]
import * as path from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const otherRules = process.argv.includes("--other-rules");
const thisOptions =
  process.argv.includes("--no-base64") || otherRules ? { decodeBase64: false } : {};
const [otherRoot, mibArg = "16", roundsArg = "7"] = args;
if (otherRoot === undefined) {
  console.error("usage: node scripts/redact-vs-build.mjs OTHER_CHECKOUT [MiB] [rounds]");
  process.exit(64);
}
const load = (root) =>
  import(pathToFileURL(path.resolve(root, "packages/transforms/dist/index.js")).href);
const here = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const mine = await load(here);
const other = await load(otherRoot);
const size = Number(mibArg) * 1024 * 1024;
const rounds = Number(roundsArg);

const random = mine.seededRandom(1);
const pick = (xs) => xs[Math.floor(random() * xs.length)];
const token = (n, alphabet) => {
  let s = "";
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(random() * alphabet.length)];
  return s;
};
const B62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const secrets = Array.from({ length: 10 }, () => token(24, B62));

/** Log lines as in `spool bench redact` (same words, a known secret every 64 KiB). */
function logText(bytes) {
  const words =
    "GET POST /api/v1/items user=alice status=200 latency_ms=12 cache=miss über résumé ok retrying connection pool worker-3 sha=9f86d081 took rows=1200".split(
      " ",
    );
  const parts = [];
  let length = 0;
  let next = 65536;
  for (let line = 0; length < bytes; line++) {
    let text = `2025-01-0${1 + (line % 9)}T12:${String(line % 60).padStart(2, "0")}:00.${line % 1000}Z INFO [req ${Math.floor(random() * 1e6)}]`;
    const n = 4 + Math.floor(random() * 10);
    for (let i = 0; i < n; i++) text += ` ${pick(words)}`;
    if (length >= next) {
      text += ` auth=${pick(secrets)}`;
      next += 65536;
    }
    text += "\n";
    parts.push(text);
    length += Buffer.byteLength(text);
  }
  return Buffer.from(parts.join("")).subarray(0, bytes);
}

/** Lines that are mostly base64 runs: lockfile integrity and go.sum hashes. */
function base64Text(bytes) {
  const parts = [];
  let length = 0;
  while (length < bytes) {
    const hash = Buffer.from(token(64, "0123456789abcdef"), "hex").toString("base64");
    const text =
      random() < 0.5
        ? `    resolution: {integrity: sha512-${Buffer.from(token(128, "0123456789abcdef"), "hex").toString("base64")}}\n`
        : `github.com/${token(8, "abcdefghij")}/${token(6, "klmnop")} v1.2.3 h1:${hash}\n`;
    parts.push(text);
    length += text.length;
  }
  return Buffer.from(parts.join("")).subarray(0, bytes);
}

/** CPU seconds to redact `input` once: the mean of `reps` runs (a short run is mostly noise). */
function cpuSeconds(build, compiled, input, options, reps = 1) {
  const t0 = process.cpuUsage();
  for (let r = 0; r < reps; r++) {
    const redactor = build.createRedactor(compiled, options);
    for (let i = 0; i < input.length; i += 65536) redactor.push([input.subarray(i, i + 65536)]);
    redactor.end();
  }
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / 1e6 / reps;
}

// `bench throughput`'s own texts (this checkout's generator): log text with ~1 line in 7
// credential-shaped, the same lines with 1 in 100, and text where every line carries one.
const generator = await import(
  pathToFileURL(path.join(here, "packages/bench/dist/log-generator.js")).href
);
const benchLog = (bytes) => generator.logBlock(generator.benchSecrets(), bytes).subarray(0, bytes);
const benchDense = (bytes) =>
  generator.denseCredentialBlock(generator.benchSecrets(), bytes).subarray(0, bytes);
const benchQuiet = (bytes) =>
  generator.quietLogBlock(generator.benchSecrets(), bytes).subarray(0, bytes);

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, make] of [
  ["log text", logText],
  ["base64-heavy text", base64Text],
  ["bench log text", benchLog],
  ["bench log text, 1% credential lines", benchQuiet],
  ["bench dense-credential text", benchDense],
]) {
  const input = make(size);
  const double = Buffer.concat([input, input]);
  const contenders = {
    other: [other, other.compileRedaction({ knownValues: secrets }), {}],
    this: [
      mine,
      mine.compileRedaction(
        otherRules
          ? { knownValues: secrets, builtins: false, rules: other.BUILTIN_RULES }
          : { knownValues: secrets },
      ),
      thisOptions,
    ],
  };
  const times = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  const doubles = [];
  const order = Object.entries(contenders);
  // One round unrecorded, so both builds are warm when the recorded rounds start; a text
  // redacted in under ~0.3 s is redacted several times a measurement (two identical builds
  // read 0.83× and 1.31× on the sparse log text when one run of 30 ms was a measurement).
  let warm = 0;
  for (const [, [build, compiled, options]] of order)
    warm = Math.max(warm, cpuSeconds(build, compiled, input, options));
  const reps = Math.max(1, Math.ceil(0.3 / warm));
  for (let r = 0; r < rounds; r++) {
    // Each round in a rotated order, so no contender always runs after the same one.
    for (let j = 0; j < order.length; j++) {
      const [k, [build, compiled, options]] = order[(r + j) % order.length];
      times[k].push(cpuSeconds(build, compiled, input, options, reps));
    }
  }
  // The linearity check after the rounds: run among them it warmed this build alone.
  for (let r = 0; r < rounds; r++)
    doubles.push(cpuSeconds(mine, contenders.this[1], double, thisOptions));
  const mbps = (s) => size / 1e6 / s;
  const base = median(times.other);
  console.log(
    `${name}, ${mibArg} MiB, median of ${rounds} interleaved rounds (CPU seconds)${otherRules ? ", this with the other's rules" : ""}${thisOptions.decodeBase64 === false ? ", this without base64 decoding" : ""}:`,
  );
  for (const [k, ts] of Object.entries(times)) {
    const m = median(ts);
    console.log(
      `  ${k.padEnd(26)} ${mbps(m).toFixed(1).padStart(7)} MB/CPU-s  ratio to other ${(base / m).toFixed(3)}`,
    );
  }
  console.log(`  this at 2× input: ${(median(doubles) / median(times.this)).toFixed(2)}× the time`);
}
