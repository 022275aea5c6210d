import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MIN_RUN } from "../src/base64-runs.js";
import { compileRedaction } from "../src/compile-redaction.js";
import { redactText } from "../src/redact-text.js";
import { createRedactor } from "../src/redactor.js";
import { tokenRule } from "../src/rules/token-rule.js";
import { checkNoSecretPiece, checkRedactor, splitAt } from "../src/testing.js";
import { checkEverySplit, checkPrefixExposure } from "./every-split.js";

const b64 = (s: string) => Buffer.from(s).toString("base64");
const b64url = (s: string) => Buffer.from(s).toString("base64url");
const GHP = `ghp_${"a1B2c3D4e5".repeat(3)}x9Y8z7`;
const ACME = tokenRule({
  name: "acme",
  prefixes: ["acme_"],
  body: "A-Za-z0-9",
  minBody: 12,
  maxBody: 40,
});
const BUILTINS = compileRedaction({ rules: [ACME] });
/** A small window (no built-ins fit it): runs are decided at 32 characters (the cap path). */
const SMALL = compileRedaction({ window: 64, builtins: false, rules: [ACME] });

describe("base64 runs: credentials wrapped in base64", () => {
  const wrapped: [string, string][] = [
    ["an .env line", `GITHUB_TOKEN=${GHP}\n`],
    ["a .dockerconfigjson", `{"auths":{"r.example.com":{"auth":"${b64("ci:Zx9Qw8Er7Ty6Ui5O")}"}}}`],
    ["a JWT", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ"],
    ["a bare token", GHP],
    [
      "a PEM key",
      "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n",
    ],
  ];
  for (const [what, inner] of wrapped) {
    it(`redacts the whole run and its padding for ${what}, standard and url-safe`, () => {
      for (const encoded of [b64(inner), b64url(inner)]) {
        const text = `data:\n  .dockerconfigjson: ${encoded}\n  next: 1\n`;
        // A .dockerconfigjson has its own rule on the encoded `{"auths"` too, and a Secret's
        // `data:` block its own (the same span).
        const out = redactText(text, BUILTINS)
          .replace("[REDACTED:docker-config]", "[REDACTED:base64]")
          .replace("[REDACTED:kubernetes-secret]", "[REDACTED:base64]");
        expect(out).toBe("data:\n  .dockerconfigjson: [REDACTED:base64]\n  next: 1\n");
      }
    });
  }

  it("decodes a run at any of its four alignments (a prefix glued to the encoding)", () => {
    for (const glue of ["", "a", "ab", "abc"]) {
      const out = redactText(`blob ${glue}${b64(`export API_TOKEN=${GHP}`)} end`, BUILTINS);
      expect(out).toBe("blob [REDACTED:base64] end");
    }
  });

  it("leaves base64 of text without a secret, random bytes, digests and short runs alone", () => {
    const benign = [
      `msg ${b64("hello world, this is only some ordinary text")}`,
      `integrity sha512-${Buffer.from("0123456789abcdef".repeat(4), "hex").toString("base64")}`,
      `github.com/x/y v1.2.3 h1:${Buffer.alloc(32, 7).toString("base64")}`,
      `settings ${b64("TOKENIZERS_PARALLELISM=false PASSWORD_MIN_LENGTH=12")}`,
      `short ${b64("GITHUB_TOKEN=x")}`,
      "path /usr/local/lib/node_modules/typescript/lib/typescript.js",
    ];
    for (const line of benign) expect(redactText(line, BUILTINS)).toBe(line);
  });

  it("decides a run at the cap and redacts the rest of it, or releases it undecoded", () => {
    const hit = b64(`acme_Zx9Qw8Er7Ty6 ${"filler text ".repeat(20)}`);
    expect(redactText(`v ${hit} w`, SMALL)).toBe("v [REDACTED:base64] w");
    // The secret lies past the first 32 characters: not decoded (a documented limit).
    const late = b64(`${"filler text ".repeat(20)}acme_Zx9Qw8Er7Ty6`);
    expect(redactText(`v ${late} w`, SMALL)).toBe(`v ${late} w`);
  });

  it("can be turned off per redactor", () => {
    const text = `x ${b64(`GITHUB_TOKEN=${GHP}`)} y`;
    const redactor = createRedactor(BUILTINS, { decodeBase64: false });
    const out = Buffer.concat([...redactor.push([Buffer.from(text)]), ...redactor.end()]);
    expect(out.toString()).toBe(text);
  });
});

describe("base64 runs: SPEC §5 (chunking invariance, no prefix exposure, bounded hold)", () => {
  const samples = [
    `K ${b64(`GITHUB_TOKEN=${GHP}`)}== z`,
    `${b64url(`acme_Zx9Qw8Er7Ty6 and more`)}\nok ${b64("just some words here, nothing")}`,
    `a${"Q".repeat(MIN_RUN - 1)} ${b64(`x ${GHP}`)}`,
  ];

  it("holds for every split into at most three pieces (exhaustive over cut pairs) and byte by byte", () => {
    for (const source of [BUILTINS, SMALL]) {
      for (const text of samples) {
        checkEverySplit(source, Buffer.from(text), 3);
      }
    }
  });

  it("holds on random mixes of wrapped secrets, plain base64, padding and text", () => {
    const piece = fc.constantFrom(
      b64(`GITHUB_TOKEN=${GHP}`),
      b64url(`{"auth":"${b64("ci:Zx9Qw8Er7Ty6Ui5O")}"}`),
      b64(`acme_Zx9Qw8Er7Ty6 ${"filler ".repeat(5)}`),
      b64("ordinary text that is not a secret"),
      Buffer.alloc(30, 200).toString("base64"),
      GHP,
      "token=",
      "=",
      "==",
      " ",
      "\n",
      "AbC9",
      "-_",
      "é",
    );
    const text = fc.array(piece, { minLength: 1, maxLength: 14 }).map((ps) => ps.join(""));
    fc.assert(
      fc.property(
        text,
        fc.array(fc.integer({ min: 1, max: 600 }), { maxLength: 24 }),
        fc.boolean(),
        (t, cuts, small) => {
          const input = Buffer.from(t);
          const source = small ? SMALL : BUILTINS;
          checkRedactor(source, input, splitAt(input, cuts));
          // No 8-byte piece of a wrapped secret's whole encoded run survives (window 8192).
          const out = redactText(t, BUILTINS);
          const encoded = b64(`GITHUB_TOKEN=${GHP}`);
          if (t.includes(` ${encoded} `)) checkNoSecretPiece(out, encoded);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("never emits a byte of a wrapped secret's run before the decision (prefix exposure)", () => {
    const encoded = b64(`GITHUB_TOKEN=${GHP}`);
    checkPrefixExposure(
      BUILTINS,
      `before ${encoded} after`,
      encoded,
      "before [REDACTED:base64] after",
    );
  });
});
