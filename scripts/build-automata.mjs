#!/usr/bin/env node
/**
 * Writes the built-in redaction rules' exact automaton as an image beside the transforms
 * package's code (`packages/transforms/dist/automata/builtin-exact.bin`), so a capture
 * with the built-in rules loads it instead of building it at every start-up. Run after
 * `tsc -b`; `pnpm build`, `pnpm test` and `pnpm install` do. A missing or stale image only
 * costs time: `compileRedaction` checks the image's key against its own needles and builds
 * the automaton when they differ.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "packages/transforms/dist");
const dir = path.join(dist, "automata");
rmSync(dir, { recursive: true, force: true });
const { builtinAutomatonImage } = await import(
  pathToFileURL(path.join(dist, "compile-redaction.js")).href
);
mkdirSync(dir);
writeFileSync(path.join(dir, "builtin-exact.bin"), builtinAutomatonImage());
