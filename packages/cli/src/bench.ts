/** `spool bench <name> [--report DIR]`: the project's evidence, each measured beside its baselines in one run. */
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs, usageError } from "./args.js";
import { benchFixtures, fixturesMarkdown, removeRoot } from "./bench/fixtures.js";
import type { Io } from "./io.js";

interface BenchResult {
  /** What goes to bench.json. */
  json: unknown;
  /** What goes to bench.md and the terminal. */
  markdown: string;
}

type Bench = (options: Record<string, unknown>) => Promise<BenchResult>;

const BENCHES: Record<string, Bench> = {
  async fixtures() {
    const { rows, root } = await benchFixtures();
    try {
      return {
        json: { fixtures: rows },
        markdown: `## Fixtures (seed evidence table)\n\n${fixturesMarkdown(rows)}`,
      };
    } finally {
      removeRoot(root);
    }
  },
};

export async function benchCommand(argv: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(argv, { report: { kind: "string" }, size: { kind: "size" } });
  const [name, ...extra] = parsed.positionals;
  const bench = name ? BENCHES[name] : undefined;
  if (!bench) throw usageError(`bench takes one of ${Object.keys(BENCHES).join(", ")}`);
  if (extra.length > 0) throw usageError(`unexpected argument "${extra[0]}"`);
  const result = await bench(parsed.options);
  io.stdout(`${result.markdown}\n`);
  const report = parsed.options.report as string | undefined;
  if (report) {
    mkdirSync(report, { recursive: true });
    writeFileSync(path.join(report, "bench.json"), `${JSON.stringify(result.json, null, 2)}\n`);
    writeFileSync(path.join(report, "bench.md"), `${result.markdown}\n`);
  }
  return 0;
}
