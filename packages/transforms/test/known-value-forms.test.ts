import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildAutomaton } from "../src/aho-corasick.js";
import { compiledForText, compileRedaction } from "../src/compile-redaction.js";
import { knownValueForms } from "../src/known-values.js";
import { redactText } from "../src/redact-text.js";
import { createRedactor } from "../src/redactor.js";
import { assertProperty, byteAtATime, checkRedactor, splitAt } from "../src/testing.js";

/**
 * Encoders written apart from `known-values.ts`, each as a tool the docs name encodes: a
 * form the redactor misses shows here as a value stored verbatim.
 */
const strict = (v: string) =>
  encodeURIComponent(v).replace(
    /[!'()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
const lowerHex = (v: string) => v.replace(/%[0-9A-F]{2}/g, (seq) => seq.toLowerCase());
const asciiJson = (v: string, upper: boolean) =>
  JSON.stringify(v)
    .slice(1, -1)
    .replace(/[\u0080-\uffff]/g, (ch) => {
      const hex = ch.charCodeAt(0).toString(16).padStart(4, "0");
      return `\\u${upper ? hex.toUpperCase() : hex}`;
    });
const ENCODERS: Record<string, (v: string) => string> = {
  raw: (v) => v,
  "lax percent (encodeURIComponent)": encodeURIComponent,
  "strict percent (Go PathEscape, curl --data-urlencode, Python quote(safe=''))": strict,
  "strict percent, lower-case hex": (v) => lowerHex(strict(v)),
  "query escape (Go QueryEscape, Python quote_plus)": (v) => strict(v).replaceAll("%20", "+"),
  "query escape, lower-case hex": (v) => lowerHex(strict(v)).replaceAll("%20", "+"),
  "lax percent, + for space": (v) => encodeURIComponent(v).replaceAll("%20", "+"),
  "Python quote (/ kept)": (v) => strict(v).replaceAll("%2F", "/"),
  "PHP urlencode (~ escaped)": (v) => strict(v).replaceAll("~", "%7E").replaceAll("%20", "+"),
  "JSON.stringify": (v) => JSON.stringify(v).slice(1, -1),
  "JSON with \\/ (PHP json_encode)": (v) => JSON.stringify(v).slice(1, -1).replaceAll("/", "\\/"),
  "JSON ensure_ascii (Python json.dumps)": (v) => asciiJson(v, false),
  "JSON ensure_ascii, upper-case hex": (v) => asciiJson(v, true),
  "JSON ensure_ascii with \\/": (v) => asciiJson(v, false).replaceAll("/", "\\/"),
  "hex, lower case": (v) => Buffer.from(v).toString("hex"),
  "hex, upper case": (v) => Buffer.from(v).toString("hex").toUpperCase(),
};

/** Characters values are drawn from: letters, every byte an encoder treats apart, non-ASCII. */
const VALUE_CHARS = [..."aZ09", ..." /!'()*~-_.+%&=?\"\\$`@:,;<>", "é", "ß", "€", "😀", "\t"];
const arbValue = fc
  .array(fc.constantFrom(...VALUE_CHARS), { minLength: 8, maxLength: 24 })
  .map((chars) => chars.join("").trim())
  .filter((v) => Buffer.byteLength(v) >= 8);

/** One redactor per stream, base64 decoding off: what the forms alone catch. */
function redactChunks(compiled: ReturnType<typeof compileRedaction>, chunks: Uint8Array[]) {
  const redactor = createRedactor(compiled, { decodeBase64: false });
  const out = [...chunks.flatMap((chunk) => redactor.push([chunk])), ...redactor.end()];
  return Buffer.concat(out).toString("utf8");
}

describe("known values in their encoded forms", () => {
  it("redacts each encoder's output whole, however the input is split", () => {
    assertProperty(
      fc.property(arbValue, fc.constantFrom(...Object.keys(ENCODERS)), (value, encoder) => {
        const compiled = compileRedaction({ knownValues: [{ value, name: "k" }], builtins: false });
        const input = Buffer.from(`<${ENCODERS[encoder]!(value)}>`);
        const chunkings = [
          [input],
          byteAtATime(input),
          ...Array.from({ length: input.length - 1 }, (_, cut) => splitAt(input, [cut + 1])),
        ];
        for (const chunks of chunkings) {
          expect(redactChunks(compiled, chunks), encoder).toBe("<[REDACTED:k]>");
        }
      }),
      { numRuns: 150 },
    );
  });

  it("redacts the base64 of a value at every alignment, both alphabets, however split", () => {
    assertProperty(
      fc.property(
        arbValue,
        fc.uint8Array({ maxLength: 5 }),
        fc.uint8Array({ maxLength: 3 }),
        fc.boolean(),
        (value, before, after, url) => {
          const compiled = compileRedaction({
            knownValues: [{ value, name: "k" }],
            builtins: false,
          });
          const bytes = Buffer.from(value);
          const blob = Buffer.concat([before, bytes, after]).toString(url ? "base64url" : "base64");
          const input = Buffer.from(`<${blob}>`);
          // Characters whose 6 bits all come from the value's bytes: none may be left.
          const first = Math.ceil((before.length * 8) / 6);
          const last = Math.floor(((before.length + bytes.length) * 8) / 6);
          const core = blob.slice(first, last);
          const whole = redactChunks(compiled, [input]);
          expect(whole).toContain("[REDACTED:k]");
          expect(whole).not.toContain(core);
          for (let cut = 1; cut < input.length; cut++) {
            expect(redactChunks(compiled, splitAt(input, [cut]))).toBe(whole);
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it("keeps the redactor's guarantees (provenance, every split) with encoded forms in text", () => {
    const value = "pa ss/w0rd!()*~é😀";
    const compiled = compileRedaction({ knownValues: [{ value, name: "k" }] });
    const text = Object.values(ENCODERS)
      .map((encode) => `x=${encode(value)};`)
      .join(" ");
    const input = Buffer.from(text);
    const out = redactText(text, compiled);
    expect(out.match(/\[REDACTED:k\]/g)?.length).toBe(Object.keys(ENCODERS).length);
    checkRedactor(compiled, input, byteAtATime(input));
    for (let cut = 1; cut < input.length; cut += 7)
      checkRedactor(compiled, input, splitAt(input, [cut]));
  });

  it("makes each form once, and no percent, JSON or shell forms for values no encoder changes", () => {
    const forms = knownValueForms("abcdefgh12");
    expect(new Set(forms).size).toBe(forms.length);
    expect(forms).toEqual([
      "abcdefgh12",
      ...new Set([0, 1, 2].flatMap((shift) => shiftedForms("abcdefgh12", shift))),
      "61626364656667683132",
    ]);
    const special = knownValueForms("pa ss/word");
    expect(new Set(special).size).toBe(special.length);
    for (const form of ["pa%20ss%2Fword", "pa+ss%2fword", "pa%20ss/word", "pa ss\\/word"])
      expect(special).toContain(form);
  });
});

describe("compiledForText (a label before the automaton is built)", () => {
  const values = ["first-secret-value-1", "second/secret value!", "third-secret-valüe"];
  const arbText = fc
    .array(
      fc.oneof(
        fc.constantFrom(...values.flatMap((v) => knownValueForms(v))),
        fc.constantFrom(...values.map((v) => Buffer.from(`xy${v}`).toString("base64"))),
        fc.string({ maxLength: 6 }),
        fc.constantFrom(" ", "\n  ", "="),
      ),
      { maxLength: 6 },
    )
    .map((parts) => parts.join(""));

  it("redacts a text exactly as the automaton of every known value does", () => {
    const full = compileRedaction({ knownValues: values });
    void full.exact; // built: used as it is
    assertProperty(
      fc.property(arbText, (text) => {
        const lazy = compileRedaction({ knownValues: values });
        expect(redactText(text, lazy)).toBe(redactText(text, full));
      }),
      { numRuns: 200 },
    );
  });

  it("leaves out known values none of whose forms is in the text, and keeps the rest", () => {
    const compiled = compileRedaction({ knownValues: values, builtins: false });
    const none = compiledForText(compiled, Buffer.from("npm test --coverage"));
    expect(none.ruleNames).not.toContain("known-value");
    const one = compiledForText(compiled, Buffer.from(`echo ${encodeURIComponent(values[1]!)}`));
    expect(one.ruleNames).toContain("known-value");
    expect(redactText(`echo ${encodeURIComponent(values[1]!)}`, compiled)).toBe(
      "echo [REDACTED:known-value]",
    );
  });
});

describe("the automaton of many known values", () => {
  it("densifies only its shallow states (bounded memory) and scans the same", () => {
    let seed = 1;
    const next = () => {
      seed = (seed * 48271) % 2147483647;
      return seed;
    };
    const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    const needles = Array.from({ length: 3000 }, (_, i) => ({
      bytes: Buffer.from(Array.from({ length: 10 }, () => alphabet[next() % 62]).join("")),
      literal: i % 3,
      anchor: -1,
    }));
    const a = buildAutomaton(needles, { denseDepth: 2 });
    const full = a.densified();
    expect(a.states * a.classes).toBeGreaterThan(1 << 20);
    expect(full.denseStates).toBeLessThan(full.states);
    expect(full.denseStates * full.classes).toBeLessThanOrEqual(1 << 20);
    const text = Buffer.concat(
      needles.slice(0, 200).map((n) => Buffer.concat([n.bytes, Buffer.from("~")])),
    );
    let s = 0;
    let t = 0;
    for (const byte of text) {
      s = a.step(s, a.classOf[byte]!);
      t = full.step(t, full.classOf[byte]!);
      expect(t).toBe(s);
    }
  });
});

function shiftedForms(value: string, shift: number): string[] {
  const bytes = Buffer.from(value);
  const encoded = Buffer.concat([Buffer.alloc(shift), bytes])
    .toString("base64")
    .replace(/=+$/, "");
  const skip = shift === 0 ? 0 : shift + 1;
  const drop = (shift + bytes.length) % 3 === 0 ? 0 : 1;
  const std = encoded.slice(skip, encoded.length - drop);
  return [std, std.replaceAll("+", "-").replaceAll("/", "_")];
}
