/**
 * The web view's pure parts, in Node: SGR parsing (only SGR is interpreted; every other
 * escape and control is made visible), the write-order runs from a journal, UTF-8 byte
 * offsets to character indices (grep highlights), hex rows, outcomes in words.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runsOf } from "../web/combined.js";
import { charIndex } from "../web/grep.js";
import { outcome } from "../web/outcome.js";
import { csiAt, sgrRuns, visibleControls } from "../web/sgr.js";
import { hexRow } from "../web/sources.js";

const E = "\u001b";

describe("SGR", () => {
  it("turns SGR sequences into styles and drops them from the text", () => {
    const runs = sgrRuns(`${E}[31mred${E}[0m plain ${E}[1;32mbold${E}[22;39m after`);
    expect(runs.map((r) => r.text)).toEqual(["red", " plain ", "bold", " after"]);
    expect(runs[0]!.style.fg).toEqual({ cls: 1 });
    expect(runs[1]!.style.fg).toBeNull();
    expect(runs[2]!.style).toMatchObject({ fg: { cls: 2 }, bold: true });
    expect(runs[3]!.style).toMatchObject({ fg: null, bold: false });
  });

  it("reads 256 and true colours", () => {
    const [a, b, c] = sgrRuns(`${E}[38;5;208ma${E}[48;2;1;2;3mb${E}[38;5;9mc`);
    expect(a!.style.fg).toEqual({ css: "rgb(255, 135, 0)" });
    expect(b!.style.bg).toEqual({ css: "rgb(1, 2, 3)" });
    expect(c!.style.fg).toEqual({ cls: 9 });
  });

  it("keeps every other escape as text, marked raw, and shows controls in caret notation", () => {
    const runs = sgrRuns(`a${E}[2Jb${E}]0;title\u0007c${E}[?25l`);
    expect(runs.filter((r) => r.raw).map((r) => r.text)).toEqual([`${E}[2J`, E, `${E}[?25l`]);
    expect(visibleControls(`${E}[2J\u0007\u007f\u009b\t`)).toBe("^[[2J^G^?\\x9b\t");
    expect(csiAt(`${E}[1;2`, 0)).toBeNull();
  });

  it("never loses or invents a character: the runs' text is the input without its SGR sequences", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constantFrom(
              `${E}[0m`,
              `${E}[1;31m`,
              `${E}[38;5;100m`,
              `${E}[2J`,
              E,
              "\u0007",
              `${E}[`,
            ),
            fc.string({ maxLength: 8 }),
          ),
          { maxLength: 30 },
        ),
        (parts) => {
          const text = parts.join("");
          const shown = sgrRuns(text)
            .map((r) => r.text)
            .join("");
          const sgr = new RegExp(`${E}\\[[0-9;:]*m`, "g");
          expect(shown).toBe(text.replace(sgr, ""));
          // Runs are in order and each starts where the text says.
          for (const r of sgrRuns(text))
            expect(text.slice(r.at, r.at + r.text.length)).toBe(r.text);
        },
      ),
    );
  });
});

describe("write order", () => {
  it("makes runs from the journal's switches, each ending where its stream resumes", () => {
    const order = {
      switches: [
        [0, 0],
        [1, 0],
        [0, 10],
        [1, 4],
      ],
      committed: { stdout: 25, stderr: 9 },
    };
    expect(runsOf(order)).toEqual([
      { stream: 0, start: 0, end: 10 },
      { stream: 1, start: 0, end: 4 },
      { stream: 0, start: 10, end: 25 },
      { stream: 1, start: 4, end: 9 },
    ]);
  });

  it("without a journal: stdout, then stderr", () => {
    expect(runsOf({ switches: null, committed: { stdout: 3, stderr: 2 } })).toEqual([
      { stream: 0, start: 0, end: 3 },
      { stream: 1, start: 0, end: 2 },
    ]);
  });

  it("clamps runs to what is committed (a journal ahead of a live stream)", () => {
    expect(
      runsOf({
        switches: [
          [0, 0],
          [1, 0],
          [0, 50],
        ],
        committed: { stdout: 20, stderr: 5 },
      }),
    ).toEqual([
      { stream: 0, start: 0, end: 20 },
      { stream: 1, start: 0, end: 5 },
    ]);
  });
});

describe("grep highlights", () => {
  it("maps UTF-8 byte offsets to character indices", () => {
    const text = "aé€😀b";
    expect([0, 1, 3, 6, 10, 11].map((b) => charIndex(text, b))).toEqual([0, 1, 2, 3, 5, 6]);
  });
});

describe("hex rows", () => {
  it("shows sixteen bytes and their printable ASCII", () => {
    expect(hexRow(Uint8Array.from([0x41, 0x00, 0x7e, 0x7f, 0x20]))).toBe(
      `41 00 7e 7f 20${" ".repeat(3 * 11 + 1)}  |A.~. |`,
    );
  });
});

describe("outcome in words", () => {
  const base = { condition: "final", process: "exited", capture: "complete", reasons: [] };
  it("says why a capture failed, and that one passed", () => {
    expect(outcome({ ...base, exitCode: 0 })).toMatchObject({
      kind: "passed",
      words: "passed (exit 0)",
    });
    expect(outcome({ ...base, exitCode: 3 })).toMatchObject({
      kind: "failed",
      words: "failed: exit 3",
    });
    expect(outcome({ ...base, exitCode: null, signal: "SIGTERM" }).words).toBe(
      "failed: killed by SIGTERM",
    );
    expect(outcome({ ...base, exitCode: 0, capture: "partial", reasons: ["quota"] }).words).toBe(
      "failed: partial capture (quota)",
    );
    expect(outcome({ ...base, condition: "crashed", exitCode: null }).words).toBe(
      "failed: crashed",
    );
    expect(outcome({ ...base, process: "cancelled", exitCode: null }).words).toBe(
      "failed: cancelled",
    );
    expect(
      outcome({ ...base, condition: "live", process: "running", capture: "pending" }),
    ).toMatchObject({ kind: "running", words: "running" });
  });
});
