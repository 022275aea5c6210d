import { describe, expect, it } from "vitest";
import { compileRedaction } from "../src/compile-redaction.js";
import { PROVIDER_FORMATS } from "../src/provider-catalogue.js";
import { checksumValid, providerSamples, seededRandom } from "../src/provider-samples.js";
import { redactText } from "../src/redact-text.js";
import { checkNoSecretPiece, checkRedaction } from "../src/testing.js";

const compiled = compileRedaction();
const redact = (text: string) => redactText(text, compiled);
const random = seededRandom(7);
/** [rule, token] for every prefix of every format. */
const SAMPLES = PROVIDER_FORMATS.flatMap((format) =>
  providerSamples(format, random).map((s) => [format.rule, s.text, format, s.secret] as const),
);

describe("provider catalogue", () => {
  it.each(SAMPLES.map(([rule, token, , secret]) => [rule, token, secret]))(
    "%s: removes %s bare, in an assignment and quoted",
    (rule, token, secret) => {
      for (const text of [`${token}`, `use ${token} now`, `X=${token}\n`, `"v": "${token}"`]) {
        const output = redact(text);
        expect(output).toContain(`[REDACTED:${rule}`);
        // A marker may spell the vendor's name, which the prefix also holds.
        checkNoSecretPiece(output.replace(/\[REDACTED:[^\]]*\]/g, "\0"), secret);
      }
    },
  );

  it("keeps a place-naming prefix readable", () => {
    const key = `AccountKey=${"Ab3+".repeat(21)}AA==`;
    // A connection string's next key stays too (a `;` alone may be the key's own byte).
    expect(redact(`x;${key};EndpointSuffix=core.windows.net`)).toBe(
      "x;AccountKey=[REDACTED:azure-storage-key];EndpointSuffix=core.windows.net",
    );
  });

  it("gives checksummed formats a valid checksum", () => {
    const summed = SAMPLES.filter(([, , f]) => f.checksum !== undefined);
    expect(summed.length).toBeGreaterThan(0);
    for (const [, token, format] of summed) {
      const prefix = format.prefixes.find((p) => token.startsWith(p))!;
      expect(checksumValid(token, prefix)).toBe(true);
      expect(checksumValid(`${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`, prefix)).toBe(
        false,
      );
    }
  });

  it("passes the SPEC §5 property check for a token of every family", () => {
    const seen = new Set<string>();
    for (const [, token, format, secret] of SAMPLES) {
      if (seen.has(format.family)) continue;
      seen.add(format.family);
      // The prefix is public (markers may spell it); the body after it is the secret.
      const prefix = format.prefixes.find((p) => secret.startsWith(p)) ?? "";
      const body = secret.slice(prefix.length);
      checkRedaction(compiled, { secrets: [{ text: token, secret: body }], numRuns: 4 });
    }
  });
});
