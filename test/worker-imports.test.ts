/**
 * The file writer's load budget: every capture that spills starts its worker, so the
 * writer task must load only what writing needs (node built-ins, storage, the line
 * index, `@spool/core/errors`), never zod, pino, rxjs, piscina's pool or the whole of
 * `@spool/core/runtime`. A worker thread (with a preload that records every module it
 * loads, ESM through loader hooks and CommonJS through `require.cache`) drives the built
 * writer task through a whole capture over the real protocol: open, writes, live.json,
 * finish, receipt.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { tempRoot } from "./helpers.js";

const WRITER = fileURLToPath(
  new URL("../packages/sinks/dist/writer/file-writer.worker.js", import.meta.url),
);

function writerRun(): {
  loaded: string[];
  replies: Array<{ op: string; re: number }>;
  root: string;
} {
  const dir = tempRoot();
  const root = path.join(dir, "root");
  const log = path.join(dir, "loaded.txt");
  const out = path.join(dir, "replies.json");
  const file = (name: string, text: string) => {
    writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  };
  const hooks = file(
    "hooks.mjs",
    `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(log)}, url + "\\n");
  return next(url, context);
}
`,
  );
  const preload = file(
    "preload.mjs",
    `import { register } from "node:module";
register(${JSON.stringify(pathToFileURL(hooks).href)});
`,
  );
  const task = file(
    "task.mjs",
    `import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { MessageChannel } from "node:worker_threads";
const { default: fileWriterTask } = await import(${JSON.stringify(pathToFileURL(WRITER).href)});
mkdirSync(${JSON.stringify(root)}, { mode: 0o700 });
const { port1, port2 } = new MessageChannel();
const replies = [];
const next = () => new Promise((resolve) => port1.once("message", (m) => { replies.push({ op: m.op, re: m.re }); resolve(m); }));
const ended = fileWriterTask({ port: port2 });
port1.postMessage({ op: "open", id: 1, root: ${JSON.stringify(root)}, captureId: "AAAAAAAAAAAAAAAAAAAAAAAA",
  files: ["stdout.live", "stderr.live"], startedAt: Date.now(), faults: [] });
await next();
const data = new TextEncoder().encode("line\\n".repeat(5000));
port1.postMessage({ op: "write", id: 2, stream: 0, data }, [data.buffer]);
await next();
port1.postMessage({ op: "live", id: 3, json: "{}\\n" });
await next();
port1.postMessage({ op: "finish", id: 4, finalNames: ["stdout.txt", "stderr.txt"] });
await next();
port1.postMessage({ op: "receipt", id: 5, json: "{}\\n" });
await next();
await ended;
port1.close();
writeFileSync(${JSON.stringify(out)}, JSON.stringify(replies));
appendFileSync(${JSON.stringify(log)}, Object.keys(createRequire(import.meta.url).cache).join("\\n") + "\\n");
`,
  );
  const main = file(
    "main.mjs",
    `import { Worker } from "node:worker_threads";
const worker = new Worker(${JSON.stringify(task)}, { execArgv: ["--import", ${JSON.stringify(preload)}] });
worker.on("error", (error) => { console.error(error); process.exitCode = 1; });
`,
  );
  const r = spawnSync(process.execPath, [main], { stdio: ["ignore", "pipe", "pipe"] });
  expect(r.status, r.stderr.toString()).toBe(0);
  return {
    loaded: readFileSync(log, "utf8").split("\n").filter(Boolean),
    replies: JSON.parse(readFileSync(out, "utf8")),
    root,
  };
}

const pkg = (name: string) => (m: string) => m.includes(`/node_modules/.pnpm/${name}@`);

describe("file writer worker load budget", () => {
  it("writes a whole capture loading neither zod, pino, rxjs, piscina nor @spool/core/runtime", () => {
    const { loaded, replies, root } = writerRun();
    // The probe saw the writer and really ran a capture through it.
    expect(
      loaded.some((m) => m.endsWith("/packages/sinks/dist/writer/file-writer.worker.js")),
    ).toBe(true);
    expect(replies).toEqual([
      { op: "opened", re: 1 },
      { op: "ack", re: 2 },
      { op: "live-replaced", re: 3 },
      { op: "finished", re: 4 },
      { op: "published", re: 5 },
    ]);
    const capture = path.join(root, "tool-outputs", "AAAAAAAAAAAAAAAAAAAAAAAA");
    expect(readFileSync(path.join(capture, "stdout.txt"), "utf8")).toBe("line\n".repeat(5000));
    for (const name of ["zod", "pino", "rxjs", "piscina"]) {
      expect(loaded.filter(pkg(name)), name).toEqual([]);
    }
    // From core, only the error codes and process identities (owner.json's start time).
    const core = loaded.filter((m) => m.includes("/packages/core/"));
    expect(core.map((m) => m.slice(m.indexOf("/packages/core/"))).sort()).toEqual([
      "/packages/core/dist/errors.js",
      "/packages/core/dist/process-group.js",
    ]);
    // From sinks, only what writing needs.
    const sinks = loaded
      .filter((m) => m.includes("/packages/sinks/"))
      .map((m) => path.basename(m))
      .sort();
    expect(sinks).toEqual([
      "file-writer.worker.js",
      "final-records.js",
      "fs-layer.js",
      "line-index.js",
      "order-journal.js",
      "owner-identity.js",
      "storage.js",
      "sync-cadence.js",
    ]);
  });
});
