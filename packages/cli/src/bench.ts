/**
 * `spool bench <name> [options]`: the project's own benchmarks, each measured side by
 * side with its baselines in one run. One file per bench under `bench/`; adding one is
 * adding an entry to {@link BENCHES}.
 */

import { usageError } from "./args.js";
import type { Io } from "./io.js";

type Bench = (argv: readonly string[], io: Io) => Promise<number>;

/** Loaded on demand, so `spool run` never pays for the benchmarks' modules. */
export const BENCHES: Readonly<Record<string, { summary: string; load: () => Promise<Bench> }>> = {
  throughput: {
    summary:
      "capture MiB/s, CPU and RSS next to direct-to-file, tee and Node baselines [--size 1GiB] [--rounds 3]",
    load: async () => (await import("./bench/throughput.js")).benchThroughput,
  },
  memory: {
    summary: "peak RSS of spool run at 64 MiB, 256 MiB and 1 GiB [--size 1GiB] [--rounds 2]",
    load: async () => (await import("./bench/memory.js")).benchMemory,
  },
  fixtures: {
    summary:
      "the seed's six fixtures through spool run: inline bytes, exactness, retrieval [--report DIR]",
    load: async () => (await import("./bench/fixtures.js")).benchFixturesCommand,
  },
  redact: {
    summary:
      "redactor MB/s with built-ins + 10 and 1,000 secrets next to replacestream [--size 256MiB]",
    load: async () => (await import("./bench/redact.js")).benchRedactCommand,
  },
  serve: {
    summary:
      "spool serve: whole-stream download vs cat (sha256-checked), 200 range readers + 20 SSE followers [--size 1GiB] [--load-size 64MiB]",
    load: async () => (await import("./bench/serve.js")).benchServe,
  },
  startup: {
    summary: "median wall time of spool run -- true next to node -e 0 [--rounds 15]",
    load: async () => (await import("./bench/startup.js")).benchStartup,
  },
};

export async function benchCommand(argv: readonly string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  const bench = name === undefined ? undefined : BENCHES[name];
  if (!bench) {
    const known = Object.keys(BENCHES).join("|");
    throw usageError(
      name === undefined
        ? `which bench? (${known})`
        : `unknown bench "${name.slice(0, 40)}" (${known})`,
    );
  }
  return (await bench.load())(rest, io);
}
