/**
 * `spool bench fixtures`: the seed's evidence table reproduced end to end. Each fixture
 * runs as a real child through the real `spool run`; we measure what an agent sees
 * inline and whether what was saved is exact, next to the seed's two columns.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Receipt } from "@spool/core";
import { FIXTURES, type Fixture } from "./fixture-data.js";
import { measureSpool } from "./measure.js";

// From src/bench (tests) and dist/bench alike: the child always runs built.
const FIXTURE_CHILD = fileURLToPath(new URL("../../dist/bench/fixture-child.js", import.meta.url));

export interface FixtureRow {
  name: string;
  title: string;
  inputBytes: number;
  inlineBytes: number;
  inlineTokens: number;
  savedBytes: number;
  /** Every nonempty stream is exact in its saved file or whole inline. */
  exact: boolean;
  /** Small result: inline, byte-identical, and no file written. */
  inlineOnly: boolean;
  exitVisible: boolean;
  finalErrorVisible: boolean | null;
  wallMs: number;
  maxRssKiB: number | null;
  seed: Fixture["seed"];
  captureId: string;
  root: string;
}

const sha = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");

export async function runFixture(fixture: Fixture, root: string): Promise<FixtureRow> {
  const inline = await measureSpool([
    "run",
    "--root",
    root,
    "--",
    process.execPath,
    FIXTURE_CHILD,
    fixture.name,
  ]);
  const json = await measureSpool([
    "run",
    "--root",
    root,
    "--json",
    "--",
    process.execPath,
    FIXTURE_CHILD,
    fixture.name,
  ]);
  const receipt = JSON.parse(json.stdout.toString()) as Receipt;
  const text = inline.stdout.toString();
  const expected = { stdout: fixture.stdout(), stderr: fixture.stderr() };
  let savedBytes = 0;
  let exact = true;
  for (const name of ["stdout", "stderr"] as const) {
    const s = receipt.streams[name];
    if (s.ref) {
      const saved = readFileSync(path.join(root, s.ref));
      savedBytes += saved.length;
      exact &&= sha(saved) === sha(expected[name]) && s.sha256 === sha(expected[name]);
    } else {
      exact &&=
        receipt.preview.state === "complete" && s.produced === Buffer.byteLength(expected[name]);
    }
  }
  const inputBytes = Buffer.byteLength(expected.stdout) + Buffer.byteLength(expected.stderr);
  const inlineId = / id ([\w-]{24})\n$/.exec(text)?.[1] ?? "";
  const noDir = (id: string) => id !== "" && !existsSync(path.join(root, "tool-outputs", id));
  const inlineOnly =
    receipt.streams.stdout.ref === null &&
    receipt.streams.stderr.ref === null &&
    text.startsWith(expected.stdout + expected.stderr) &&
    noDir(receipt.captureId) &&
    noDir(inlineId);
  return {
    name: fixture.name,
    title: fixture.title,
    inputBytes,
    inlineBytes: inline.stdout.length,
    inlineTokens: Math.round([...text].length / 4),
    savedBytes,
    exact,
    inlineOnly,
    exitVisible: inline.status === fixture.exitCode && text.includes(`exit ${fixture.exitCode}`),
    finalErrorVisible: fixture.finalError === null ? null : text.includes(fixture.finalError),
    wallMs: Math.round(inline.wallMs),
    maxRssKiB: inline.maxRssKiB,
    seed: fixture.seed,
    captureId: receipt.captureId,
    root,
  };
}

export async function benchFixtures(): Promise<{ rows: FixtureRow[]; root: string }> {
  const root = mkdtempSync(path.join(tmpdir(), "spool-fixtures-"));
  const rows: FixtureRow[] = [];
  for (const fixture of FIXTURES) rows.push(await runFixture(fixture, root));
  return { rows, root };
}

export function fixturesMarkdown(rows: readonly FixtureRow[]): string {
  const head =
    "| Fixture | Input bytes | gptme current inline | seed candidate inline | **spool inline bytes (~tokens)** | saved bytes | exact | exit + final error inline | wall ms | peak RSS MiB |\n" +
    "| --- | ---: | ---: | ---: | ---: | ---: | :---: | :---: | ---: | ---: |\n";
  const body = rows
    .map((r) =>
      [
        r.title,
        r.inputBytes.toLocaleString("en-US"),
        r.seed.current.toLocaleString("en-US"),
        r.seed.candidate.toLocaleString("en-US"),
        `**${r.inlineBytes.toLocaleString("en-US")}** (~${r.inlineTokens.toLocaleString("en-US")})`,
        r.savedBytes.toLocaleString("en-US"),
        r.exact ? (r.inlineOnly ? "yes (inline, no file)" : "yes") : "**no**",
        `${r.exitVisible ? "yes" : "**no**"}${r.finalErrorVisible === null ? "" : r.finalErrorVisible ? " + yes" : " + **no**"}`,
        String(r.wallMs),
        r.maxRssKiB === null ? "?" : (r.maxRssKiB / 1024).toFixed(1),
      ].join(" | "),
    )
    .map((line) => `| ${line} |`)
    .join("\n");
  return `${head}${body}\n`;
}

// Keep the root for retrieval tasks; callers remove it.
export const removeRoot = (root: string) => rmSync(root, { recursive: true, force: true });
