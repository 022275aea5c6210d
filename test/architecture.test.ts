/**
 * How the code is laid out, checked on its syntax tree: no function in packages/*\/src over
 * 80 lines unless listed here with its reason; no import cycle between source files or
 * packages; no import into another package's internals; no file or function name used by
 * two packages (`scripts/long-functions.mjs`, `scripts/import-graph.mjs`,
 * `scripts/name-clashes.mjs`, which also run on their own).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { checkImports } from "../scripts/import-graph.mjs";
import { jsonParseCasts, longClasses, longFunctions } from "../scripts/long-functions.mjs";
import { nameClashes } from "../scripts/name-clashes.mjs";

/** Functions allowed over 80 lines, as `FILE NAME`, each with its one-line reason. */
const LONG_FUNCTIONS: Record<string, string> = {
  "packages/transforms/src/rules/assignment-rule.ts next":
    "the assignment grammar's per-byte step in the redactor's hot loop: one switch over its phase",
};

/**
 * Classes allowed over 150 lines, as `FILE NAME`, each with its reason. They are the
 * redactor's per-byte machinery: classes rather than closures so that each anchor
 * occurrence costs one allocation, and fields rather than captured `let`s so the hot loop
 * reads them directly.
 */
const LONG_CLASSES: Record<string, string> = {
  "packages/transforms/src/rules/assignment-rule.ts AssignmentCandidate":
    "one assignment candidate per anchor occurrence in the redactor's hot loop: the grammar's phase switch (`next`, listed above) and the value judging it calls share the candidate's fields; to shrink, the value judging could become functions of those fields",
  "packages/transforms/src/redactor.ts Redactor":
    "the redactor's per-chunk loop: automaton walk, candidate feeding and flushing share position fields per byte; already split into CandidateSet, OutputCursor, Base64Runs and SpanQueue",
  "packages/transforms/src/candidate-set.ts CandidateSet":
    "the live candidates of one redactor, fed every byte from the hot loop (start, next, skip, settle), with the skip back-off kept per candidate in fields",
  "packages/transforms/src/rules/authorization-header.ts AuthorizationCandidate":
    'one Authorization candidate per occurrence: a closure per occurrence cost a fifth of the CPU on `authorization="` repeated; its phases are one switch over shared fields',
  "packages/transforms/src/base64-runs.ts Base64Runs":
    "base64 run state across chunks, stepped per byte in the redactor's hot loop, with its claim on the frontier",
  "packages/transforms/src/rules/cookie-header.ts CookieCandidate":
    "one cookie candidate per occurrence: a header's cookies, a JSON or YAML list's elements (the bytes between them are `ListGap`'s) and a `Set-Cookie` value's attributes are phases of one switch over shared fields",
  "packages/transforms/src/rules/pem-private-key.ts PemCandidate":
    "one PEM block per BEGIN: each line held and judged (a key's base64, an armor's header, the END line, a code's joined literals) over the held region's shared fields, so a block without its END line ends at its last line",
  "packages/transforms/src/output-cursor.ts OutputCursor":
    "the redactor's output side: held bytes, markers and the trace, all moved by the one emit position its methods share",
};

/**
 * Files allowed `JSON.parse(…) as T`, with the reason. Everything else parses with a zod
 * schema or a validating function.
 */
const JSON_PARSE_CASTS: Record<string, string> = {
  "packages/cli/src/mcp/relay-routes.ts":
    "the mcp-proxy relay peeks at JSON-RPC lines only to route them and passes them on as they came; to parse with the SDK's JSON-RPC schema",
  "packages/cli/src/mcp/relay.ts":
    "the relay reads a JSON-RPC line only as far as its fields, each checked where it is used; to parse with the SDK's JSON-RPC schema",
};

/** Test files allowed to import another package's internals, with the reason. */
const DEEP_IMPORTS: Record<string, string> = {
  "test/serve-helpers.ts": "spool serve's in-process servers: to move under packages/cli/test/",
  "test/serve-download.test.ts":
    "builds the serve app in-process: to move under packages/cli/test/",
  "test/serve-reads.test.ts": "checks remote-receipt directly: to move under packages/cli/test/",
};

