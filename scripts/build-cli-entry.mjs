#!/usr/bin/env node
/**
 * Builds the `spool` binary's entry with esbuild: `packages/cli/dist/main.js` and every
 * workspace module it reaches become a few files in `packages/cli/dist/entry/`, one chunk
 * per command, so `spool run` resolves and reads a handful of files instead of about a
 * hundred (module loading was a third of its start-up). Run after `tsc -b`; `pnpm build`,
 * `pnpm test` and `pnpm install` do both.
 *
 * - Third-party packages stay external: they load from `node_modules` when a command needs
 *   them, as before, so the start-up tests still see which ones load. zod is the one
 *   exception: every reader command validates receipts with it, and resolving and
 *   compiling its ~80 modules cost ~85 ms of CPU a command where one prebuilt file
 *   (`dist/vendor/zod.js`, built here) costs ~35; it still loads only when a command
 *   reaches a schema.
 * - `import.meta.url` keeps meaning the URL of the module it was written in, so workers,
 *   web assets and the binary's own path resolve from the `dist/` files beside them.
 * - The library packages are unchanged: whoever imports `@spool/core`, `@spool/sinks` or
 *   `@spool/transforms` gets their own `dist/`.
 */
import { readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cli = path.join(root, "packages/cli");
const outdir = path.join(cli, "dist/entry");

const cliDependencies = new Set(
  Object.keys(JSON.parse(readFileSync(path.join(cli, "package.json"), "utf8")).dependencies),
);

/**
 * Third-party imports stay external and resolve from where the entry lies, the CLI package,
 * so each must be a dependency of the CLI itself (pnpm gives a package only its own). A
 * workspace module that imports one the CLI does not declare fails the build.
 */
const externalDependencies = {
  name: "external-dependencies",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("node:") || args.path.startsWith("@spool/")) return undefined;
      if (args.path === "zod") return { path: "../vendor/zod.js", external: true };
      const name = args.path
        .split("/")
        .slice(0, args.path.startsWith("@") ? 2 : 1)
        .join("/");
      if (cliDependencies.has(name)) return { path: args.path, external: true };
      return {
        errors: [
          { text: `${name} is imported by ${args.importer} but is not a dependency of @spool/cli` },
        ],
      };
    });
  },
};

/**
 * Replaces `import.meta.url` in each module by that module's own file URL, written relative
 * to the entry (every chunk sits in `outdir`), so the tree can still move.
 */
const ownModuleUrl = {
  name: "own-module-url",
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      if (!source.includes("import.meta.url")) return undefined;
      const relative = JSON.stringify(path.relative(outdir, args.path).split(path.sep).join("/"));
      const own = `new URL(${relative}, import.meta.url).href`;
      return { contents: source.replaceAll("import.meta.url", own), loader: "js" };
    });
  },
};

// Chunk names carry content hashes: start empty so no stale chunk is left beside the new.
rmSync(outdir, { recursive: true, force: true });
// zod as one file, resolved from the CLI package (whose dependency it is).
await build({
  stdin: { contents: 'export * from "zod";', resolveDir: cli },
  outfile: path.join(cli, "dist/vendor/zod.js"),
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  logLevel: "warning",
});
await build({
  entryPoints: [path.join(cli, "dist/main.js")],
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  plugins: [externalDependencies, ownModuleUrl],
  logLevel: "warning",
});
