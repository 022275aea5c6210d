import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/`, import.meta.url));

/**
 * End-to-end files that time what they test (drain windows, kill escalation, stall
 * budgets, signals at random points, benches, many readers at once) or are known to be
 * flaky on a loaded machine. They run one file at a time, after the others, so no other
 * test file competes with them for the two cores.
 */
const TIMED = [
  "test/bench-serve-smoke.test.ts",
  "test/bench-smoke.test.ts",
  "test/capture-writer-stall.test.ts",
  "test/crash-recovery.test.ts",
  "test/jobs.test.ts",
  "test/sigkill-points.test.ts",
  "test/trust.test.ts",
];

/**
 * Files that take a core for most of their run (the redaction corpus and adversarial
 * benches, 1 GiB written by 50 captures, 64 MiB exports): they run with the unit tests,
 * at most one per core, not with the end-to-end files that mostly wait.
 */
const CPU_BOUND = [
  "packages/bench/test/redact-corpus.test.ts",
  "packages/bench/test/redact-adversarial.test.ts",
];

/** The unit and property tests: `pnpm test:quick` runs these alone. */
const UNIT = ["packages/*/test/**/*.test.ts"];

// Tests run on source: workspace packages resolve to their src/ (the worker file is the
// one exception, it is loaded from dist/ by piscina, so `pnpm test` builds first).
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@spool\/(core|transforms|sinks|cli|bench)$/, replacement: `${src("$1")}index.ts` },
      {
        find: /^@spool\/(core|transforms|sinks|cli|bench)\/(.+)$/,
        replacement: `${src("$1")}$2.ts`,
      },
    ],
  },
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Three groups, one after the other (`sequence.groupOrder`); inside a group, files run
    // in parallel up to its `maxWorkers`. The default on this 2-core machine was one file
    // at a time for everything.
    projects: [
      {
        // CPU-bound: one file per core.
        extends: true,
        test: {
          name: "unit",
          include: UNIT,
          exclude: CPU_BOUND,
          maxWorkers: 2,
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "bench-corpus",
          include: CPU_BOUND,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // Mostly waiting on child processes (spool's start-up, paced writers, servers): four
        // files at once overlap their waits. Each uses temporary roots of its own.
        extends: true,
        test: {
          name: "e2e",
          include: ["test/**/*.test.ts"],
          exclude: TIMED,
          maxWorkers: 4,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: "e2e-timed",
          include: TIMED,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
