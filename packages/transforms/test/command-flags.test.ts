import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COMMAND_FLAG_MARKER, redactCommandFlags } from "../src/command-flags.js";

const M = COMMAND_FLAG_MARKER;

describe("redactCommandFlags", () => {
  it.each([
    ["mysql --password hunter2 db", `mysql --password ${M} db`],
    ["mysql --password=x db", `mysql --password=${M} db`],
    ["mysql -u root -phunter2 db", `mysql -u root -p${M} db`],
    ["curl -u bob:pass https://h", `curl -u bob:${M} https://h`],
    ["curl --user=bob:pass https://h", `curl --user=bob:${M} https://h`],
    ["gh --token x api", `gh --token ${M} api`],
    ["tool --API-KEY=k", `tool --API-KEY=${M}`],
    ["/usr/bin/sshpass -p hunter2 ssh host", `/usr/bin/sshpass -p ${M} ssh host`],
    ["sshpass -e -p  x ssh", `sshpass -e -p  ${M} ssh`],
  ])("%s", (label, expected) => {
    expect(redactCommandFlags(label)).toBe(expected);
  });

  it("leaves flags that carry no secret alone", () => {
    for (const label of ["mkdir -p dir", "ssh -p 22 host", "curl -u bob https://h", "ls -la"]) {
      expect(redactCommandFlags(label)).toBe(label);
    }
  });

  it("keeps every word and space it does not redact (property)", () => {
    const word = fc.stringMatching(/^[a-z0-9./]{1,8}$/);
    fc.assert(
      fc.property(
        fc.array(word, { maxLength: 12 }),
        fc.constantFrom(" ", "  ", "\t"),
        (ws, sep) => {
          const label = ws.join(sep);
          expect(redactCommandFlags(label)).toBe(label);
        },
      ),
    );
  });
});
