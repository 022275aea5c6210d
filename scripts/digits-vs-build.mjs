#!/usr/bin/env node
// Redactor CPU time with 1,000 known values of 32 characters on 16 MiB of text dense in
// digits and hex (timestamps, ids, digests), this checkout against another built checkout,
// in one process, rounds interleaved. Prints MB per CPU-second (medians) and the ratio.
//
//   node scripts/digits-vs-build.mjs /path/to/other/checkout
import * as path from "node:path";
import { pathToFileURL } from "node:url";

const otherRoot = process.argv[2];
if (otherRoot === undefined) {
  console.error("usage: node scripts/digits-vs-build.mjs OTHER_CHECKOUT");
  process.exit(64);
}
const load = (root) =>
  import(pathToFileURL(path.resolve(root, "packages/transforms/dist/index.js")).href);
const here = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const [mine, other] = [await load(here), await load(otherRoot)];
const random = mine.seededRandom(7);
const token = (n, alphabet) => {
  let s = "";
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(random() * alphabet.length)];
  return s;
};
const LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const DIGITS = "0123456789";
const HEX = "0123456789abcdef";
const values = Array.from({ length: 1000 }, () => token(32, LETTERS));
const lines = [];
for (let size = 0; size < 16 << 20; size += lines[lines.length - 1].length) {
  lines.push(
    `${token(10, DIGITS)} ${token(6, DIGITS)}.${token(3, DIGITS)} id=${token(40, HEX)} n=${token(8, DIGITS)} ${token(64, HEX)}\n`,
  );
}
const text = Buffer.from(lines.join(""));
const run = (build) => {
  const redactor = build.createRedactor(build.compileRedaction({ knownValues: values }));
  const start = process.cpuUsage();
  for (let i = 0; i < text.length; i += 65536) redactor.push([text.subarray(i, i + 65536)]);
  redactor.end();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
};
const times = { mine: [], other: [] };
for (let k = 0; k < 7; k++) {
  const order = k % 2 === 0 ? ["mine", "other"] : ["other", "mine"];
  for (const name of order) times[name].push(run(name === "mine" ? mine : other));
}
const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
const mb = text.length / 1e6;
console.log(
  `this build ${(mb / median(times.mine)).toFixed(1)} MB/s, other ${(mb / median(times.other)).toFixed(1)} MB/s, ratio ${(median(times.other) / median(times.mine)).toFixed(2)}`,
);
