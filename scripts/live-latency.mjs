#!/usr/bin/env node
// Live latency of a background job: the delay from a child's write to the bytes being
// readable through `read` (the committed bound advertised in live.json), measured two ways:
//   api:    the `read` code path in-process (CaptureStore state + openStream), polled every 2 ms;
//   follow: the real CLI, `spool tail --follow` as a child process, lines timestamped on arrival.
// Usage: node scripts/live-latency.mjs [samples=200] [intervalMs=20]   (after `tsc -b`)
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { createFileStore } from "../packages/sinks/dist/index.js";

const BIN = fileURLToPath(new URL("../packages/cli/bin/spool.js", import.meta.url));
const samples = Number(process.argv[2] ?? 200);
const interval = Number(process.argv[3] ?? 20);
const child = `let n = 0; const t = setInterval(() => { process.stdout.write("T" + Date.now() + "\\n");
  if (++n >= ${samples}) clearInterval(t); }, ${interval});`;

function startJob(root) {
  const r = spawnSync(process.execPath, [
    BIN,
    "start",
    "--root",
    root,
    "--",
    process.execPath,
    "-e",
    child,
  ]);
  if (r.status !== 0) throw new Error(`start failed: ${r.stderr}`);
  return JSON.parse(r.stdout.toString());
}

const stamps = (text, now, out) => {
  for (const m of text.matchAll(/T(\d+)\n/g)) out.push(now - Number(m[1]));
};

async function viaApi() {
  const root = mkdtempSync(path.join(tmpdir(), "spool-latency-"));
  const { captureId } = startJob(root);
  const store = createFileStore({ root });
  const delays = [];
  let position = 0;
  let carry = "";
  for (;;) {
    const view = await store.state(captureId);
    const reader = await store.openStream(view, "stdout");
    const slice = await reader.read(position, 1 << 20);
    await reader.close();
    const now = Date.now();
    position = slice.nextOffset;
    const text = carry + slice.bytes.toString("utf8");
    const cut = text.lastIndexOf("\n") + 1;
    stamps(text.slice(0, cut), now, delays);
    carry = text.slice(cut);
    if (view.condition !== "live") break;
    await new Promise((r) => setTimeout(r, 2));
  }
  return delays;
}

async function viaFollow() {
  const root = mkdtempSync(path.join(tmpdir(), "spool-latency-"));
  const { captureId } = startJob(root);
  const tail = spawn(process.execPath, [
    BIN,
    "tail",
    "--root",
    root,
    captureId,
    "-n",
    "0",
    "--follow",
  ]);
  const delays = [];
  let carry = "";
  tail.stdout.on("data", (chunk) => {
    const now = Date.now();
    const text = carry + chunk.toString("utf8");
    const cut = text.lastIndexOf("\n") + 1;
    stamps(text.slice(0, cut), now, delays);
    carry = text.slice(cut);
  });
  await new Promise((resolve) => tail.on("close", resolve));
  return delays;
}

function summary(name, delays) {
  const s = [...delays].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return `${name.padEnd(7)} n=${s.length}  median ${q(0.5)} ms  p90 ${q(0.9)} ms  p99 ${q(0.99)} ms  max ${s.at(-1)} ms`;
}

console.log(summary("api", await viaApi()));
console.log(summary("follow", await viaFollow()));
