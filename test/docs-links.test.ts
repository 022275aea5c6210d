/**
 * The README and docs/ stand alone: every relative link points at a file of this
 * repository (no `../shared/…`, nothing outside it), and every doc is linked from the README.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("..", import.meta.url));
// Pages are the Markdown files (docs/ also holds the images they show, as docs/serve/).
const pages = [
  "README.md",
  ...readdirSync(path.join(repo, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

describe("README and docs/", () => {
  it.each(pages)("%s links only to files inside the repository", (page) => {
    const text = readFileSync(path.join(repo, page), "utf8");
    for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue; // https:, mailto:
      const resolved = path.resolve(repo, path.dirname(page), target!);
      expect(resolved.startsWith(repo), `${page} → ${target}`).toBe(true);
      expect(existsSync(resolved), `${page} → ${target}`).toBe(true);
    }
  });

  it("the README links every page of docs/", () => {
    const readme = readFileSync(path.join(repo, "README.md"), "utf8");
    for (const page of pages.slice(1)) expect(readme, page).toContain(`](${page})`);
  });
});
