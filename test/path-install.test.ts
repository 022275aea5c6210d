/**
 * `spool` on PATH as the README and docs/mcp.md put it there: `scripts/pack-cli.mjs` packs
 * one tarball, `npm install -g --prefix EMPTY` installs it, and the installed binary is
 * driven by name through `PATH` alone: `--version`, `run`, a capture read back (the
 * writer worker and the bundled packages resolve beside each other), `bench` (not packed),
 * and `spool mcp` under the SDK's real client, as an MCP client would start it.
 *
 * The install points the `@spool` scope at a local registry that answers 404 to everything
 * and counts what it is asked: a lookup of any `@spool/*` package fails the install at once,
 * and the test checks that none was made. Third-party dependencies come from npm's cache
 * (`--prefer-offline`), or the public registry when the cache lacks them.
 */
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const BUNDLED = ["@spool/cli", "@spool/core", "@spool/sinks", "@spool/transforms"];
const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const CLI = readJson(path.join(REPO, "packages/cli/package.json")) as {
  version: string;
  dependencies: Record<string, string>;
};

let work = "";
let prefix = "";
let tarball = "";
/** The environment an MCP client gives a server it starts: a PATH, a HOME, nothing else. */
let env: Record<string, string> = {};
/** What npm asked the `@spool` scope's registry for. */
const scopeLookups: string[] = [];

const exec = (cmd: string, args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}) =>
  execFileSync(cmd, args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, npm_config_audit: "false", npm_config_fund: "false", ...extra },
    timeout: 150_000,
  });

/** `spool ARGS`, found on PATH. */
const spool = (args: string[]) => {
  const r = spawnSync("spool", args, { cwd: work, env, encoding: "utf8", timeout: 30_000 });
  if (r.error) throw r.error;
  return r;
};

const SKIP =
  process.platform === "win32"
    ? "on Windows npm puts global binaries in PREFIX as .cmd shims, not PREFIX/bin, and spool's process groups are POSIX-only"
    : null;

