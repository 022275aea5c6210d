/**
 * The packages as an outside user meets them: `pnpm -r pack` at the root (the four public
 * packages, never the private bench), then the tarballs installed into two empty
 * projects, one with plain `npm install` and one with `pnpm add`, with no workspace and no
 * overrides (the spool packages name each other as peers, so both resolve them from the
 * tarballs; third-party dependencies come from the cache or the registry). In each, a
 * consumer is type-checked with `skipLibCheck: false` and run: each item of the library's
 * second round (test/fixtures/consumer/consumer.ts).
 */
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const PACKAGES = ["core", "transforms", "sinks", "cli"];
const FIXTURE = fileURLToPath(new URL("./fixtures/consumer/", import.meta.url));
const TSC = path.join(REPO, "node_modules", "typescript", "bin", "tsc");

let work = "";
let project = "";
let pnpmProject = "";
const NPM_FLAGS = [
  "--prefer-offline",
  "--ignore-scripts",
  "--no-audit",
  "--no-fund",
  "--loglevel=error",
];
const tarballs: string[] = [];

const run = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) =>
  execFileSync(cmd, args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, npm_config_audit: "false", npm_config_fund: "false", ...env },
    timeout: 240_000,
  });

/** The file list and the manifest of a tarball. */
function contents(tarball: string): { files: string[]; manifest: Record<string, unknown> } {
  const files = run("tar", ["-tzf", tarball], work).trim().split("\n");
  const manifest = JSON.parse(run("tar", ["-xzOf", tarball, "package/package.json"], work));
  return { files, manifest };
}

/** An empty project in `work/<name>` with the tarballs, the kit's peer, rxjs, pino and the types. */
function installConsumer(manager: "npm" | "pnpm"): string {
  const dir = path.join(work, `consumer-${manager}`);
  run("mkdir", ["-p", dir], work);
  writeFileSync(
    path.join(dir, "package.json"),
    `${JSON.stringify({ name: `consumer-${manager}`, private: true, type: "module" }, null, 2)}\n`,
  );
  const extras = ["fast-check@^4", "@types/node@^20", "rxjs@^7.8.2", "pino@^10"];
  if (manager === "npm") {
    run("npm", ["install", ...tarballs, ...extras, ...NPM_FLAGS], dir);
  } else {
    run(
      "npx",
      [
        "--yes",
        "pnpm@10",
        "add",
        ...tarballs,
        ...extras,
        "--prefer-offline",
        "--ignore-scripts",
        "--reporter=silent",
      ],
      dir,
    );
  }
  return dir;
}

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), "spool-pack-"));
  const packs = path.join(work, "packs");
  run("npx", ["--yes", "pnpm@10", "-r", "pack", "--pack-destination", packs], REPO);
  tarballs.push(...readdirSync(packs).map((f) => path.join(packs, f)));
  // One install each (the slow part).
  project = installConsumer("npm");
  pnpmProject = installConsumer("pnpm");
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the packed packages", () => {
  it("are the four public packages: pnpm -r pack leaves the private bench out", () => {
    expect(tarballs.map((t) => path.basename(t)).sort()).toEqual(
      PACKAGES.map((name) => `spool-${name}-0.1.0.tgz`).sort(),
    );
  });

  it("ship caret ranges, README and LICENSE, and no build leftovers or tests", () => {
    expect(tarballs).toHaveLength(PACKAGES.length);
    for (const tarball of tarballs) {
      const { files, manifest } = contents(tarball);
      const where = path.basename(tarball);
      expect(files, where).toContain("package/README.md");
      expect(files, where).toContain("package/LICENSE");
      expect(
        files.filter((f) => /tsbuildinfo|\.test\.|\/test\//.test(f)),
        where,
      ).toEqual([]);
      const deps = {
        ...(manifest.dependencies as object),
        ...(manifest.peerDependencies as object),
      };
      for (const [dep, range] of Object.entries(deps)) {
        expect(String(range), `${where} ${dep}`).toMatch(/^\^\d/);
      }
      expect(JSON.stringify(manifest)).not.toContain("workspace:");
    }
    const core = tarballs.find((t) => path.basename(t).startsWith("spool-core-"))!;
    const deps = Object.keys(contents(core).manifest.dependencies as object);
    expect(deps).not.toContain("pino");
    expect(deps).toContain("rxjs"); // capture.events is an rxjs Observable (loaded on first use)
    // The spool packages name each other as peers: resolved from what the consumer installs.
    const sinks = contents(tarballs.find((t) => path.basename(t).startsWith("spool-sinks-"))!);
    expect(sinks.manifest.peerDependencies).toMatchObject({
      "@spool/core": "^0.1.0",
      "@spool/transforms": "^0.1.0",
    });
    expect(Object.keys(sinks.manifest.dependencies as object)).not.toContain("@spool/core");
  });

  it("say clearly that the kit needs fast-check when it is missing", () => {
    const installed = path.join(project, "node_modules", "fast-check");
    const aside = path.join(work, "fast-check-aside");
    renameSync(installed, aside);
    let message = "";
    try {
      run(
        process.execPath,
        ["--input-type=module", "-e", 'await import("@spool/transforms/testing")'],
        project,
      );
    } catch (error) {
      message = String((error as { stderr?: string }).stderr);
    } finally {
      renameSync(aside, installed);
    }
    expect(message).toMatch(
      /needs fast-check, an optional peer dependency: run `npm install --save-dev fast-check@\^4`/,
    );
  });

  it.each([
    ["npm", () => project],
    ["pnpm", () => pnpmProject],
  ])(
    "installed with %s: a consumer type-checks with skipLibCheck false and each item holds",
    (_, dir) => {
      const where = dir();
      for (const file of ["consumer.ts", "tsconfig.json"]) {
        copyFileSync(path.join(FIXTURE, file), path.join(where, file));
      }
      const tsc = (() => {
        try {
          return run(process.execPath, [TSC, "-p", "tsconfig.json"], where);
        } catch (error) {
          return String((error as { stdout?: string }).stdout);
        }
      })();
      expect(tsc).toBe("");
      const out = run(process.execPath, ["out/consumer.js"], where);
      checkConsumer(JSON.parse(out.trim().split("\n").pop()!));
      const version = run(
        process.execPath,
        ["node_modules/@spool/cli/bin/spool.js", "--version"],
        where,
      );
      expect(version.trim()).toMatch(/0\.1\.0/);
      // The CLI package is the binary only: it exports no module.
      let refused = "";
      try {
        run(process.execPath, ["--input-type=module", "-e", 'await import("@spool/cli")'], where);
      } catch (error) {
        refused = String((error as { stderr?: string }).stderr);
      }
      expect(refused).toContain("ERR_PACKAGE_PATH_NOT_EXPORTED");
      expect(
        JSON.parse(readFileSync(path.join(where, "package.json"), "utf8")).dependencies,
      ).toHaveProperty("@spool/core");
    },
    240_000,
  );
});

