import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/`, import.meta.url));

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
    include: ["packages/*/test/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
