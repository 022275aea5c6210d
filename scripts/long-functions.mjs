// Functions and classes longer than a limit in packages/*/src (TypeScript syntax tree, not a
// line count of the file): `node scripts/long-functions.mjs [LIMIT] [CLASS_LIMIT]` prints
// LINES  FILE:LINE  NAME. test/architecture.test.ts fails on any not in its allow-lists
// (each with its reason).
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/** Source files of every package's src/ (no .d.ts), repository-relative. */
export function packageSources(root = REPO) {
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const f = path.join(dir, e.name);
      if (e.isDirectory()) walk(f);
      else if (/\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts")) files.push(f);
    }
  };
  for (const p of readdirSync(path.join(root, "packages"), { withFileTypes: true }))
    if (p.isDirectory()) walk(path.join(root, "packages", p.name, "src"));
  return files.map((f) => path.relative(root, f).split(path.sep).join("/")).sort();
}

/** Every node that `pick` accepts and that spans over `limit` lines, longest first. */
function longNodes(pick, limit, root) {
  const found = [];
  for (const file of packageSources(root)) {
    const text = readFileSync(path.join(root, file), "utf8");
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (pick(node)) {
        const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
        const last = sf.getLineAndCharacterOfPosition(node.end).line;
        if (last - first + 1 > limit)
          found.push({ file, line: first + 1, name: functionName(node), lines: last - first + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found.sort((a, b) => b.lines - a.lines);
}

/** Every function (declaration, method, arrow, accessor) over `limit` lines, longest first. */
export function longFunctions(limit = 80, root = REPO) {
  return longNodes((node) => ts.isFunctionLike(node) && node.body, limit, root);
}

/** Every class (declaration or expression) over `limit` lines, longest first. */
export function longClasses(limit = 150, root = REPO) {
  return longNodes((node) => ts.isClassLike(node), limit, root);
}

/**
 * Every `JSON.parse(…) as T` (or `<T>JSON.parse(…)`) in packages/*\/src: a cast of parsed
 * text claims a shape nothing checked. Parse with a schema or a validating function instead.
 */
export function jsonParseCasts(root = REPO) {
  const found = [];
  const isJsonParse = (node) => {
    let e = node;
    while (ts.isParenthesizedExpression(e)) e = e.expression;
    return (
      ts.isCallExpression(e) &&
      ts.isPropertyAccessExpression(e.expression) &&
      e.expression.getText() === "JSON.parse"
    );
  };
  for (const file of packageSources(root)) {
    const text = readFileSync(path.join(root, file), "utf8");
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (
        (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) &&
        isJsonParse(node.expression)
      )
        found.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1 });
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

function functionName(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)))
    return parent.name.getText();
  return "(anonymous)";
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const limit = Number(process.argv[2] ?? 80);
  const classLimit = Number(process.argv[3] ?? 150);
  for (const f of [...longFunctions(limit), ...longClasses(classLimit)])
    console.log(`${f.lines}\t${f.file}:${f.line}\t${f.name}`);
}
