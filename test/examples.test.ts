/**
 * Every example runs, twice: in process on the sources (its `main()`), and as its header
 * says, with the command written after `Run:` in its first comment, from the repository
 * root as the README's set-up leaves it (the root package links the workspace packages and
 * has tsx, so `npx tsx` resolves `@spool/*` to their built `dist/`).
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { main as customPipeline } from "../examples/custom-pipeline.js";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const EXAMPLES = fileURLToPath(new URL("../examples/", import.meta.url));

/** The command an example's header gives after `Run:`, as argv. */
function headerCommand(file: string): string[] {
  const header = readFileSync(`${EXAMPLES}${file}`, "utf8").split("*/")[0] ?? "";
  const command = /Run: `([^`]+)`/.exec(header.replace(/\n \* /g, " "))?.[1];
  if (command === undefined) throw new Error(`${file}: no \`Run: …\` command in its header`);
  return command.split(" ");
}

const CUSTOM_PIPELINE = {
  preview: "pin ####\n--- stderr ---\ndone\n",
  transforms: ["digit-mask"],
  exitStatus: 0,
  events: ["start", "exit", "final"],
};

describe("examples run", () => {
  it("custom-pipeline: a user stage in a capture, with lifecycle events", async () => {
    expect(await customPipeline()).toEqual(CUSTOM_PIPELINE);
  });

  it("every example has a Run: command in its header, and it runs from the root", () => {
    const outputs: Record<string, unknown> = {};
    for (const file of readdirSync(EXAMPLES).filter((f) => f.endsWith(".ts"))) {
      const [cmd, ...args] = headerCommand(file);
      const out = execFileSync(cmd!, args, { cwd: REPO, encoding: "utf8", timeout: 60_000 });
      outputs[file] = JSON.parse(out);
    }
    expect(outputs).toEqual({ "custom-pipeline.ts": CUSTOM_PIPELINE });
  });
});
