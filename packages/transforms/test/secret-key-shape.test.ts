import { describe, expect, it } from "vitest";
import { compileRedaction } from "../src/compile-redaction.js";
import { seededRandom } from "../src/provider-samples.js";
import { redactText } from "../src/redact-text.js";
import { createRedactor } from "../src/redactor.js";
import { tokenRule } from "../src/rules/token-rule.js";
import { hasSecretKeyShape } from "../src/secret-key-shape.js";
import { checkRedaction } from "../src/testing.js";
import { checkEverySplit, checkPrefixExposure, checkRandomMixes } from "./every-split.js";

const compiled = compileRedaction();
const redact = (text: string) => redactText(text, compiled);
const MARKER = "[REDACTED:aws-secret-access-key]";
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
/** AWS's documentation example and three of the corpus' random keys. */
const KEYS = [
  "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  "pqiRDNgN/9sbVuoxveC2B/JZfNK+/72vXERNKyio",
  "uiBQ7IvrhfsKWVADKnyXg17xof8KirfWfBRAnpWN",
  "UQX/qWIZieFMYdBkYhQTUytElN4kB1prHQTXOxSv",
];

function randomKey(random: () => number): string {
  let key = "";
  for (let i = 0; i < 40; i++) key += ALPHABET[Math.floor(random() * 64)];
  return key;
}

describe("a bare AWS secret access key, by its shape", () => {
  it("is redacted alone on a line, in a sentence, quoted, in JSON and at the end of input", () => {
    for (const key of KEYS) {
      expect(redact(`${key}\n`)).toBe(`${MARKER}\n`);
      expect(redact(key)).toBe(MARKER);
      expect(redact(`using ${key} for s3`)).toBe(`using ${MARKER} for s3`);
      expect(redact(`'${key}'`)).toBe(`'${MARKER}'`);
      expect(redact(`{"k": "${key}"}`)).toBe(`{"k": "${MARKER}"}`);
    }
  });

  it("is not a wrapped block's last line (a certificate's 64 characters a line, MIME's 76)", () => {
    const random = seededRandom(7);
    const line = (n: number) => randomKey(random).repeat(2).slice(0, n);
    for (const width of [64, 76]) {
      for (const eol of ["\n", "\r\n"]) {
        const body = [line(width), line(width), KEYS[2]!].join(eol);
        const block = `-----BEGIN CERTIFICATE-----${eol}${body}${eol}-----END CERTIFICATE-----${eol}`;
        expect(redact(block)).toBe(block);
        checkEverySplit(compiled, Buffer.from(block), 13);
      }
    }
    // After a line of another width, or not right after a whole line of one, it is a key.
    for (const text of [
      `${line(63)}\n${KEYS[2]}\n`,
      `${line(64)}\n\n${KEYS[2]}\n`,
      `${line(64)} x\n${KEYS[2]}\n`,
    ])
      expect(redact(text)).toContain(`\n${MARKER}\n`);
  });

  it("catches at least 99% of random keys (measured: 99.55%, scripts/secret-key-shape.mjs)", () => {
    const random = seededRandom(13);
    let caught = 0;
    for (let k = 0; k < 2000; k++) if (redact(`${randomKey(random)}\n`) === `${MARKER}\n`) caught++;
    expect(caught).toBeGreaterThanOrEqual(1980);
  });

  it("leaves digests, ids, identifiers, paths and base64 of text alone", () => {
    const random = seededRandom(5);
    const hex = () =>
      randomKey(random)
        .replace(/[^a-f0-9]/g, "0")
        .slice(0, 40);
    const benign = [
      `commit ${hex()} (HEAD -> main)`,
      `github.com/x/y v1.2.3 h1:${Buffer.from(hex() + hex().slice(0, 24), "hex").toString("base64")}`,
      `integrity sha512-${Buffer.alloc(64, 0x9c).toString("base64")}`,
      `msg ${Buffer.from("Patience is the key to success").toString("base64")}`,
      "see developer.mozilla.org/docs/Web/API/DOMMatrixReadOnly/scale",
      "defs/RuleWithNoArraySortForMinMaxOptions",
      // A URL's path from its host's last label (the run would pass the shape alone).
      "see https://acme.slack.com/archives/C7QZKRW2M/p1712345678901234 for it",
      // …and a home directory's (`~user/…`).
      "https://x.edu/~ann/VIGRE/VIGRE2011/REUPapers/Kowalski2a.pdf",
      `repeat ${"Ab3+".repeat(10)}`,
      // 40 characters then `=` padding is the base64 of 29 bytes, not a key.
      `${KEYS[1]!.slice(0, 39)}A= x`,
    ];
    for (const line of benign) expect(redact(line)).toBe(line);
  });

  it("takes runs of exactly 40 characters of A-Za-z0-9+/ only", () => {
    const key = KEYS[1]!;
    for (const line of [`${key}Q`, `x_${key}`, `${key}-y`, key.slice(1), `${key}=`]) {
      expect(redact(line)).toBe(line);
    }
    expect(redact(`a.${key}.b`)).toBe(`a.${MARKER}.b`);
  });

  it("is a built-in: off without the built-ins and when base64 runs are not scanned", () => {
    const acme = tokenRule({ name: "acme", prefixes: ["acme_"], body: "a-z", minBody: 8 });
    expect(redactText(KEYS[1]!, compileRedaction({ builtins: false, rules: [acme] }))).toBe(
      KEYS[1],
    );
    const redactor = createRedactor(compiled, { decodeBase64: false });
    const out = Buffer.concat([...redactor.push([Buffer.from(KEYS[1]!)]), ...redactor.end()]);
    expect(out.toString()).toBe(KEYS[1]);
  });

  it("tests the shape on its own: case, digits, entropy, word runs, padding", () => {
    const at = (s: string, next = -1) => hasSecretKeyShape(Buffer.from(s), 0, next);
    expect(at(KEYS[0]!)).toBe(true);
    expect(at(KEYS[0]!, 0x3d)).toBe(false);
    expect(at(KEYS[0]!.toLowerCase())).toBe(false);
    expect(at(KEYS[0]!.replace(/[0-9]/g, "x"))).toBe(false);
    expect(at("xmlSecOpenSSLTransformHmacSha256GetKlass")).toBe(true); // the measured false alarm
    expect(at("abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123")).toBe(false); // a 26-letter word run
  });
});

describe("a bare AWS secret access key: SPEC §5", () => {
  const samples = [
    `key ${KEYS[0]}\nnext ${KEYS[2]}`,
    `${KEYS[1]}= not a key, ${KEYS[3]}`,
    `x_${KEYS[2]} then '${KEYS[3]}'`,
  ];

  it("holds for every split into at most three pieces and byte by byte", () => {
    for (const text of samples) {
      checkEverySplit(compiled, Buffer.from(text), 5);
    }
  });

  it("never emits a byte of the key before the decision (prefix exposure)", () => {
    const key = KEYS[2]!;
    checkPrefixExposure(compiled, `before ${key} after`, key, `before ${MARKER} after`);
  });

  it("holds embedded in random text and contexts, randomly split", () => {
    checkRedaction(compiled, { secrets: KEYS.slice(1), numRuns: 60 });
  });

  it("holds on random mixes of keys, near misses and padding", () => {
    const pieces = [...KEYS, KEYS[1]!.slice(3), "=", "==", " ", "\n", "-", "Q", "é"];
    checkRandomMixes(compiled, pieces, { maxPieces: 10, maxCut: 400, maxCuts: 16, numRuns: 200 });
  });
});
