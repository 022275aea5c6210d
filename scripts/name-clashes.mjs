// File and function names used in more than one package's src/: `node
// scripts/name-clashes.mjs` prints each clash. A name says what a module or function
// holds, so two packages that use one name for different things mislead whoever searches
// for it. The entry files every package may have (index, runtime, testing, internal) are
// exempt. test/architecture.test.ts fails on any clash.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { packageSources } from "./long-functions.mjs";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const ENTRY_FILES = new Set(["index.ts", "runtime.ts", "testing.ts", "internal.ts"]);

/**
 * Clashes as `{ kind: "file" | "function", name, where: ["packages/x/src/…", …] }`: a file
 * name, or a top-level function's name (a declaration, or a `const` bound to an arrow or
 * function expression), found in the src/ of more than one package.
 */
export function nameClashes(root = REPO) {
  const files = new Map();
  const functions = new Map();
  const add = (map, name, file) => map.set(name, [...(map.get(name) ?? []), file]);
  for (const file of packageSources(root)) {
    const base = path.posix.basename(file);
    if (!ENTRY_FILES.has(base)) add(files, base, file);
    const text = readFileSync(path.join(root, file), "utf8");
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    for (const name of topLevelFunctions(sf)) add(functions, name, file);
  }
  const packageOf = (file) => file.split("/")[1];
  const clashes = [];
  for (const [kind, map] of [
    ["file", files],
    ["function", functions],
  ])
    for (const [name, where] of map)
      if (new Set(where.map(packageOf)).size > 1) clashes.push({ kind, name, where });
  return clashes.sort((a, b) => a.name.localeCompare(b.name));
}

function topLevelFunctions(sf) {
  const names = [];
  for (const statement of sf.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name) names.push(statement.name.text);
    if (!ts.isVariableStatement(statement)) continue;
    for (const d of statement.declarationList.declarations) {
      const init = d.initializer;
      if (!init || !ts.isIdentifier(d.name)) continue;
      if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) names.push(d.name.text);
    }
  }
  return names;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  for (const c of nameClashes()) console.log(`${c.kind}\t${c.name}\t${c.where.join(" ")}`);
}
