/**
 * `spool bench NAME [options]`: runs one of the project's benchmarks from the private
 * `@spool/bench` package, loaded on use (it is in a clone of the repository, not in the
 * published CLI); without it, a one-line error.
 */
import { type CommandInput, shown, usageError } from "./args.js";
import type { BENCH } from "./commands.js";
import type { Io } from "./io.js";

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
  return (await bench.load())(parsed.options, io);
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
