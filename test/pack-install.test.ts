/**
 * The packages as an outside user meets them: `pnpm pack` every publishable package,
 * install the tarballs into an empty project with plain `npm install` (no workspace, no
 * overrides; npm fetches third-party dependencies from its cache or the registry),
 * type-check a consumer with `skipLibCheck: false`, and run it: a process capture, an
 * HTTP-body capture from a loopback server, a custom rule and a custom stage under the kit.
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
const tarballs: string[] = [];

const run = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) =>
  execFileSync(cmd, args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, npm_config_audit: "false", npm_config_fund: "false", ...env },
    timeout: 240_000,
  });

const npm = (args: string[]) =>
  run(
    "npm",
    [
      ...args,
      "--prefer-offline",
      "--ignore-scripts",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
    ],
    project,
  );

/** The file list and the manifest of a tarball. */
function contents(tarball: string): { files: string[]; manifest: Record<string, unknown> } {
  const files = run("tar", ["-tzf", tarball], work).trim().split("\n");
  const manifest = JSON.parse(run("tar", ["-xzOf", tarball, "package/package.json"], work));
  return { files, manifest };
}

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), "spool-pack-"));
  const packs = path.join(work, "packs");
  for (const name of PACKAGES) {
    run(
      "npx",
      ["--yes", "pnpm@10", "pack", "--pack-destination", packs],
      path.join(REPO, "packages", name),
    );
  }
  tarballs.push(...readdirSync(packs).map((f) => path.join(packs, f)));
  project = path.join(work, "consumer");
  run("mkdir", ["-p", project], work);
  writeFileSync(
    path.join(project, "package.json"),
    `${JSON.stringify({ name: "consumer", private: true, type: "module" }, null, 2)}\n`,
  );
  // One install (the slow part): the tarballs, the kit's optional peer and the types.
  npm(["install", ...tarballs, "fast-check@^4", "@types/node@^20"]);
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the packed packages", () => {
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
    expect(deps).not.toContain("rxjs");
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

  it("type-check a consumer with skipLibCheck false and run its four jobs", () => {
    for (const file of ["consumer.ts", "tsconfig.json"]) {
      copyFileSync(path.join(FIXTURE, file), path.join(project, file));
    }
    const tsc = (() => {
      try {
        return run(process.execPath, [TSC, "-p", "tsconfig.json"], project);
      } catch (error) {
        return String((error as { stdout?: string }).stdout);
      }
    })();
    expect(tsc).toBe("");
    const out = run(process.execPath, ["out/consumer.js"], project);
    const result = JSON.parse(out.trim().split("\n").pop()!);
    expect(result.process).toEqual({
      exitStatus: 0,
      state: "complete",
      spooled: true,
      leaked: false,
      redactions: 1,
      events: expect.arrayContaining(["start", "spill", "exit", "final"]),
    });
    expect(result.process.events.at(-1)).toBe("final");
    expect(result.http).toEqual({
      kind: "web-stream",
      declared: "complete",
      state: "complete",
      committed: 19 * 20_000,
      head: "line of the report\n",
      removed: true,
    });
    expect(result.rule).toEqual({
      redacted: "key [REDACTED:acme-key] ok",
      refused: "SPOOL_E_OPTIONS",
    });
    expect(result.stage.caught).toMatch(/^stage "upper": .*(is not a prefix|lost at end\(\))/);
    expect(result.stage.writer).toBe("kit");
    const version = run(
      process.execPath,
      ["node_modules/@spool/cli/bin/spool.js", "--version"],
      project,
    );
    expect(version.trim()).toMatch(/0\.1\.0/);
    // The CLI package is the binary only: it exports no module.
    let refused = "";
    try {
      run(process.execPath, ["--input-type=module", "-e", 'await import("@spool/cli")'], project);
    } catch (error) {
      refused = String((error as { stderr?: string }).stderr);
    }
    expect(refused).toContain("ERR_PACKAGE_PATH_NOT_EXPORTED");
    expect(
      JSON.parse(readFileSync(path.join(project, "package.json"), "utf8")).dependencies,
    ).toHaveProperty("@spool/core");
  }, 240_000);
});
