/**
 * Usage lines come from the command definitions (`usageLine`): each command's line as the
 * help shows it, the bench names equal to the benches `@spool/bench` has, and every option
 * a usage line names is an option of its command.
 */
import { BENCHES } from "@spool/bench";
import { describe, expect, it } from "vitest";
import { usageLine } from "../src/args.js";
import { BENCH, BENCH_NAMES, COMMANDS, SUPERVISE } from "../src/commands.js";
import { commandText } from "../src/help.js";

describe("usage lines", () => {
  it("are made from each definition's positionals, options and command", () => {
    const lines = Object.fromEntries([...COMMANDS, SUPERVISE].map((c) => [c.name, usageLine(c)]));
    expect(lines).toEqual({
      run: "[options] -- CMD [ARGS...]",
      capture: "[options] < INPUT",
      start: "[options] -- CMD [ARGS...]",
      status: "REF [options]",
      wait: "REF [options]",
      read: "REF [options]",
      tail: "REF [options]",
      grep: "REF PATTERN [options]",
      kill: "REF [options]",
      ls: "[options]",
      recover: "[options]",
      export: "REF...|--all [options]",
      import: "BUNDLE [options]",
      share: "REF --to ROOT [options]",
      rm: "REF...|--older-than D|--all [options]",
      du: "[options]",
      bench: `${BENCH_NAMES.join("|")} [options]`,
      serve: "[options]",
      token: "[options]",
      mcp: "[options]",
      "mcp-proxy": "[options] [--] SERVER_CMD [ARGS...]",
      help: "[CMD]",
      __supervise: "start|run|capture ID [options] [-- CMD [ARGS...]]",
    });
  });

  it("name only options their command has", () => {
    for (const c of [...COMMANDS, SUPERVISE]) {
      for (const name of [...(c.instead ?? []), ...(c.needs ?? [])])
        expect(Object.keys(c.options), `${c.name} --${name}`).toContain(name);
    }
  });

  it("list every bench of @spool/bench, chunk-size too, in spool help bench", () => {
    expect([...BENCH_NAMES].sort()).toEqual(Object.keys(BENCHES).sort());
    expect(commandText(BENCH).split("\n")[0]).toContain("|chunk-size|");
  });
});
