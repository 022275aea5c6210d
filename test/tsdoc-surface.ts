/**
 * The public API as the TypeScript compiler sees it: every symbol exported from the entry
 * points listed in each published package's `exports` map, followed through re-exports to
 * its declaration, with its TSDoc. Used by `tsdoc.test.ts`.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const REPO = fileURLToPath(new URL("..", import.meta.url));
const PUBLISHED = ["core", "transforms", "sinks"] as const;

/** One entry point: `@spool/core/testing` and the source file behind it. */
export interface EntryPoint {
  readonly specifier: string;
  readonly file: string;
}

/** One exported name of one entry point, resolved to where it is declared. */
export interface PublicSymbol {
  readonly entry: string;
  readonly name: string;
  /** `file:line` of the first declaration, relative to the repo. */
  readonly declaredAt: string;
  readonly hasDoc: boolean;
  readonly examples: readonly string[];
  /** The text of each `@category` tag (one expected). */
  readonly categories: readonly string[];
  /** Properties of an `…Options` interface that have no doc comment. */
  readonly undocumentedOptions: readonly string[];
}

/** The entry points of every published package, from their `exports` maps. */
export function entryPoints(): EntryPoint[] {
  const entries: EntryPoint[] = [];
  for (const pkg of PUBLISHED) {
    const dir = path.join(REPO, "packages", pkg);
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
      name: string;
      exports: Record<string, { default: string }>;
    };
    for (const [key, target] of Object.entries(manifest.exports)) {
      const base = target.default.replace(/^\.\/dist\//, "").replace(/\.js$/, ".ts");
      entries.push({
        specifier: key === "." ? manifest.name : `${manifest.name}/${key.slice(2)}`,
        file: path.join(dir, "src", base),
      });
    }
  }
  return entries;
}

/** Compiler options of the workspace, with `@spool/*` mapped to the packages' sources. */
export function compilerOptions(): ts.CompilerOptions {
  const configPath = path.join(REPO, "tsconfig.base.json");
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, REPO);
  const paths: Record<string, string[]> = {};
  for (const pkg of PUBLISHED) {
    paths[`@spool/${pkg}`] = [`packages/${pkg}/src/index.ts`];
    paths[`@spool/${pkg}/*`] = [`packages/${pkg}/src/*.ts`];
  }
  return {
    ...options,
    composite: false,
    declaration: false,
    declarationMap: false,
    sourceMap: false,
    noEmit: true,
    baseUrl: REPO,
    paths,
  };
}

/** Every exported symbol of every entry point, one row per (entry, name). */
export function publicSymbols(program: ts.Program): PublicSymbol[] {
  const checker = program.getTypeChecker();
  const rows: PublicSymbol[] = [];
  for (const entry of entryPoints()) {
    const source = program.getSourceFile(entry.file);
    if (source === undefined) throw new Error(`tsdoc: ${entry.file} is not in the program`);
    const moduleSymbol = checker.getSymbolAtLocation(source);
    if (moduleSymbol === undefined) throw new Error(`tsdoc: ${entry.file} has no exports`);
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declaration = symbol.declarations?.[0];
      const where =
        declaration === undefined
          ? "?"
          : (() => {
              const file = declaration.getSourceFile();
              const { line } = file.getLineAndCharacterOfPosition(declaration.getStart());
              return `${path.relative(REPO, file.fileName)}:${line + 1}`;
            })();
      const doc = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
      const examples = symbol
        .getJsDocTags(checker)
        .filter((tag) => tag.name === "example")
        .map((tag) => ts.displayPartsToString(tag.text));
      const tags = symbol.getJsDocTags(checker);
      rows.push({
        entry: entry.specifier,
        name: exported.name,
        declaredAt: where,
        hasDoc: doc !== "",
        examples,
        categories: tags
          .filter((tag) => tag.name === "category")
          .map((tag) => ts.displayPartsToString(tag.text).trim()),
        undocumentedOptions: undocumentedOptionProperties(symbol, checker),
      });
    }
  }
  return rows;
}

/** The properties of an exported `…Options` interface (or type alias) with no doc comment. */
function undocumentedOptionProperties(symbol: ts.Symbol, checker: ts.TypeChecker): string[] {
  if (!/Options$/.test(symbol.name)) return [];
  if (!(symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias))) return [];
  const type = checker.getDeclaredTypeOfSymbol(symbol);
  return checker
    .getPropertiesOfType(type)
    .filter((property) => ts.displayPartsToString(property.getDocumentationComment(checker)) === "")
    .map((property) => property.name);
}

/** The fenced ```ts code blocks of an `@example` tag's text. */
export function codeBlocks(example: string): string[] {
  return [...example.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
}

/** A program over every entry point (and what they import). */
export function surfaceProgram(extra: ReadonlyMap<string, string> = new Map()): ts.Program {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options, true);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => extra.get(name) ?? readFile(name);
  host.fileExists = (name) => extra.has(name) || fileExists(name);
  host.getSourceFile = (name, language, onError, shouldCreate) => {
    const text = extra.get(name);
    if (text !== undefined) return ts.createSourceFile(name, text, language, true);
    return getSourceFile(name, language, onError, shouldCreate);
  };
  const roots = [...entryPoints().map((e) => e.file), ...extra.keys()];
  return ts.createProgram({ rootNames: roots, options, host });
}
