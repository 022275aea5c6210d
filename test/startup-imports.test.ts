/**
 * `spool run` on a small result must not load the heavy dependencies it does not need:
 * zod (~50 ms: schemas only validate files read back), piscina (first spill), pino (only
 * with a log destination), the rest of rxjs (only `Subject`). A preload records every
 * module the process loads, ESM through loader hooks and CommonJS through `require.cache`.
 * The binary loads its own code from the entry `scripts/build-cli-entry.mjs` builds.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { SPOOL_BIN, tempRoot } from "./helpers.js";

function loadedModules(args: string[]): string[] {
  const dir = tempRoot();
  const log = path.join(dir, "loaded.txt");
  const hooks = path.join(dir, "hooks.mjs");
  const preload = path.join(dir, "preload.mjs");
  writeFileSync(
    hooks,
    `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(log)}, url + "\\n");
  return next(url, context);
}
`,
  );
  writeFileSync(
    preload,
    `import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";
register(${JSON.stringify(pathToFileURL(hooks).href)});
const cache = createRequire(import.meta.url).cache;
process.on("exit", () => appendFileSync(${JSON.stringify(log)}, Object.keys(cache).join("\\n") + "\\n"));
`,
  );
  const r = spawnSync(process.execPath, ["--import", preload, SPOOL_BIN, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  expect(r.status, r.stderr.toString()).toBe(0);
  return readFileSync(log, "utf8").split("\n").filter(Boolean);
}

const pkg = (name: string) => (m: string) => m.includes(`/node_modules/.pnpm/${name}@`);
/** zod as the entry build bundles it (`scripts/build-cli-entry.mjs`): one file of the CLI's. */
const zod = (m: string) => pkg("zod")(m) || m.endsWith("/packages/cli/dist/vendor/zod.js");

describe("spool run start-up", () => {
  it("loads neither zod, piscina, pino nor rxjs for a small result", () => {
    const loaded = loadedModules(["run", "--root", tempRoot(), "--", "echo", "hi"]);
    // The binary runs from its built entry (scripts/build-cli-entry.mjs): a few files, not the ~100
    // modules of the workspace's dist/ trees.
    const workspace = loaded.filter((m) => m.includes("/packages/"));
    expect(workspace.some((m) => m.includes("/packages/cli/dist/entry/"))).toBe(true);
    expect(workspace.filter((m) => !m.includes("/packages/cli/dist/entry/"))).toEqual([
      expect.stringMatching(/\/packages\/cli\/bin\/spool\.js$/),
    ]);
    // About a dozen chunks (a module shared by several commands is a chunk of its own: the
    // command table, the status line, the progress line, the run function `start` and the
    // MCP tools share), never the workspace's hundred modules; `spool bench startup` times it.
    expect(workspace.length).toBeLessThan(16);
    expect(loaded.filter(zod)).toEqual([]);
    expect(loaded.filter(pkg("piscina"))).toEqual([]);
    expect(loaded.filter(pkg("pino"))).toEqual([]);
    // Lifecycle events (and so rxjs) load only when a caller subscribes.
    expect(loaded.filter(pkg("rxjs"))).toEqual([]);
    // The MCP SDK loads only for `spool mcp` and `spool mcp-proxy`.
    expect(loaded.filter(pkg("@modelcontextprotocol+sdk"))).toEqual([]);
    // The progress line's renderer loads only when a line is first drawn (on a terminal).
    expect(loaded.filter(pkg("log-update"))).toEqual([]);
  });

  it("the probe sees zod where it is loaded (ls validates receipts), as the one prebuilt file", () => {
    const loaded = loadedModules(["ls", "--root", tempRoot()]);
    expect(loaded.filter(zod)).toEqual([
      expect.stringMatching(/\/packages\/cli\/dist\/vendor\/zod\.js$/),
    ]);
  });
});