/** What the consumer printed: one expectation per item of the library's second round. */
function checkConsumer(result: Record<string, Record<string, unknown>>): void {
  // (1) the colour-split token under a hand-built unsafe plan: refused, nothing stored;
  // a stage that drops \r runs before the redactor, so the token it joins is redacted.
  expect(result.safety).toEqual({
    refused: "SPOOL_E_PLAN",
    stored: 0,
    joinedPreview: "[REDACTED:github-token]\n",
  });
  // (2) rxjs from(capture.events) completes with every event; a source delivers start.
  expect(result.events).toEqual({
    process: ["start", "spill", "exit", "final"],
    source: ["start", "exit", "final"],
  });
  // (3) the redactor's marker as its own after a length-changing stage; no spill.
  expect(result.markers).toEqual({ preview: "> key [REDACTED:github-token]\n", spilled: false });
  // (4) a stage that throws: reason, stageError, event, every byte accounted.
  expect(result.stageError).toEqual({
    capture: {
      state: "partial",
      reasons: ["stage-error"],
      stageError: {
        stream: "stdout",
        stage: "brittle",
        message: "cannot parse line 2",
        heldBytes: 0,
      },
    },
    event: {
      type: "stage-error",
      stream: "stdout",
      stage: "brittle",
      message: "cannot parse line 2",
    },
    raw: { observed: 14, accepted: 4, pending: 0, discarded: 10 },
  });
  // (6) defaults: one call with the source and the spool; the spool owns its root.
  expect(result.defaults).toEqual({
    root: true,
    committed: 19 * 20_000,
    head: "line of the report\n",
    memoryRoot: "memory",
    twice: "SPOOL_E_OPTIONS",
    aborted: 143,
  });
  // (7) the kit: the buggy-stage table, a leaking redacting stage; pino's pid once a line.
  const kit = result.kit as { redacted: string; table: Record<string, string>; pidKeys: number[] };
  expect(kit.redacted).toBe("key [REDACTED:acme-key] ok");
  expect(kit.table.good).toBe("passed");
  expect(kit.table.reversed).toMatch(/is not a prefix of the expected/);
  expect(kit.table.mutating).toMatch(/push changed its input/);
  expect(kit.table.shared).toMatch(/same instance twice/);
  expect(kit.table.leaking).toMatch(/of the secret "PIN-\d{8}" survives in its output/);
  expect(kit.pidKeys.length).toBeGreaterThan(1);
  expect(new Set(kit.pidKeys)).toEqual(new Set([1]));
}
