// The workspace's imports, read from the TypeScript syntax tree:
// - import cycles among packages/*/src files (static imports; `import type` and `import()`
//   load nothing at start-up, so they make no cycle), and among the packages themselves;
// - deep imports: `@spool/x/…` not in x's `exports` map (its `src/`, `dist/` or any
//   unexported module), or a relative path into another package's directory, from
//   packages/*/src, packages/*/test or test/.
// `node scripts/import-graph.mjs` prints what it finds and exits 1 if anything.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/** Every import of every file under `dirs` (repository-relative paths). */
function readImports(root, dirs) {
  const files = [];
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const f = path.join(dir, e.name);
      // Hidden directories are scratch, not source: `test/.doc-examples-*` is written and
      // removed by another test while this one may run.
      if (e.isDirectory() && e.name.startsWith(".")) continue;
      if (e.isDirectory()) walk(f);
      else if (/\.(m?ts|tsx)$/.test(e.name) && !e.name.endsWith(".d.ts")) files.push(f);
    }
  };
  for (const d of dirs) walk(path.join(root, d));
  return files.map((f) => {
    const file = path.relative(root, f).split(path.sep).join("/");
    return { file, imports: importsOf(file, readFileSync(f, "utf8")) };
  });
}

/** `{ specifier, runtime }` per import: runtime is false for `import type` and `import()`. */
function importsOf(file, text) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const typeOnly = ts.isImportDeclaration(node)
        ? node.importClause?.isTypeOnly === true
        : node.isTypeOnly;
      found.push({ specifier: node.moduleSpecifier.text, runtime: !typeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, runtime: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal;
      if (ts.isStringLiteral(literal)) found.push({ specifier: literal.text, runtime: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** The package directory (`packages/core`) a repository path is in, or null. */
function packageOf(file) {
  const m = /^packages\/([^/]+)\//.exec(file);
  return m ? `packages/${m[1]}` : null;
}

/** The `exports` subpaths of each workspace package, by name (`@spool/core` → [".", "./runtime"]). */
function workspacePackages(root) {
  const byName = new Map();
  for (const dir of readdirSync(path.join(root, "packages"))) {
    const manifest = path.join(root, "packages", dir, "package.json");
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, "utf8"));
    byName.set(pkg.name, { dir: `packages/${dir}`, exports: Object.keys(pkg.exports ?? {}) });
  }
  return byName;
}

/** The source file an import names, a deep-import complaint, or neither (a third party). */
function resolve(root, from, specifier, packages) {
  if (specifier.startsWith(".")) {
    const base = path.posix.join(path.posix.dirname(from), specifier).replace(/\.(m?js)$/, "");
    const file = [`${base}.ts`, `${base}.mts`, `${base}.tsx`, `${base}/index.ts`].find((f) =>
      existsSync(path.join(root, f)),
    );
    const target = file ?? base;
    const into = packageOf(target);
    // A package's manifest is public (the CLI's tests read its version there).
    if (into !== null && into !== packageOf(from) && !target.endsWith("/package.json"))
      return { deep: `relative path into ${into}'s internals` };
    return { file };
  }
  const m = /^(@spool\/[^/]+)(?:\/(.+))?$/.exec(specifier);
  const pkg = m ? packages.get(m[1]) : undefined;
  if (!m || !pkg) return {};
  const sub = m[2] === undefined ? "." : `./${m[2]}`;
  if (!pkg.exports.includes(sub)) return { deep: `not in ${m[1]}'s exports` };
  const name = sub === "." ? "index" : m[2];
  return { file: `${pkg.dir}/src/${name}.ts` };
}

/** Strongly connected components of more than one file (or a file importing itself). */
function cycles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let next = 0;
  const strong = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.has(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) strong(v);
  return found;
}

/**
 * `{ fileCycles, packageCycles, deepImports }` of the workspace at `root`: each cycle a
 * sorted list of files (or package dirs), each deep import `{ file, specifier, why }`.
 */
export function checkImports(root = REPO) {
  const packages = workspacePackages(root);
  const dirs = [...packages.values()].flatMap((p) => [`${p.dir}/src`, `${p.dir}/test`]);
  const files = readImports(root, [...dirs, "test"]);
  const fileGraph = new Map();
  const packageGraph = new Map();
  const deepImports = [];
  for (const { file, imports } of files) {
    const inSrc = /^packages\/[^/]+\/src\//.test(file);
    if (inSrc) fileGraph.set(file, new Set());
    for (const { specifier, runtime } of imports) {
      const r = resolve(root, file, specifier, packages);
      if (r.deep) deepImports.push({ file, specifier, why: r.deep });
      if (!inSrc || !r.file) continue;
      if (runtime) fileGraph.get(file).add(r.file);
      const [from, to] = [packageOf(file), packageOf(r.file)];
      if (from !== to) {
        if (!packageGraph.has(from)) packageGraph.set(from, new Set());
        packageGraph.get(from).add(to);
      }
    }
  }
  return { fileCycles: cycles(fileGraph), packageCycles: cycles(packageGraph), deepImports };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { fileCycles, packageCycles, deepImports } = checkImports();
  for (const c of fileCycles) console.log(`import cycle: ${c.join(" → ")}`);
  for (const c of packageCycles) console.log(`package cycle: ${c.join(" → ")}`);
  for (const d of deepImports) console.log(`deep import: ${d.file}: "${d.specifier}" (${d.why})`);
  const n = fileCycles.length + packageCycles.length + deepImports.length;
  console.log(n === 0 ? "no import cycle, no deep import" : `${n} found`);
  process.exitCode = n === 0 ? 0 : 1;
}
