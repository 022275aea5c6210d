/**
 * Every example in docs/extending.md runs, as written: each `ts` block that imports
 * something is a complete module, its `assert`s are the output the doc promises.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const DOC = fileURLToPath(new URL("../docs/extending.md", import.meta.url));
const blocks = [...readFileSync(DOC, "utf8").matchAll(/```ts\n([\s\S]*?)```/g)]
  .map((m) => m[1]!)
  .filter((code) => /^import /m.test(code));
// Inside the repo so the workspace packages resolve as they do for every test.
const dir = mkdtempSync(path.join(fileURLToPath(new URL(".", import.meta.url)), ".doc-examples-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("docs/extending.md", () => {
  it("has its runnable examples", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(6);
  });

  blocks.forEach((code, i) => {
    const title =
      code
        .split("\n")
        .find((line) => line.trim() !== "" && !/^(import| {2}|} from)/.test(line))
        ?.trim() ?? "";
    it(`example ${i + 1} runs (${title.slice(0, 60)})`, async () => {
      const file = path.join(dir, `example-${i + 1}.ts`);
      writeFileSync(file, `${code}\nexport {};\n`);
      await import(file);
    });
  });
});
