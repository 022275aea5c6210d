/**
 * A secret written unquoted inside a string of a one-line document (minified JSON, a
 * Python dict's repr, a call in code) ends where that string closes: the redaction
 * replaces the secret and nothing after it, however the document is split.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileRedaction } from "../src/compile-redaction.js";
import { redactText } from "../src/redact-text.js";
import { createRedactor } from "../src/redactor.js";
import { assertProperty, splitAt } from "../src/testing.js";

const compiled = compileRedaction();

/**
 * Where a secret stands in a string: what comes before it in the same string, and what
 * before it is redacted with it (`curl -u` redacts the whole `user:password`).
 */
const LEADS: readonly (readonly [string, string])[] = [
  ["TOKEN=", ""],
  ["Host=db;Username=app;Password=", ""],
  ["deploy --token ", ""],
  ["curl -u ", "deploy:"],
  ["mysql -u root -p", ""],
  ["docker login -u ci -p ", ""],
  ["export DB_PASSWORD=", ""],
];

const arbSecret = fc
  .tuple(
    fc.stringMatching(/^[A-Za-z]{4,12}$/),
    fc.stringMatching(/^[0-9]{2,6}$/),
    fc.stringMatching(/^[A-Za-z0-9]{4,12}$/),
  )
  .map((parts) => parts.join(""));
const arbRest = fc.array(fc.record({ id: fc.nat(99), name: fc.stringMatching(/^[a-z]{1,8}$/) }), {
  minLength: 1,
  maxLength: 20,
});

/** The document with its one redaction put back: the output must be the input. */
function restored(out: string, secret: string): string {
  expect(out.match(/\[REDACTED:[a-z-]+\]/g)?.length).toBe(1);
  return out.replace(/\[REDACTED:[a-z-]+\]/, secret);
}

function redactSplit(text: string, cut: number): string {
  const input = Buffer.from(text);
  const redactor = createRedactor(compiled);
  const out = [...splitAt(input, [cut]).flatMap((c) => redactor.push([c])), ...redactor.end()];
  return Buffer.concat(out).toString();
}

describe("a secret inside a string of a one-line document", () => {
  it("in minified JSON: the rest of the document stays, and parses", () => {
    assertProperty(
      fc.property(
        fc.constantFrom(...LEADS),
        arbSecret,
        arbRest,
        fc.nat(),
        ([lead, user], password, rest, cut) => {
          const secret = user + password;
          const doc = JSON.stringify({ env: [`${lead}${secret}`, "B=2"], rest });
          const out = redactText(doc, compiled);
          expect(restored(out, secret)).toBe(doc);
          expect(JSON.parse(out).rest).toEqual(rest);
          expect(redactSplit(doc, 1 + (cut % (doc.length - 1)))).toBe(out);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("in a Python repr and in a call: the closing quote and what follows stay", () => {
    assertProperty(
      fc.property(fc.constantFrom(...LEADS), arbSecret, arbRest, ([lead, user], password, rest) => {
        const secret = user + password;
        const repr = `{'cmd': '${lead}${secret}', 'rest': ${JSON.stringify(rest).replaceAll('"', "'")}}`;
        expect(restored(redactText(repr, compiled), secret)).toBe(repr);
        const call = `run("${lead}${secret}")+next(1)`;
        expect(restored(redactText(call, compiled), secret)).toBe(call);
      }),
      { numRuns: 200 },
    );
  });

  it("after an element's closing tag inside a JSON string, and after an unterminated quote, the document stays", () => {
    assertProperty(
      fc.property(
        fc.stringMatching(/^[a-z]{1,8}$/),
        arbSecret,
        arbRest,
        fc.boolean(),
        (name, secret, rest, lines) => {
          const br = lines ? "\n" : " ";
          const xml = `<${name}Token>${br}${secret}${br}</${name}Token>`;
          const doc = JSON.stringify({ log: xml, rest });
          const out = redactText(doc, compiled);
          expect(restored(out, secret)).toBe(doc);
          // A quoted value whose closing quote is missing ends where its string does.
          const cut = JSON.stringify({ log: `"${name}_token": "${secret}`, rest });
          expect(restored(redactText(cut, compiled), secret)).toBe(cut);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("a quote inside an unquoted value followed by more of it stays in the value", () => {
    expect(redactText('PASSWORD=ab"cd1234 next', compiled)).toBe(
      "PASSWORD=[REDACTED:secret-assignment] next",
    );
    expect(redactText("curl -u deploy:Xk29'sLq0Zp81 x", compiled)).toBe(
      "curl -u [REDACTED:basic-auth] x",
    );
  });
});

describe("where an unquoted value ends", () => {
  it("a `,` before whitespace or the next key ends it; one before more of the value does not", () => {
    expect(redactText("{password: Xk29sLq0Zp81, next: 1}", compiled)).toBe(
      "{password: [REDACTED:secret-assignment], next: 1}",
    );
    expect(redactText("dsn: user=app,password=Xk29sLq0Zp81,host=db", compiled)).toBe(
      "dsn: user=app,password=[REDACTED:secret-assignment],host=db",
    );
    expect(redactText("PASSWORD=ab,cd12 next", compiled)).toBe(
      "PASSWORD=[REDACTED:secret-assignment] next",
    );
  });

  it("`;`, `&` or `,` and letters at the end of input are the value's, however split", () => {
    assertProperty(
      fc.property(
        fc.stringMatching(/^[a-z]{2,60}[0-9]{2}$/),
        fc.constantFrom(";", "&", ","),
        fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/),
        fc.nat(),
        (value, separator, rest, cut) => {
          const text = `PASSWORD=${value}${separator}${rest}`;
          const expected = "PASSWORD=[REDACTED:secret-assignment]";
          expect(redactText(text, compiled)).toBe(expected);
          expect(redactSplit(text, 1 + (cut % (text.length - 1)))).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
