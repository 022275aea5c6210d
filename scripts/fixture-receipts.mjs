#!/usr/bin/env node
// Receipts and inline text of the bench fixtures and a few edge cases, with ids, times,
// pids and roots normalised, one JSON object per case: diff two runs to show that a
// refactor left behaviour unchanged byte for byte.
//   node scripts/fixture-receipts.mjs > after.json && diff before.json after.json
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));
const bin = path.join(repo, "packages/cli/bin/spool.js");
const child = ["packages/bench/dist/fixture-child.js", "packages/cli/dist/bench/fixture-child.js"]
  .map((p) => path.join(repo, p))
  .find((p) => existsSync(p));
if (!child) throw new Error("fixture-child.js not built (run tsc -b)");

const fixtures = ["compact", "pytest", "api-json", "compiler", "csv", "huge-line"];
const cases = [
  ...fixtures.map((f) => ({ name: f, argv: ["--", process.execPath, child, f] })),
  {
    name: "redact",
    argv: ["--", "sh", "-c", "echo token=ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8; exit 3"],
  },
  { name: "invalid-utf8", argv: ["--", "printf", "a\\377\\376b\\n"] },
  { name: "not-found", argv: ["--", "/nonexistent/cmd"] },
  { name: "timeout", argv: ["--timeout", "0.3", "--", "sleep", "5"] },
  {
    name: "quota",
    argv: ["--max-bytes", "64KiB", "--", "sh", "-c", "head -c 300000 /dev/zero | tr '\\0' x"],
  },
  {
    name: "binary-keep",
    argv: ["--binary", "keep", "--", "sh", "-c", "head -c 40000 /dev/zero | tr '\\0' '\\377'"],
  },
];

const root = mkdtempSync(path.join(tmpdir(), "spool-fixture-receipts-"));
try {
  for (const c of cases) {
    const json = spawnSync(process.execPath, [bin, "run", "--root", root, "--json", ...c.argv], {
      encoding: "utf8",
      maxBuffer: 1 << 26,
    });
    const inline = spawnSync(process.execPath, [bin, "run", "--root", root, ...c.argv], {
      encoding: "utf8",
      maxBuffer: 1 << 26,
    });
    let receipt = null;
    try {
      receipt = normalise(JSON.parse(json.stdout));
    } catch {
      receipt = { unparsable: json.stdout.slice(0, 200) };
    }
    const text = scrub(inline.stdout);
    process.stdout.write(
      `${JSON.stringify({ case: c.name, status: [json.status, inline.status], receipt, inline: text })}\n`,
    );
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

function scrub(s) {
  return s
    .replaceAll(root, "<root>")
    .replaceAll(repo, "<repo>/")
    .replace(/[A-Za-z0-9][A-Za-z0-9_-]{23}(?=[/ \n]|$)/g, "<id>");
}

function normalise(r) {
  const out = JSON.parse(scrub(JSON.stringify(r)));
  out.captureId = "<id>";
  if (out.process) {
    out.process.pid = out.process.pid === null ? null : "<pid>";
    out.process.startedAt = "<t>";
    out.process.endedAt = out.process.endedAt === null ? null : "<t>";
  }
  return out;
}
