#!/usr/bin/env node
/**
 * Packs the `spool` CLI as one self-contained npm tarball, `spool-cli-<version>.tgz`, so
 * that `npm install -g ./spool-cli-<version>.tgz` puts `spool` on PATH from a clone:
 *
 *     npx --yes pnpm@10 run pack:cli && npm install -g ./spool-cli-0.1.0.tgz
 *
 * The tarball is a small package, `spool-cli`, that carries `@spool/cli`, `@spool/core`,
 * `@spool/transforms` and `@spool/sinks` as bundled dependencies (each as `pnpm pack`
 * packs it, the tarballs test/pack-install.test.ts installs, less its sources, types and
 * source maps, which nothing loads from a global install), so npm never looks up
 * `@spool/*` on a registry. The third-party packages those four declare become the
 * wrapper's own dependencies, with their ranges, and npm installs them as usual.
 *
 * Why a wrapper and not `@spool/cli` with bundled dependencies: the CLI's bundled entry
 * finds the other packages' workers and data files beside it (`../../../sinks/dist/…`,
 * see build-cli-entry.mjs), which holds when the four are siblings in one
 * `node_modules/@spool/`, as here, and not when they are nested inside `@spool/cli`.
 * Why the bundled manifests lose their third-party dependencies: npm counts a dependency
 * of a bundled package as part of the bundle, so it would neither fetch `hono` or `zod`
 * nor find them in the tarball, and leave empty directories (test/path-install.test.ts
 * fails then). Declared by the wrapper alone, they are fetched and found by the usual
 * lookup up the tree. The private `@spool/bench` is not packed: `spool bench` says it
 * needs a clone.
 *
 * Options: `--out DIR` (default: the repository root), `--no-build` (pack the `dist/`
 * as it is; by default the workspace is built first, so the tarball matches the source).
 * Prints the tarball's path on stdout.
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { extract } from "tar";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BUNDLED = ["core", "transforms", "sinks", "cli"];
const NAME = "spool-cli";
/** Sources, types and source maps: for developers importing the packages, not the CLI. */
const UNUSED = /^package\/src\/|\.d\.ts$|\.map$/;

const { values } = parseArgs({
  options: { out: { type: "string" }, "no-build": { type: "boolean" } },
});
const out = path.resolve(values.out ?? root);

const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, npm_config_audit: "false", npm_config_fund: "false" },
  });

