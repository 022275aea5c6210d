import { describe, expect, it } from "vitest";
import { compileRedaction } from "../src/compile-redaction.js";
import { redactText } from "../src/redact-text.js";
import { type MatcherRule, Verdict } from "../src/rule.js";
import { checkNoSecretPiece, checkRedaction, checkRedactor, splitAt } from "../src/testing.js";
import { checkEverySplit, checkPrefixExposure, checkRandomMixes } from "./every-split.js";

const compiled = compileRedaction();
const redact = (text: string) => redactText(text, compiled);
const MARKER = "[REDACTED:terraform-token]";
/** Terraform's `<14>.atlasv1.<67>`, as in gitleaks' rule tests (synthetic). */
const TF =
  "VXLyn0icCVFWg7.atlasv1.igV8u6-311rfBktEuBMB25v6Af1sr5N-W_F4r_JkiPcuErfdKx03_dPyQeQZqSex_O3";
const TF2 =
  "ov3mnljn9ievmt.atlasv1.o4d91utc7rj9-p5ofp6xs8f4xeu-tz2zw2_2mv7hx4i2_cuopy125x=lxoyfavsxt3r";

describe("a token whose fixed part is in the middle (Terraform's .atlasv1.)", () => {
  it("is redacted whole, the 14 bytes before the infix too", () => {
    for (const text of [TF, `${TF}\n`, `token ${TF} ok`, `TF_TOKEN=${TF}`, `"${TF}"`]) {
      const out = redact(text);
      expect(out).toContain(MARKER);
      checkNoSecretPiece(out, TF);
    }
    expect(redact(`x ${TF2}\n`)).toBe(`x ${MARKER}\n`);
  });

  it("needs exactly 14 alphanumeric bytes before the infix, after a boundary", () => {
    const body = TF.slice(14);
    for (const text of [`Q${TF}`, `short${body}`, `${TF.slice(0, 14)}${body.slice(0, 40)}`]) {
      expect(redact(text)).toBe(text);
    }
  });

  it("holds for every split into at most three pieces and byte by byte", () => {
    for (const text of [`a ${TF} b`, `${TF2}\nQ${TF}\n${TF}`]) {
      checkEverySplit(compiled, Buffer.from(text), 7);
    }
  });

  it("never emits a byte of the lead before the infix decides (prefix exposure)", () => {
    checkPrefixExposure(compiled, `before ${TF} after`, TF, `before ${MARKER} after`);
  });

  it("holds embedded in random text and contexts, randomly split", () => {
    checkRedaction(compiled, { secrets: [TF, TF2], numRuns: 60 });
  });

  it("holds on random mixes of tokens, their pieces and alphanumeric runs", () => {
    const pieces = [TF, TF.slice(0, 20), TF.slice(10), ".atlasv1.", "abc", "x", " ", "\n"];
    checkRandomMixes(compiled, pieces, { maxPieces: 10, maxCut: 500, maxCuts: 16, numRuns: 200 });
  });
});

describe("MatcherRule.lookbehind", () => {
  /** Redacts `.x.` and the digits (up to 5) just before it. */
  const dotted = (lookbehind: MatcherRule["lookbehind"]): MatcherRule => ({
    kind: "matcher",
    name: "dotted",
    anchors: [".x."],
    maxLength: 16,
    ...(lookbehind === undefined ? {} : { lookbehind }),
    start: (match) => ({ from: -(match.lead ?? "").length, next: () => Verdict.Close }),
  });

  it("hands a rule the held bytes of its class and lets it claim them", () => {
    const rules = compileRedaction({
      builtins: false,
      rules: [dotted({ length: 5, body: "0-9" })],
    });
    expect(redactText("a 1234567.x.b", rules)).toBe("a 12[REDACTED:dotted]b");
    expect(redactText("a z.x.b", rules)).toBe("a z[REDACTED:dotted]b");
    const input = Buffer.from("a 1234567.x.b 99.x. 12");
    for (let cut = 1; cut < input.length; cut++) checkRedactor(rules, input, splitAt(input, [cut]));
  });

  it("hands each rule the bytes of its own class, whatever other rules' classes are", () => {
    const letters: MatcherRule = {
      ...dotted({ length: 5, body: "a-z" }),
      name: "lettered",
      anchors: [".y."],
    };
    const rules = compileRedaction({
      builtins: false,
      rules: [dotted({ length: 5, body: "0-9" }), letters],
    });
    expect(redactText("ab12.x. 12ab.y. ", rules)).toBe(
      "ab[REDACTED:dotted] 12[REDACTED:lettered] ",
    );
    const input = Buffer.from("ab12.x. 12ab.y. ");
    for (let cut = 1; cut < input.length; cut++) checkRedactor(rules, input, splitAt(input, [cut]));
  });

  it("never lets a rule claim bytes before its anchor without declaring them", () => {
    const rules = compileRedaction({ builtins: false, rules: [dotted(undefined)] });
    expect(redactText("a 12.x.b", rules)).toBe("a 12[REDACTED:dotted]b");
  });

  it("refuses a lookbehind out of range or with a bad class", () => {
    for (const bad of [
      { length: 0, body: "0-9" },
      { length: 81, body: "0-9" },
      { length: 2.5, body: "0-9" },
      { length: 4, body: "9-0" },
    ]) {
      expect(() => compileRedaction({ rules: [dotted(bad)] })).toThrow(/lookbehind/);
    }
  });
});