describe.skipIf(SKIP !== null)(
  `spool installed on PATH from the packed CLI${SKIP ? ` (skipped: ${SKIP})` : ""}`,
  () => {
    beforeAll(async () => {
      work = mkdtempSync(path.join(tmpdir(), "spool-path-"));
      prefix = path.join(work, "prefix");
      const home = path.join(work, "home");
      mkdirSync(prefix);
      mkdirSync(home);
      // --no-build: the suite runs on a built tree (`pnpm test` builds before vitest).
      const out = exec(
        process.execPath,
        [path.join(REPO, "scripts/pack-cli.mjs"), "--no-build", "--out", path.join(work, "out")],
        REPO,
      );
      tarball = out.trim().split("\n").pop()!;
      // The install runs asynchronously so that this process can answer for the scope.
      const scopeRegistry = createServer((req, res) => {
        scopeLookups.push(req.url ?? "");
        res.writeHead(404).end();
      });
      await new Promise<void>((resolve) => scopeRegistry.listen(0, "127.0.0.1", resolve));
      const { port } = scopeRegistry.address() as AddressInfo;
      try {
        await promisify(execFile)(
          "npm",
          [
            "install",
            "--global",
            "--prefix",
            prefix,
            tarball,
            "--prefer-offline",
            "--ignore-scripts",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
          ],
          {
            cwd: work,
            env: { ...process.env, "npm_config_@spool:registry": `http://127.0.0.1:${port}/` },
            timeout: 150_000,
          },
        );
      } finally {
        scopeRegistry.close();
      }
      env = {
        PATH: [path.join(prefix, "bin"), path.dirname(process.execPath), "/usr/bin", "/bin"].join(
          path.delimiter,
        ),
        HOME: home,
      };
    }, 180_000);

    afterAll(() => {
      if (work) rmSync(work, { recursive: true, force: true });
    });

    it("packs one tarball named as the docs say, the workspace packages bundled, bench left out", () => {
      expect(path.basename(tarball)).toBe(`spool-cli-${CLI.version}.tgz`);
      expect(scopeLookups).toEqual([]);
      const files = exec("tar", ["-tzf", tarball], work).trim().split("\n");
      const manifest = JSON.parse(exec("tar", ["-xzOf", tarball, "package/package.json"], work));
      expect([...manifest.bundleDependencies].sort()).toEqual(BUNDLED);
      for (const name of BUNDLED) {
        expect(manifest.dependencies[name]).toBe(CLI.version);
        const own = exec(
          "tar",
          ["-xzOf", tarball, `package/node_modules/${name}/package.json`],
          work,
        );
        expect(own, name).not.toContain("workspace:");
      }
      // The third-party dependencies are the CLI's own, with its ranges.
      const thirdParty = Object.entries(manifest.dependencies).filter(
        ([name]) => !name.startsWith("@spool/"),
      );
      expect(Object.fromEntries(thirdParty)).toEqual(
        Object.fromEntries(
          Object.entries(CLI.dependencies).filter(([name]) => !name.startsWith("@spool/")),
        ),
      );
      expect(files.filter((f) => /@spool\/bench|\.test\.|tsbuildinfo|\.ts$/.test(f))).toEqual([]);
      expect(files.join("\n")).not.toMatch(/^package\/node_modules\/(?!@spool\/)/m);
      // Installed: the four side by side inside the one global package, nothing else at top.
      const lib = path.join(prefix, "lib", "node_modules");
      expect(readdirSync(lib).filter((f) => !f.startsWith("."))).toEqual(["spool-cli"]);
      const modules = path.join(lib, "spool-cli", "node_modules");
      expect(readdirSync(path.join(modules, "@spool")).sort()).toEqual(
        BUNDLED.map((n) => n.slice("@spool/".length)),
      );
      // npm counts a bundled package's own dependencies as bundled and leaves them as empty
      // directories: every dependency must be there whole (see scripts/pack-cli.mjs).
      for (const name of Object.keys(manifest.dependencies)) {
        expect(existsSync(path.join(modules, name, "package.json")), name).toBe(true);
      }
    });

    it("answers --version and runs a command, by name from PATH", () => {
      const version = spool(["--version"]);
      expect(version.status).toBe(0);
      expect(version.stdout.trim()).toBe(`spool ${CLI.version}`);
      // The form docs/mcp.md gives clients that see no PATH: node, then spool's absolute path.
      const direct = spawnSync(process.execPath, [path.join(prefix, "bin", "spool"), "--version"], {
        encoding: "utf8",
      });
      expect(direct.stdout.trim()).toBe(`spool ${CLI.version}`);
      const hi = spool(["run", "--", "echo", "hi"]);
      expect(hi.stderr).toBe("");
      expect(hi.status).toBe(0);
      expect(hi.stdout).toMatch(/^hi\n\[spool\] exit 0 · status 0 · capture complete/);
    });

    it("keeps a large output in the default root under HOME and reads it back", () => {
      const r = spool(["run", "--json", "--", "seq", "1", "100000"]);
      expect(r.status).toBe(0);
      const receipt = JSON.parse(r.stdout) as { captureId: string; capture: { state: string } };
      expect(receipt.capture.state).toBe("complete");
      const line = spool(["read", receipt.captureId, "--lines", "31337:31337"]);
      expect(line.status).toBe(0);
      expect(line.stdout).toBe("31337\n");
      expect(readdirSync(path.join(env.HOME!, ".local", "state", "spool", "default"))).not.toEqual(
        [],
      );
    });

    it("says that `spool bench` needs the repository", () => {
      const r = spool(["bench", "fixtures"]);
      expect(r.status).toBe(64);
      expect(r.stderr).toMatch(/@spool\/bench is part of the spool repository/);
    });

    it("serves `spool mcp` to the SDK client: lists the tools and runs a command", async () => {
      const transport = new StdioClientTransport({
        command: "spool",
        args: ["mcp"],
        env,
        cwd: work,
        stderr: "pipe",
      });
      const client = new Client({ name: "spool-path-test", version: "0" });
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["run", "read", "wait"]));
        const r = (await client.callTool({
          name: "run",
          arguments: { argv: ["echo", "hi from mcp"] },
        })) as { content: { type: string; text?: string }[]; isError?: boolean };
        expect(r.isError).toBeFalsy();
        const text = r.content.map((c) => c.text ?? "").join("");
        expect(text).toContain("hi from mcp");
        expect(text).toMatch(/\[spool\] exit 0 · status 0 · capture complete/);
      } finally {
        await client.close();
      }
    }, 30_000);

    it("is the command the README and docs/mcp.md give", () => {
      const command = `npm install -g ./spool-cli-${CLI.version}.tgz`;
      for (const page of ["README.md", "docs/mcp.md"]) {
        const text = readFileSync(path.join(REPO, page), "utf8");
        expect(text, page).toContain("npx --yes pnpm@10 run pack:cli");
        expect(text, page).toContain(command);
      }
      expect(readJson(path.join(REPO, "package.json")).scripts["pack:cli"]).toBe(
        "node scripts/pack-cli.mjs",
      );
    });
  },
);