// The build `prepare` runs (not `write-schema.mjs`, which rewrites a checked-in file).
if (!values["no-build"]) {
  run(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-b"], root);
  run(process.execPath, [path.join(root, "scripts/build-automata.mjs")], root);
  run(process.execPath, [path.join(root, "scripts/build-cli-entry.mjs")], root);
}
for (const built of [
  "packages/cli/dist/entry/main.js",
  "packages/transforms/dist/automata/builtin-exact.bin",
]) {
  if (!existsSync(path.join(root, built))) {
    throw new Error(`pack-cli: ${built} is missing: run \`npx --yes pnpm@10 build\` first`);
  }
}

const stage = mkdtempSync(path.join(tmpdir(), "spool-pack-cli-"));
try {
  // pnpm pack: it replaces `workspace:` ranges by the versions, as a publish would.
  const packs = path.join(stage, "packs");
  run(
    "npx",
    [
      "--yes",
      "pnpm@10",
      "--recursive",
      ...BUNDLED.flatMap((name) => ["--filter", `./packages/${name}`]),
      "pack",
      "--pack-destination",
      packs,
    ],
    root,
  );
  const pkg = path.join(stage, "package");
  const manifests = [];
  for (const name of BUNDLED) {
    const version = readJson(path.join(root, "packages", name, "package.json")).version;
    const tarball = path.join(packs, `spool-${name}-${version}.tgz`);
    const into = path.join(pkg, "node_modules", "@spool", name);
    mkdirSync(into, { recursive: true });
    await extract({ file: tarball, cwd: into, strip: 1, filter: (entry) => !UNUSED.test(entry) });
    manifests.push(readJson(path.join(into, "package.json")));
  }
  const dependencies = dependenciesOf(manifests);
  for (const manifest of manifests) {
    const own = path.join(pkg, "node_modules", manifest.name, "package.json");
    writeFileSync(own, `${JSON.stringify(bundledManifest(manifest), null, 2)}\n`);
  }
  const cli = manifests.find((m) => m.name === "@spool/cli");
  const bundled = manifests.map((m) => m.name);
  writeFileSync(
    path.join(pkg, "package.json"),
    `${JSON.stringify(
      {
        name: NAME,
        version: cli.version,
        description: `${cli.description} (the CLI with its workspace packages bundled)`,
        license: cli.license,
        type: "module",
        engines: cli.engines,
        bin: { spool: "node_modules/@spool/cli/bin/spool.js" },
        dependencies,
        bundleDependencies: bundled,
      },
      null,
      2,
    )}\n`,
  );
  cpSync(path.join(root, "packages/cli/LICENSE"), path.join(pkg, "LICENSE"));
  writeFileSync(path.join(pkg, "README.md"), readme(cli.version));
  mkdirSync(out, { recursive: true });
  const [packed] = JSON.parse(
    run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", out], pkg),
  );
  const file = path.join(out, packed.filename);
  const missing = bundled.filter(
    (name) => !packed.files.some((f) => f.path === `node_modules/${name}/package.json`),
  );
  if (missing.length > 0) throw new Error(`pack-cli: ${missing.join(", ")} not bundled`);
  process.stdout.write(`${file}\n`);
  // `./` so that npm reads it as a file, not a package name.
  const shown = path.relative(process.cwd(), file);
  const spec = shown.startsWith(".") || path.isAbsolute(shown) ? shown : `./${shown}`;
  process.stderr.write(`install it with: npm install -g ${spec}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}

function readJson(file) {
  return JSON.parse(readFileSync(file, "utf8"));
}

/**
 * The bundled packages pinned to their own versions, and the third-party packages they
 * declare with their ranges. Two packages that ask for one dependency with different
 * ranges, or a `@spool/*` dependency that is not bundled, stop the pack: npm would
 * otherwise fetch something no test has run.
 */
function dependenciesOf(manifests) {
  const bundled = new Map(manifests.map((m) => [m.name, m.version]));
  const third = new Map();
  for (const m of manifests) {
    for (const [dep, range] of Object.entries(m.dependencies ?? {})) {
      if (bundled.has(dep)) continue;
      if (dep.startsWith("@spool/")) {
        throw new Error(`pack-cli: ${m.name} depends on ${dep}, which is not bundled`);
      }
      const seen = third.get(dep);
      if (seen !== undefined && seen !== range) {
        throw new Error(`pack-cli: ${dep} is asked for as ${seen} and as ${range} (${m.name})`);
      }
      third.set(dep, range);
    }
  }
  const sorted = (map) => Object.fromEntries([...map].sort(([a], [b]) => a.localeCompare(b)));
  return { ...sorted(bundled), ...sorted(third) };
}

/**
 * A bundled package's manifest without its third-party dependencies (the wrapper declares
 * them; see the top of this file), nor peer or dev dependencies. Its `exports` still name
 * `.d.ts` files left out of the tarball: nothing type-checks against a global install.
 */
function bundledManifest(manifest) {
  const { devDependencies, peerDependencies, peerDependenciesMeta, ...rest } = manifest;
  const dependencies = Object.fromEntries(
    Object.entries(manifest.dependencies ?? {}).filter(([dep]) => dep.startsWith("@spool/")),
  );
  return { ...rest, dependencies };
}

function readme(version) {
  return `# spool-cli

The \`spool\` command, packed from a clone of the spool repository by
\`scripts/pack-cli.mjs\` with its workspace packages (\`@spool/cli\`, \`@spool/core\`,
\`@spool/transforms\`, \`@spool/sinks\`) bundled inside.

    npm install -g ./spool-cli-${version}.tgz
    spool run -- make test
    spool help

To update it, pack and install again from the clone: it is not on a registry, so
\`npm update -g\` does not apply. \`spool bench\` needs the clone itself.

MIT licensed.
`;
}
