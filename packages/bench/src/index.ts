/**
 * `@spool/bench` (private, not published): the project's own benchmarks, each measured
 * side by side with its baselines in one run. `spool bench NAME` loads this package on
 * use; one file per bench; adding one is adding an entry to {@link BENCHES}.
 *
 * @example
 * ```ts
 * import { BENCHES } from "@spool/bench";
 * const run = await BENCHES.startup!.load();
 * await run({ size: undefined, rounds: 3, report: undefined, work: undefined, corpus: false, adversarial: false, "load-size": undefined }, {
 *   stdout: (t) => process.stdout.write(t),
 *   stderr: (t) => process.stderr.write(t),
 * });
 * ```
 */
import type { BenchIo, BenchOptions } from "./context.js";

export type { BenchIo, BenchOptions } from "./context.js";
export {
  connectMcpClient,
  type McpClientOptions,
  type McpConnection,
} from "./mcp-client.js";
export { type SseEvent, sseParser } from "./sse-blocks.js";

export type Bench = (options: BenchOptions, io: BenchIo) => Promise<number>;

/** Each bench's module is loaded when it runs. */
export const BENCHES: Readonly<Record<string, { summary: string; load: () => Promise<Bench> }>> = {
  throughput: {
    summary:
      "capture MiB/s, CPU and RSS next to direct-to-file, tee and Node baselines [--size 1GiB] [--rounds 3]",
    load: async () => (await import("./throughput.js")).benchThroughput,
  },
  memory: {
    summary: "peak RSS of spool run at 64 MiB, 256 MiB and 1 GiB [--size 1GiB] [--rounds 2]",
    load: async () => (await import("./memory.js")).benchMemory,
  },
  fixtures: {
    summary:
      "the seed's six fixtures through spool run: inline bytes, exactness, retrieval [--report DIR]",
    load: async () => (await import("./fixtures.js")).benchFixturesCommand,
  },
  redact: {
    summary:
      "redactor MB/s with built-ins + 10 and 1,000 secrets next to replacestream [--size 256MiB]; --corpus: recall and false positives on a labelled corpus; --adversarial: linear time",
    load: async () => (await import("./redact.js")).benchRedactCommand,
  },
  export: {
    summary:
      "peak RSS and MiB/s of spool export/import at 128 MiB and 2 GiB next to tar [--size 2GiB]",
    load: async () => (await import("./bench-export.js")).benchExport,
  },
  "chunk-size": {
    summary: "the same bytes through the file spool in 64 B and 64 KiB writes [--size 64MiB]",
    load: async () => (await import("./chunk-size.js")).benchChunkSize,
  },
  serve: {
    summary:
      "spool serve: whole-stream download vs cat (sha256-checked), 200 range readers + 20 SSE followers [--size 1GiB] [--load-size 64MiB]",
    load: async () => (await import("./serve.js")).benchServe,
  },
  mcp: {
    summary:
      "retrieval through spool mcp's tools; bytes per call and small-call latency with and without mcp-proxy [--rounds 200]",
    load: async () => (await import("./mcp.js")).benchMcp,
  },
  binary: {
    summary:
      "CPU of --binary text next to --binary keep on random bytes, best of rounds [--size 40MB] [--rounds 3]",
    load: async () => (await import("./binary-cpu.js")).benchBinary,
  },
  startup: {
    summary: "median wall time of spool run -- true next to node -e 0 [--rounds 15]",
    load: async () => (await import("./startup.js")).benchStartup,
  },
};
