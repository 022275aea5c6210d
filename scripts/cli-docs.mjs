// Regenerates docs/cli.md from the command definitions (packages/cli/src/commands.ts);
// run after `tsc -b`. packages/cli/test/cli-docs.test.ts fails when docs/cli.md is stale.
import { writeFileSync } from "node:fs";
import { cliMarkdown } from "../packages/cli/dist/help.js";

writeFileSync(new URL("../docs/cli.md", import.meta.url), cliMarkdown());