describe("code layout", () => {
  it("has no function over 80 lines in packages/*/src but those listed with a reason", () => {
    const long = longFunctions(80).map(
      (f: { file: string; name: string }) => `${f.file} ${f.name}`,
    );
    expect(long.filter((id: string) => !(id in LONG_FUNCTIONS))).toEqual([]);
    // And no reason outlives its function's length.
    expect(Object.keys(LONG_FUNCTIONS).filter((id) => !long.includes(id))).toEqual([]);
  });

  it("has no class over 150 lines in packages/*/src but those listed with a reason", () => {
    const long = longClasses(150).map((c: { file: string; name: string }) => `${c.file} ${c.name}`);
    expect(long.filter((id: string) => !(id in LONG_CLASSES))).toEqual([]);
    expect(Object.keys(LONG_CLASSES).filter((id) => !long.includes(id))).toEqual([]);
  });

  it("casts no JSON.parse result in packages/*/src but in the files listed with a reason", () => {
    const files = jsonParseCasts().map((c: { file: string; line: number }) => c.file);
    expect(files.filter((f: string) => !(f in JSON_PARSE_CASTS))).toEqual([]);
    expect(Object.keys(JSON_PARSE_CASTS).filter((f) => !files.includes(f))).toEqual([]);
  });

  it("the class and cast checks find a long class and casts (a workspace made for it)", () => {
    const root = mkdtempSync(path.join(tmpdir(), "spool-classes-"));
    try {
      mkdirSync(path.join(root, "packages/a/src"), { recursive: true });
      const body = Array.from({ length: 150 }, (_, i) => `  f${i}() {}`).join("\n");
      writeFileSync(
        path.join(root, "packages/a/src/big.ts"),
        `export class Big {\n${body}\n}\nexport const Small = class {};\n`,
      );
      writeFileSync(
        path.join(root, "packages/a/src/parse.ts"),
        [
          "export const a = JSON.parse('1') as number;",
          "export const b = <number>JSON.parse('1');",
          "export const c = (JSON.parse('{}') as { x: number }).x;",
          "export const d: unknown = JSON.parse('1');",
        ].join("\n"),
      );
      expect(
        longClasses(150, root).map((c: { name: string; lines: number }) => [c.name, c.lines]),
      ).toEqual([["Big", 152]]);
      expect(jsonParseCasts(root).map((c: { line: number }) => c.line)).toEqual([1, 2, 3]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("has no import cycle and no deep import into another package", () => {
    const { fileCycles, packageCycles, deepImports } = checkImports();
    expect(fileCycles).toEqual([]);
    expect(packageCycles).toEqual([]);
    expect(deepImports.filter((d: { file: string }) => !(d.file in DEEP_IMPORTS))).toEqual([]);
  });

  it("has no file or top-level function name in the src/ of two packages", () => {
    expect(nameClashes()).toEqual([]);
  });

  it("the name check finds a file and a function two packages share (a workspace made for it)", () => {
    const root = mkdtempSync(path.join(tmpdir(), "spool-names-"));
    try {
      const write = (file: string, text: string) => {
        mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        writeFileSync(path.join(root, file), text);
      };
      write("packages/a/src/index.ts", "export function open() {}\n");
      write("packages/a/src/state.ts", "const clip = (s: string) => s;\nexport { clip };\n");
      write("packages/b/src/index.ts", "export const x = 1;\n");
      write("packages/b/src/deep/state.ts", "function clip() {}\nexport const open = 1;\n");
      expect(nameClashes(root)).toEqual([
        {
          kind: "function",
          name: "clip",
          where: ["packages/a/src/state.ts", "packages/b/src/deep/state.ts"],
        },
        {
          kind: "file",
          name: "state.ts",
          where: ["packages/a/src/state.ts", "packages/b/src/deep/state.ts"],
        },
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("the import check finds a cycle, a package cycle and deep imports (a workspace made for it)", () => {
    const root = mkdtempSync(path.join(tmpdir(), "spool-imports-"));
    try {
      const write = (file: string, text: string) => {
        mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        writeFileSync(path.join(root, file), text);
      };
      for (const name of ["a", "b"])
        write(
          `packages/${name}/package.json`,
          JSON.stringify({ name: `@spool/${name}`, exports: { ".": "./dist/index.js" } }),
        );
      write("packages/a/src/index.ts", 'import { b } from "./b.js";\nexport const a = b;\n');
      write("packages/a/src/b.ts", 'import { a } from "./index.js";\nexport const b = () => a;\n');
      // Type-only and dynamic imports load nothing at start-up: no cycle through them.
      write("packages/a/src/c.ts", 'import type { d } from "./d.js";\nexport type C = d;\n');
      write(
        "packages/a/src/d.ts",
        'export type d = number;\nexport const c = () => import("./c.js");\n',
      );
      write("packages/a/src/e.ts", 'import "@spool/b";\n');
      write("packages/b/src/index.ts", 'import { a } from "@spool/a";\nexport const b = a;\n');
      write("packages/b/src/x.ts", 'import "../../a/src/b.js";\nimport "@spool/a/src/b";\n');
      write("test/t.test.ts", 'import { b } from "@spool/a/b";\nimport "@spool/b";\n');
      const found = checkImports(root);
      expect(found.fileCycles).toEqual([["packages/a/src/b.ts", "packages/a/src/index.ts"]]);
      expect(found.packageCycles).toEqual([["packages/a", "packages/b"]]);
      expect(
        found.deepImports.map(
          (d: { file: string; specifier: string }) => `${d.file} ${d.specifier}`,
        ),
      ).toEqual([
        "packages/b/src/x.ts ../../a/src/b.js",
        "packages/b/src/x.ts @spool/a/src/b",
        "test/t.test.ts @spool/a/b",
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
