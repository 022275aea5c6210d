import { chmodSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Every temporary directory a run makes (roots, sockets, mounts, bundles: `os.tmpdir()` in
// the test workers and in every process they start) goes under one directory of the run's,
// removed when the run ends: a full run used to leave about a thousand behind in /tmp.
// Made once, by the process that starts the run (its workers load this file again and
// inherit it), and open to all as /tmp is (tests run commands as another user).
if (process.env.SPOOL_TEST_RUN_TEMP === undefined) {
  // A short name: messages show at most 40 characters of a path, and tests match them.
  const runTemp = mkdtempSync(path.join(tmpdir(), "s-"));
  chmodSync(runTemp, 0o1777);
  process.env.SPOOL_TEST_RUN_TEMP = runTemp;
  process.env.TMPDIR = runTemp;
  process.once("exit", () => removeTree(runTemp));
}

/** Remove `dir` whole; a directory a test left closed (mode 000) is opened first. Never throws. */
function removeTree(dir: string): void {
  const remove = () => rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
  try {
    remove();
  } catch {
    try {
      openTree(dir);
      remove();
    } catch {
      // Left for the system's own cleaning of /tmp: the run's result stands.
    }
  }
}

function openTree(dir: string): void {
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    if (entry.isDirectory() && !entry.isSymbolicLink()) openTree(path.join(dir, entry.name));
}

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/`, import.meta.url));

/**
 * End-to-end files that time what they test (drain windows, kill escalation, stall
 * budgets, signals at random points, benches, many readers at once) or are known to be
 * flaky on a loaded machine. They run after the others, two files at a time: most of
 * their time is spent waiting (paced writers, grace periods, processes ending, a browser),
 * so two of them load the two cores about as one CPU-bound file does (1.2 cores on
 * average); three at once were CPU-bound and no faster (108 s against 112 s, the slowest
 * files taking twice as long).
 */
const TIMED = [
  "test/bench-serve-smoke.test.ts",
  "test/bench-smoke.test.ts",
  "test/capture-writer-stall.test.ts",
  "test/crash-recovery.test.ts",
  "test/jobs.test.ts",
  // A browser following a live job: its follow and final states come within a wait that
  // three files at once on two cores can starve.
  "test/serve-browser.test.ts",
  // The log viewer in a browser: a live job's follow, and a 1 GiB capture written and
  // scrolled under the Long Tasks API (a core for the capture, one for chromium).
  "test/serve-viewer.test.ts",
  // "disk full between the last byte and receipt.json" fills the disk once stdout.live has
  // every byte, and the writer appends stdout.idx just after: on a loaded machine the fill
  // can land between the two (a complete receipt with an ENOSPC storageError on stdout.idx,
  // which the test accepts as the honest outcome it is).
  "test/storage-mounts.test.ts",
  "test/trust.test.ts",
];

// Not timed: test/sigkill-points.test.ts kills at random delays into paced captures that
// sleep most of their time (eight at once even on a loaded machine); its receipts must
// be honest wherever a kill lands, so load moves the points, not the outcome. It runs
// with the first group, where its 26 s of waiting overlap other files' work.

/**
 * The unit and property tests of the four library packages: `pnpm test:quick` runs these
 * alone. The bench package's tests are end-to-end runs of the benches (the corpus, the
 * fixtures through the CLI), most of them taking a core for their whole run.
 */
const UNIT = ["packages/{core,transforms,sinks,cli}/test/**/*.test.ts"];
const BENCH = ["packages/bench/test/**/*.test.ts"];

/**
 * The first group: unit, bench and end-to-end files together, three at a time. Many
 * end-to-end files wait on child processes (spool's start-ups, paced writers, servers, a
 * client stalled for 8 s), and a third file overlaps those waits with work; one group
 * keeps both cores busy to its end (no file left alone at the end of each of three
 * groups). Each file uses temporary roots, mounts and ports of its own. Four at once on
 * a loaded machine exposed tests that lean on timing (a child's pause outlasting a
 * reader's start-up).
 */
const SHARED = { maxWorkers: 3, sequence: { groupOrder: 0 } } as const;

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
    // Two groups, one after the other (`sequence.groupOrder`); inside a group, files run in
    // parallel up to its `maxWorkers`, longest first (vitest keeps the last durations). The
    // default on this 2-core machine was one file at a time for everything.
    projects: [
      {
        // The files share their worker's module cache (no isolation): importing the
        // sources again for each of 70 files cost more CPU than most of their tests; no
        // unit test mocks a module or leaves a global changed.
        extends: true,
        test: { name: "unit", include: UNIT, isolate: false, ...SHARED },
      },
      { extends: true, test: { name: "bench", include: BENCH, ...SHARED } },
      {
        extends: true,
        test: { name: "e2e", include: ["test/**/*.test.ts"], exclude: TIMED, ...SHARED },
      },
      {
        extends: true,
        test: {
          name: "e2e-timed",
          include: TIMED,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
