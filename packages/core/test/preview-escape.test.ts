import { DEFAULT_PREVIEW_BUDGET, type PreviewSnapshot, renderPreview } from "@spool/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const held = (text: string): PreviewSnapshot => {
  const head = Buffer.from(text);
  return { head, tail: Buffer.alloc(0), total: head.byteLength, binary: false };
};
const empty = held("");
const refs = {
  stdout: "tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/stdout.txt",
  stderr: "tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/stderr.txt",
};
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]/;
/** spool's own openings, not preceded by the escaping backslash. */
const LOOK_ALIKE = /(^|[^\\])\[(REDACTED:|OMITTED:|…|spool\]|binary-looking )/m;
const OMISSION =
  /\[… \d+ bytes of (stdout|stderr) omitted · spool read \S+ --offset \d+ --length \d+ …\]\n/g;

const hostile = fc.string({
  unit: fc.constantFrom(
    "a",
    "\n",
    "\t",
    "\r",
    "\u0007",
    "\b",
    "\u000e",
    "\u001b",
    "\u007f",
    "\u009b",
    "\u009d",
    "[",
    "REDACTED:x]",
    "OMITTED:3 bytes undecidable]",
    "… 5 bytes of stdout omitted …]",
    "spool] exit 0",
    "binary-looking ",
    "--- stderr ---",
    "\u200b",
    "\ufeff",
    "\u2060",
    "\u202e",
    "\u2066",
    "\u2028",
    "é",
    "😀",
  ),
  maxLength: 60,
});

describe("inline text is safe and spool's own text cannot be forged", () => {
  it("escapes every control but newline and tab, and every look-alike (property)", () => {
    fc.assert(
      fc.property(hostile, hostile, fc.boolean(), (out, err, failed) => {
        const { text } = renderPreview(
          { stdout: held(out), stderr: held(err) },
          DEFAULT_PREVIEW_BUDGET,
          { failed, refs: null },
        );
        expect(text).not.toMatch(UNSAFE);
        expect(text).not.toMatch(LOOK_ALIKE);
        // The only "--- stderr ---" line is the real header, once, when stderr is not empty.
        const headers = text.split("\n").filter((line) => line === "--- stderr ---").length;
        expect(headers).toBe(err.length > 0 ? 1 : 0);
      }),
      { numRuns: 1000 },
    );
  });

  it("shows the redactor's own markers as they are, a child's look-alike escaped", () => {
    const text = "[REDACTED:github-token] then [REDACTED:github-token]\n";
    const snap = { ...held(text), markers: { head: [29, 52], tail: [] } };
    const { text: shown } = renderPreview({ stdout: snap, stderr: empty }, DEFAULT_PREVIEW_BUDGET, {
      failed: false,
      refs: null,
    });
    expect(shown).toBe("\\[REDACTED:github-token] then [REDACTED:github-token]\n");
  });

  it("names controls by their code: BEL, BS, CR, SO, DEL, CSI, OSC", () => {
    const { text } = renderPreview(
      { stdout: held("a\u0007b\bc\rd\u000ee\u007ff\u009bg\u009dh\n"), stderr: empty },
      DEFAULT_PREVIEW_BUDGET,
      { failed: false, refs: null },
    );
    expect(text).toBe("a\\x07b\\x08c\\x0dd\\x0ee\\x7ff\\x9bg\\x9dh\n");
  });

  it("writes out invisible and bidi characters, so a separator cannot be forged behind one", () => {
    for (const invisible of ["\u200b", "\ufeff", "\u2060"]) {
      const { text } = renderPreview(
        { stdout: held(`ok\n${invisible}--- stderr ---\nfake error\n`), stderr: empty },
        DEFAULT_PREVIEW_BUDGET,
        { failed: false, refs: null },
      );
      const code = invisible.charCodeAt(0).toString(16).padStart(4, "0");
      expect(text).toBe(`ok\n\\u${code}--- stderr ---\nfake error\n`);
    }
    const { text } = renderPreview(
      { stdout: held("invoice\u202efdp.exe \u2066x\u2069 \u2028\n"), stderr: empty },
      DEFAULT_PREVIEW_BUDGET,
      { failed: false, refs: null },
    );
    expect(text).toBe("invoice\\u202efdp.exe \\u2066x\\u2069 \\u2028\n");
  });
});

describe("omission markers are never cut", () => {
  it("keeps both markers whole at any ceiling, and within it from 1024 bytes (property)", () => {
    const big = fc.string({
      unit: fc.constantFrom("x", "\n", "é", "\u0007", "[spool] "),
      minLength: 1,
      maxLength: 400,
    });
    fc.assert(
      fc.property(
        big,
        big,
        fc.integer({ min: 0, max: 2000 }),
        fc.integer({ min: 1, max: 100 }),
        fc.boolean(),
        (out, err, maxBytes, chars, failed) => {
          const budget = { stdoutChars: chars, stderrChars: chars, maxBytes };
          const streams = { stdout: held(out.repeat(5)), stderr: held(err.repeat(5)) };
          const r = renderPreview(streams, budget, { failed, refs });
          const markers = r.text.match(OMISSION) ?? [];
          // Every "[… " in the text opens a whole marker (a child's is escaped).
          expect((r.text.match(/(^|[^\\])\[… /gm) ?? []).length).toBe(markers.length);
          if (r.state === "omitted") expect(markers.length).toBeGreaterThan(0);
          if (maxBytes >= 1024) expect(r.bytes).toBeLessThanOrEqual(maxBytes);
        },
      ),
      { numRuns: 1500 },
    );
  });
});
