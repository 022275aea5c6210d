#!/usr/bin/env node
// How often the redactor misses a bare AWS secret access key, and what else it takes for
// one (the figures in packages/transforms/src/secret-key-shape.ts).
//
//   node scripts/secret-key-shape.mjs [--keys N] [DIR ...]
//
// Misses: N random keys (40 characters of A-Za-z0-9+/, as AWS issues them), each alone on a
// line. Flagged: every line of the text files under each DIR that holds a run of exactly 40
// such characters and that the redactor marks `aws-secret-access-key`.
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { compileRedaction, redactText } from "../packages/transforms/dist/index.js";

const args = process.argv.slice(2);
const keysAt = args.indexOf("--keys");
const keys = keysAt >= 0 ? Number(args.splice(keysAt, 2)[1]) : 100_000;
const compiled = compileRedaction();
const MARKER = "[REDACTED:aws-secret-access-key]";
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

let missed = 0;
for (let k = 0; k < keys; k++) {
  let key = "";
  for (let i = 0; i < 40; i++) key += ALPHABET[Math.floor(Math.random() * 64)];
  if (redactText(`${key}\n`, compiled) !== `${MARKER}\n`) missed++;
}
console.log(
  `random keys alone on a line: ${missed} of ${keys} missed (${((100 * missed) / keys).toFixed(3)}%)`,
);

const RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/]{40}(?![A-Za-z0-9+/_-])/;
const TEXT = /\.(js|mjs|cjs|ts|md|json|map|ya?ml|txt|lock|sum|go|py|c|h|html|css|log)$/;
let files = 0;
let bytes = 0;
let flagged = 0;
const examples = new Map();
const walk = (dir) => {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    let st;
    try {
      st = statSync(file);
    } catch {
      continue;
    }
    if (st.isDirectory()) walk(file);
    else if (TEXT.test(name) && st.size <= 5e6) scan(file);
  }
};
const scan = (file) => {
  const text = readFileSync(file, "latin1");
  files++;
  bytes += text.length;
  for (const line of text.split("\n")) {
    if (!RUN.test(line)) continue;
    const out = redactText(line, compiled);
    if (!out.includes(MARKER)) continue;
    flagged++;
    const run = line.match(RUN)[0];
    if (!examples.has(run)) examples.set(run, file);
  }
};
for (const dir of args) walk(dir);
if (args.length > 0) {
  console.log(
    `text: ${files} files, ${(bytes / 1e6).toFixed(1)} MB; lines marked ${MARKER}: ${flagged}, distinct runs: ${examples.size}`,
  );
  for (const [run, file] of [...examples].slice(0, 30)) console.log(`  ${run}  ${file}`);
}
