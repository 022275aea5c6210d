#!/usr/bin/env node
// Lines the built-in rules change in a tree of other people's text files: every source,
// documentation and configuration file under DIR (symbolic links not followed, each real
// file once, files over 2 MB skipped) is redacted whole as UTF-8, and the lines that differ
// are counted by the rule whose marker they hold. `--show` prints each changed line (the
// redacted one) after its file and line number, to review what changed.
//
//   node scripts/changed-lines.mjs DIR [MB] [--show]
//
// MB (default 200) stops after that many megabytes. Build first (`npx tsc -b packages/transforms`).
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const show = process.argv.includes("--show");
const [dir, mbArg = "200"] = args;
if (dir === undefined) {
  console.error("usage: node scripts/changed-lines.mjs DIR [MB] [--show]");
  process.exit(64);
}
const here = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const { compileRedaction, redactText } = await import(
  pathToFileURL(path.join(here, "packages/transforms/dist/index.js")).href
);
const compiled = compileRedaction({});
const TEXT =
  /\.(js|ts|mjs|cjs|json|md|yml|yaml|py|go|rb|sh|txt|log|toml|ini|conf|cfg|h|c|cc|pm|pl|rst|html|css|xml|properties|java|rs|pyi)$/;

function* files(at) {
  let entries;
  try {
    entries = fs.readdirSync(at, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = path.join(at, e.name);
    if (e.isDirectory()) yield* files(p);
    else if (e.isFile() && TEXT.test(e.name)) yield p;
  }
}

const limit = Number(mbArg) * 1e6;
const seen = new Set();
const byRule = new Map();
let bytes = 0;
let lines = 0;
let changed = 0;
for (const file of files(dir)) {
  const real = fs.realpathSync(file);
  if (seen.has(real)) continue;
  seen.add(real);
  const text = fs.readFileSync(file, "utf8");
  if (text.length > 2e6) continue;
  bytes += text.length;
  if (bytes > limit) break;
  const before = text.split("\n");
  lines += before.length;
  const out = redactText(text, compiled);
  if (out === text) continue;
  const after = out.split("\n");
  for (let i = 0; i < Math.min(before.length, after.length); i++) {
    if (before[i] === after[i]) continue;
    changed++;
    const rule = /\[REDACTED:([a-z0-9-]+)\]/.exec(after[i])?.[1] ?? "(moved)";
    byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
    if (show) console.log(`${path.relative(dir, file)}:${i + 1}  ${after[i].trim().slice(0, 200)}`);
  }
}
const rules = [...byRule].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${r} ${n}`);
console.log(
  `${dir}: ${(bytes / 1e6).toFixed(1)} MB, ${lines} lines, ${changed} changed (${((100 * changed) / Math.max(1, lines)).toFixed(3)}%)${rules.length ? `: ${rules.join(", ")}` : ""}`,
);
