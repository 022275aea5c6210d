import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileRedaction } from "../src/compile-redaction.js";
import { hexViewFits } from "../src/hex-runs.js";
import { knownValueForms } from "../src/known-values.js";
import { redactText } from "../src/redact-text.js";
import { createRedactor } from "../src/redactor.js";
import { assertProperty, byteAtATime, checkRedactor, splitAt } from "../src/testing.js";

const VALUE_CHARS = [..."aZ09", ..." /!'()*~-_.+%&=?\"\\$`@:,;<>", "é", "😀", "\t"];
const arbValue = fc
  .array(fc.constantFrom(...VALUE_CHARS), { minLength: 8, maxLength: 20 })
  .map((chars) => chars.join("").trim())
  .filter((v) => Buffer.byteLength(v) >= 8);
const arbDigits = (maxLength: number) =>
  fc.array(fc.constantFrom(..."0123456789abcdefABCDEF"), { maxLength }).map((d) => d.join(""));

/** `hex` with each letter in the case `upper` says (the last flag repeats). */
function withCase(hex: string, upper: readonly boolean[]): string {
  return [...hex]
    .map((ch, i) => ((upper[i] ?? upper[upper.length - 1]) ? ch.toUpperCase() : ch))
    .join("");
}

function redact(compiled: ReturnType<typeof compileRedaction>, chunks: Uint8Array[]): string {
  const redactor = createRedactor(compiled);
  const out = [...chunks.flatMap((chunk) => redactor.push([chunk])), ...redactor.end()];
  return Buffer.concat(out).toString("utf8");
}

describe("known values in hex, found by decoding hex runs", () => {
  it("redacts exactly the digits of the value in any case, amid other digits, however split", () => {
    assertProperty(
      fc.property(
        arbValue,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }),
        arbDigits(7),
        arbDigits(7),
        (value, upper, before, after) => {
          const compiled = compileRedaction({ knownValues: [{ value, name: "k" }] });
          const digits = withCase(Buffer.from(value).toString("hex"), upper);
          const text = `id=${before}${digits}${after};`;
          const input = Buffer.from(text);
          const whole = redact(compiled, [input]);
          expect(whole).toContain("[REDACTED:k]");
          expect(whole).not.toContain(digits);
          expect(whole.startsWith("id=")).toBe(true);
          expect(whole.endsWith(";")).toBe(true);
          // Whatever digits around the value are left stand where they stood.
          const kept = whole.slice(3, -1).split(/\[REDACTED:k\]/);
          expect(before.startsWith(kept[0]!)).toBe(true);
          expect(after.endsWith(kept[kept.length - 1]!)).toBe(true);
          expect(redact(compiled, byteAtATime(input))).toBe(whole);
          for (let cut = 1; cut < input.length; cut++)
            expect(redact(compiled, splitAt(input, [cut]))).toBe(whole);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("redacts nothing else: the digits before and after a value stay, exactly", () => {
    const compiled = compileRedaction({ knownValues: ["correct-horse-battery"], builtins: false });
    const digits = Buffer.from("correct-horse-battery").toString("hex");
    expect(redactText(`sha=0f1e${digits}2d3c end`, compiled)).toBe(
      "sha=0f1e[REDACTED:known-value]2d3c end",
    );
    // An odd number of digits before it: the other alignment.
    expect(redactText(`x=abc${digits.toUpperCase()}9 end`, compiled)).toBe(
      "x=abc[REDACTED:known-value]9 end",
    );
    // A digest that merely has hex digits is kept.
    const digest = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    expect(redactText(`sha256 ${digest}`, compiled)).toBe(`sha256 ${digest}`);
  });

  it("finds a value anywhere in a run longer than the segments it is decided in", () => {
    const window = 256; // segments of 128 digits, each starting 64 digits before the last ended
    const value = "s3cret-value-0123456789";
    const digits = Buffer.from(value).toString("hex"); // 46 digits: within the overlap
    expect(hexViewFits(Buffer.byteLength(value), window)).toBe(true);
    const compiled = compileRedaction({ knownValues: [value], builtins: false, window });
    for (let at = 0; at < 400; at += 1) {
      const before = "ab".repeat(200).slice(0, at);
      const text = `<${before}${digits}${"cd".repeat(100)}>`;
      const input = Buffer.from(text);
      const expected = `<${before}[REDACTED:known-value]${"cd".repeat(100)}>`;
      expect(redact(compiled, [input]), `at ${at}`).toBe(expected);
      checkRedactor(compiled, input, splitAt(input, [1 + (at % 97), 200 + (at % 131)]));
    }
  });

  it("keeps SPEC §5 with hex runs of any length around known values, in a small window", () => {
    // Window 128: segments of 64 digits, 32 back; values of up to 16 bytes use the view.
    const values = ["s3cret-val-0042", "Zq9!pass word"];
    const source = compileRedaction({ knownValues: values, builtins: false, window: 128 });
    const pieces = [
      ...values.map((v) => Buffer.from(v).toString("hex")),
      ...values.map((v) => Buffer.from(v).toString("hex").toUpperCase()),
      "0",
      "a1",
      "deadbeef",
      "F00D",
      " ",
      "\n",
      "=",
      '"',
      "token=",
      "x",
    ];
    assertProperty(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 600 }), { maxLength: 12 }),
        (parts, cuts) => {
          const input = Buffer.from(parts.join(""));
          checkRedactor(source, input, splitAt(input, cuts));
          checkRedactor(source, input, byteAtATime(input));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("skips runs too short for the shortest literal, and finds a short literal rule's hex with long known values", () => {
    const long = "q".repeat(40);
    const hexOf = (v: string) => Buffer.from(v).toString("hex");
    // Only runs of 80 digits or more can hold the value; a shorter run is kept as it is.
    const run = (compiled: ReturnType<typeof compileRedaction>, text: string) =>
      redact(compiled, [Buffer.from(text)]);
    const alone = compileRedaction({ knownValues: [long] });
    const short = hexOf("q".repeat(39));
    expect(run(alone, `x ${short} y`)).toBe(`x ${short} y`);
    expect(run(alone, `x 00${hexOf(long)}ff y`)).toBe("x 00[REDACTED:known-value]ff y");
    // A literal rule of 9 bytes sets the shortest run: its 18 digits are found too.
    const both = compileRedaction({
      knownValues: [long],
      rules: [{ kind: "literal", name: "lit", values: ["nine-byte"] }],
    });
    expect(run(both, `x ${hexOf("nine-byte")} y`)).toBe("x [REDACTED:lit] y");
    expect(run(both, `x 00${hexOf(long)}ff y`)).toBe("x 00[REDACTED:known-value]ff y");
  });

  it("keeps the hex needles of a value too long for the view (found in any run)", () => {
    const window = 256;
    const value = "v".repeat(40); // 80 digits: more than the 64-digit overlap
    expect(hexViewFits(40, window)).toBe(false);
    const compiled = compileRedaction({ knownValues: [value], builtins: false, window });
    const digits = Buffer.from(value).toString("hex");
    const text = `<${"ab".repeat(150)}${digits}${"cd".repeat(10)}>`;
    expect(redactText(text, compiled)).toBe(
      `<${"ab".repeat(150)}[REDACTED:known-value]${"cd".repeat(10)}>`,
    );
    expect(knownValueForms(value)).toContain(digits);
  });
});
