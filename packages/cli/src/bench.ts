/**
 * `spool bench NAME [options]`: runs one of the project's benchmarks from the private
 * `@spool/bench` package, loaded on use (it is in a clone of the repository, not in the
 * published CLI); without it, a one-line error.
 */
import { type CommandInput, shown, usageError } from "./args.js";
import type { BENCH } from "./commands.js";
import type { Io } from "./io.js";
import { duration, type ProgressLine, startProgressLine } from "./progress-line.js";

/** The part of `@spool/bench` the CLI uses (typed here: the CLI does not depend on it). */
interface BenchPackage {
  readonly BENCHES: Readonly<
    Record<
      string,
      {
        readonly summary: string;
        readonly load: () => Promise<
          (options: CommandInput<typeof BENCH>["options"], io: Io) => Promise<number>
        >;
      }
    >
  >;
}

// A variable, so neither tsc nor a bundler resolves the optional package at build time.
const BENCH_PACKAGE = "@spool/bench";

export async function benchCommand(parsed: CommandInput<typeof BENCH>, io: Io): Promise<number> {
  const [name, ...more] = parsed.positionals;
  if (more.length > 0 || parsed.rest !== null)
    throw usageError(`unexpected argument "${shown(more[0] ?? "--")}"`);
  const { BENCHES } = await loadBenchPackage();
  const known = Object.keys(BENCHES).join("|");
  const bench = name !== undefined && Object.hasOwn(BENCHES, name) ? BENCHES[name] : undefined;
  if (!bench) {
    throw usageError(
      name === undefined ? `which bench? (${known})` : `unknown bench "${shown(name)}" (${known})`,
    );
  }
  const run = await bench.load();
  // On a terminal, a progress line says how long it has run and which round it is in
  // (the bench's own latest `round i/n …` line); it is erased before each line it prints.
  let latest = "";
  let line: ProgressLine | null = null;
  const watched: Io = {
    ...io,
    stderr: (text) => {
      line?.activity();
      const round = /round \d+\/\d+/.exec(text);
      if (round) latest = round[0];
      io.stderr(text);
    },
  };
  if (io.descriptors?.().stderr)
    line = startProgressLine({
      stream: process.stderr,
      text: (ms) => `[spool] bench ${name} ${duration(ms)}${latest ? ` · after ${latest}` : ""}`,
    });
  try {
    return await run(parsed.options, watched);
  } finally {
    line?.stop();
  }
}

async function loadBenchPackage(): Promise<BenchPackage> {
  try {
    return (await import(BENCH_PACKAGE)) as BenchPackage;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ERR_MODULE_NOT_FOUND" || !String(error).includes(BENCH_PACKAGE)) throw error;
    throw usageError(
      "the benchmarks are not installed (@spool/bench is part of the spool repository: run pnpm install there)",
    );
  }
}
