/**
 * Every symbol a user can import from a published entry point (each key of the `exports`
 * maps of core, transforms and sinks) has TSDoc that says what it is for and an `@example`,
 * every property of an exported `…Options` type is documented, every symbol has one
 * `@category` of the closed list below (the groups a reader of the API browses), and every
 * ```ts block of those examples type-checks, against the package sources, as a module of
 * its own.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import {
  codeBlocks,
  entryPoints,
  type PublicSymbol,
  publicSymbols,
  REPO,
  surfaceProgram,
} from "./tsdoc-surface.js";

const rows = publicSymbols(surfaceProgram());

/** One row per declaration (core's "." re-exports "./runtime", for instance). */
function unique(list: readonly PublicSymbol[]): PublicSymbol[] {
  const seen = new Map<string, PublicSymbol>();
  for (const row of list) {
    const key = `${row.declaredAt} ${row.name}`;
    if (!seen.has(key)) seen.set(key, row);
  }
  return [...seen.values()];
}

/** The `@category` groups of the public API, and what each holds. */
const CATEGORIES: Record<string, string> = {
  capture:
    "running a child or reading a source into a capture: options, handles, events, ids, the clock",
  process: "child processes and their groups: spawning, exit statuses, signalling",
  stages: "the byte-batch stage contract, its pipeline, and the non-redacting stages",
  redaction: "the redactor, its rules and what compiles them",
  receipts: "receipts, their schema, the byte ledger and previews",
  storage: "where captured bytes go and are read back: spools, stores, files, locks, recovery",
  quotas: "retention limits: --max-bytes, --root-quota and their allowances",
  bundles: "spool export, import and share",
  errors: "SpoolError, its codes, and showing untrusted text in messages",
  logging: "the pino logger and its private log file",
  testing:
    "contract suites, property helpers and test doubles for your own stages, spools and stores",
};

const label = (row: PublicSymbol) => `${row.entry} ${row.name} (${row.declaredAt})`;

describe("TSDoc on the public API", () => {
  it("finds every entry point and its exports", () => {
    expect(entryPoints().map((e) => e.specifier)).toEqual(
      expect.arrayContaining([
        "@spool/core",
        "@spool/core/errors",
        "@spool/core/process-group",
        "@spool/core/runtime",
        "@spool/core/testing",
        "@spool/transforms",
        "@spool/transforms/testing",
        "@spool/sinks",
        "@spool/sinks/testing",
        "@spool/sinks/runtime",
        "@spool/core/internal",
        "@spool/sinks/internal",
        "@spool/transforms/internal",
      ]),
    );
    for (const entry of entryPoints()) {
      expect(
        rows.some((row) => row.entry === entry.specifier),
        entry.specifier,
      ).toBe(true);
    }
  });

  it("says of each /internal entry that it is not public API", () => {
    const internal = entryPoints().filter((e) => e.specifier.endsWith("/internal"));
    expect(internal.map((e) => e.specifier).sort()).toEqual([
      "@spool/core/internal",
      "@spool/sinks/internal",
      "@spool/transforms/internal",
    ]);
    for (const entry of internal)
      expect(readFileSync(entry.file, "utf8"), entry.specifier).toContain(
        "Not part of the public API",
      );
  });

  it("documents every exported symbol", () => {
    expect(
      unique(rows)
        .filter((row) => !row.hasDoc)
        .map(label),
    ).toEqual([]);
  });

  it("gives every exported symbol an @example", () => {
    expect(
      unique(rows)
        .filter((row) => row.examples.length === 0)
        .map(label),
    ).toEqual([]);
  });

  it("gives every @example a ```ts block (the code the next test type-checks)", () => {
    const prose = unique(rows).filter(
      (row) => row.examples.length > 0 && row.examples.flatMap(codeBlocks).length === 0,
    );
    expect(prose.map(label)).toEqual([]);
  });

  it("gives every exported symbol one @category of the list", () => {
    const wrong = unique(rows)
      .filter((row) => row.categories.length !== 1 || !(row.categories[0]! in CATEGORIES))
      .map((row) => `${label(row)}: ${row.categories.join(", ") || "none"}`);
    expect(wrong).toEqual([]);
    // Every category holds something (the list describes the API, not a wish).
    const used = new Set(rows.flatMap((row) => row.categories));
    expect(Object.keys(CATEGORIES).filter((c) => !used.has(c))).toEqual([]);
  });

  it("documents every property of every exported options type", () => {
    const gaps = unique(rows)
      .filter((row) => row.undocumentedOptions.length > 0)
      .map((row) => `${label(row)}: ${row.undocumentedOptions.join(", ")}`);
    expect(gaps).toEqual([]);
  });

  it("has examples that type-check against the sources", { timeout: 180_000 }, () => {
    const files = new Map<string, string>();
    const origin = new Map<string, string>();
    for (const row of unique(rows)) {
      row.examples.flatMap(codeBlocks).forEach((code, i) => {
        // .mts: each example is an ES module of its own (top-level await allowed), placed
        // (in memory) in the declaring package, so it resolves that package's dependencies.
        const pkg = row.declaredAt.split("/").slice(0, 2).join("/");
        const name = path.join(REPO, pkg, ".tsdoc-examples", `${files.size}-${row.name}-${i}.mts`);
        files.set(name, `${code}\nexport {};\n`);
        origin.set(name, label(row));
      });
    }
    expect(files.size).toBeGreaterThanOrEqual(unique(rows).length);
    const program = surfaceProgram(files);
    const failures = [...files.keys()].flatMap((name) => {
      const source = program.getSourceFile(name);
      const diagnostics =
        source === undefined
          ? []
          : [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
      return diagnostics.map((d) => {
        const { line } = d.file?.getLineAndCharacterOfPosition(d.start ?? 0) ?? { line: 0 };
        const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
        return `${origin.get(name)} example line ${line + 1}: ${text}`;
      });
    });
    expect(failures).toEqual([]);
  });
});
