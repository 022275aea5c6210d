/**
 * docs/cli.md is generated from the command definitions: this fails when a definition
 * changed and `node scripts/cli-docs.mjs` was not run, and checks the page says what the
 * parser enforces.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../src/commands.js";
import { cliMarkdown } from "../src/help.js";

const page = readFileSync(new URL("../../../docs/cli.md", import.meta.url), "utf8");

describe("docs/cli.md", () => {
  it("is what scripts/cli-docs.mjs writes (run it after changing a command)", () => {
    expect(page).toBe(cliMarkdown());
  });

  it("documents every option of every listed command, with its range", () => {
    for (const command of COMMANDS.filter((c) => !c.hidden)) {
      expect(page).toContain(`## spool ${command.name}`);
      for (const name of Object.keys(command.options)) expect(page).toContain(`--${name}`);
    }
    expect(page).toContain("| `--queue-bytes N` | 4MiB | 64KiB-256MiB |");
    expect(page).toContain("| `--timeout S` |  | 0.001s-2147483.647s |");
  });
});
