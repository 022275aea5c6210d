import { compileRedaction, type PatternRule, redactText, tokenRule } from "@spool/transforms";
import { describe, expect, it } from "vitest";

const token =
  (body: string, extra: object = {}) =>
  () =>
    tokenRule({ name: "acme-key", prefixes: ["acme_"], body, minBody: 8, ...extra });

const pattern = (anchors: string[], re: RegExp): PatternRule => ({
  kind: "pattern",
  name: "p",
  anchors,
  pattern: re,
  maxLength: 40,
});

describe("rule validation is loud", () => {
  it("refuses token bodies that would match nothing or the wrong bytes", () => {
    expect(token("z-a")).toThrow(/SPOOL_E_OPTIONS|empty range "z-a"/);
    expect(token("z-a")).toThrow(/body "z-a" has the empty range "z-a"/);
    expect(token("\\w")).toThrow(/"\\\\w", which is not supported.*A-Za-z0-9_/);
    expect(token("A-Z\\d")).toThrow(/not supported/);
    expect(token("")).toThrow(/is empty/);
    expect(token("[A-Z0-9]")).toThrow(/wrapped in \[ \]/);
    expect(token("a-zé")).toThrow(/non-ASCII/);
    expect(token("A-Z", { minBody: 0 })).toThrow(/minBody must be a whole number ≥ 1/);
    expect(token("A-Z", { minBody: -1, lead: 4 })).toThrow(/minBody must be a whole number ≥ 0/);
    expect(token("A-Z", { lead: 4, keepPrefix: true })).toThrow(/keepPrefix with a lead/);
    expect(token("A-Z", { notAfter: "9-0" })).toThrow(/notAfter "9-0" has the empty range/);
    expect(token("A-Z", { lead: 4, leadBody: "9-0" })).toThrow(
      /leadBody "9-0" has the empty range/,
    );
    expect(token("A-Z", { lead: 4, leadBody: "0-9_-" })).not.toThrow();
    expect(() => tokenRule({ name: "x", prefixes: [], body: "a-z", minBody: 4 })).toThrow(/prefix/);
    expect(token("A-Za-z0-9_-")).not.toThrow();
  });

  it("takes a token that ends at its anchor (a suffix) when its bytes are all in the lead", () => {
    const options = {
      name: "acme-key",
      prefixes: ["ACME"],
      lead: 12,
      leadBody: "a-z0-9",
      body: "A-Za-z0-9",
      minBody: 0,
      maxBody: 0,
    };
    const rules = { builtins: false, rules: [tokenRule(options)] };
    expect(redactText("k=x7kq2mz9pl4vACME;", rules)).toBe("k=[REDACTED:acme-key];");
    for (const kept of ["k=ax7kq2mz9pl4vACME", "x7kq2mz9pl4vACMEx", "7kq2mz9pl4vACME"])
      expect(redactText(kept, rules)).toBe(kept);
    // A kept prefix after its lead: only the lead is the token.
    const path = { builtins: false, rules: [tokenRule({ ...options, keepPrefix: true })] };
    expect(redactText("/v1/x7kq2mz9pl4vACME/x", path)).toBe("/v1/[REDACTED:acme-key]ACME/x");
  });

  it("refuses a pattern that cannot start at its anchor", () => {
    const bad = pattern(["key="], /secret=(?<secret>\w+)/);
    expect(() => compileRedaction({ builtins: false, rules: [bad] })).toThrow(
      /pattern \/secret=.*cannot start at its anchor "key="/,
    );
    expect(() =>
      compileRedaction({ builtins: false, rules: [pattern(["tok_"], /(?<secret>x\d+)/)] }),
    ).toThrow(/cannot start at its anchor "tok_"/);
  });

  it("accepts patterns that start at their anchors, however written", () => {
    const good = [
      pattern(["key="], /key=(?<secret>\w{8,})/),
      pattern(["KEY="], /(?:key)=(?<secret>\w{8,})/i),
      pattern(["foo_", "bar_"], /(?:foo|bar)_(?<secret>\w{8,})/),
      pattern(["foo_", "bar_"], /foo_\w{8,}|bar_\w{8,}/),
      pattern(["tok_"], /[a-z]+_(?<secret>\d{6,})/),
      pattern(["x"], /(?:y)?x\d{4}/),
    ];
    for (const rule of good)
      expect(() => compileRedaction({ builtins: false, rules: [rule] })).not.toThrow();
    const rules = compileRedaction({ builtins: false, rules: [good[0]!] });
    expect(redactText("a key=abcdefgh1 b", rules)).not.toContain("abcdefgh1");
  });
});
