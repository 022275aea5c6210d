import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isSpoolError } from "@spool/core";
import { describe, expect, it } from "vitest";
import { compileRedaction } from "../src/compile-redaction.js";
import {
  knownValueForms,
  knownValuesFromEnv,
  knownValuesFromFile,
  MIN_KNOWN_VALUE_BYTES,
  parseKnownValues,
} from "../src/known-values.js";
import { redactText } from "../src/redact-text.js";
import { createRedactor } from "../src/redactor.js";
import { checkNoSecretPiece, checkRedaction } from "../src/testing.js";

const SECRET = "p@ss w0rd/with'quote\"and$dollar";

describe("known values", () => {
  const compiled = compileRedaction({
    knownValues: [{ value: SECRET, name: "env:DEPLOY_KEY" }],
    builtins: false,
  });
  const redact = (text: string) => redactText(text, compiled);

  it("matches base64 at every byte shift inside a longer blob, both alphabets, padding trimmed", () => {
    for (const prefix of ["", "x", "xy", "xyz", "wxyz"]) {
      for (const suffix of ["", "!", "!!", "!!!"]) {
        const blob = Buffer.from(`${prefix}${SECRET}${suffix}`);
        for (const encoded of [blob.toString("base64"), blob.toString("base64url")]) {
          // The encoded forms alone (base64 decoding off)…
          const redactor = createRedactor(compiled, { decodeBase64: false });
          const text = Buffer.from(`data: ${encoded} end`);
          const out = Buffer.concat([...redactor.push([text]), ...redactor.end()]).toString();
          expect(out, `${prefix}|${suffix}`).toContain("[REDACTED:env:DEPLOY_KEY]");
          checkNoSecretPiece(out, Buffer.from(SECRET).toString("base64").slice(4, -4), 12);
          // …and with decoding, the whole run goes, the edge characters included.
          expect(redact(`data: ${encoded} end`)).toMatch(
            /^data: \[REDACTED:(base64|env:DEPLOY_KEY)\] end$/,
          );
        }
      }
    }
  });

  it("matches URL-encoded, JSON-escaped and shell-quoted forms", () => {
    const forms = [
      encodeURIComponent(SECRET),
      JSON.stringify(SECRET).slice(1, -1),
      `'${SECRET.replaceAll("'", "'\\''")}'`,
      `"${SECRET.replace(/[\\"$`]/g, "\\$&")}"`,
    ];
    for (const form of forms)
      expect(redact(`value ${form} end`)).toMatch(/^value .*\[REDACTED:env:DEPLOY_KEY\].* end$/);
    expect(knownValueForms(SECRET)[0]).toBe(SECRET);
  });

  it("matches a multi-line value across whatever whitespace run stands for its line breaks", () => {
    const pem = compileRedaction({
      knownValues: ["line-one-of-secret\nline-two-of-secret"],
      builtins: false,
    });
    for (const gap of ["\n", "\r\n", " ", "\n        ", "\t \t"]) {
      expect(redactText(`x line-one-of-secret${gap}line-two-of-secret y`, pem)).toBe(
        "x [REDACTED:known-value] y",
      );
    }
  });

  it("refuses values too short to redact safely, without echoing them", () => {
    for (const value of ["", "   ", "Zq9!x", "1234567"]) {
      let error: unknown;
      try {
        compileRedaction({
          knownValues: [{ value, source: "environment variable SHORT (--redact-env)" }],
        });
      } catch (e) {
        error = e;
      }
      expect(isSpoolError(error, "SPOOL_E_REDACT_VALUE")).toBe(true);
      const message = (error as Error).message;
      expect(message).toContain("SHORT");
      expect(message).toContain(`${MIN_KNOWN_VALUE_BYTES} bytes`);
      if (value.trim() !== "") expect(message).not.toContain(value);
    }
    expect(() => compileRedaction({ knownValues: ["x".repeat(3000)], window: 4096 })).toThrow(
      /window/,
    );
  });

  it("reads --redact-env values and names their rule after the variable", () => {
    const env = { API_TOKEN: "tok-0123456789", SHORT: "abc" };
    const values = knownValuesFromEnv(["API_TOKEN"], env);
    expect(values).toEqual([
      {
        value: "tok-0123456789",
        name: "env:API_TOKEN",
        source: "environment variable API_TOKEN (--redact-env)",
      },
    ]);
    expect(redactText("use tok-0123456789", { knownValues: values })).toBe(
      "use [REDACTED:env:API_TOKEN]",
    );
    expect(() => knownValuesFromEnv(["MISSING"], env)).toThrow(
      /MISSING \(--redact-env\) is not set/,
    );
    expect(() => knownValuesFromEnv(["SHORT"], env)).toThrow(/only 3 bytes/);
    expect(() => knownValuesFromEnv(["SHORT"], env)).not.toThrow(/abc/);
  });

  it("reads --redact-file values, one per line, skipping blank lines", async () => {
    const dir = await mkdtemp(join(tmpdir(), "spool-known-"));
    const file = join(dir, "secrets.txt");
    await writeFile(file, "first-secret-value\r\n\nsecond-secret-value\n");
    const values = await knownValuesFromFile(file);
    expect(values.map((v) => v.value)).toEqual(["first-secret-value", "second-secret-value"]);
    expect(
      redactText("a first-secret-value b second-secret-value", {
        knownValues: values,
        builtins: false,
      }),
    ).toBe("a [REDACTED:known-value] b [REDACTED:known-value]");
    expect(() => parseKnownValues("good-secret-value\ntiny\n", "f.txt")).toThrow(
      /line 2 of f\.txt is only 4 bytes/,
    );
    await expect(knownValuesFromFile(join(dir, "missing.txt"))).rejects.toThrow(
      /cannot read --redact-file/,
    );
  });

  it("handles 1,000 known values in one automaton and keeps SPEC §5 with them", () => {
    const secrets = Array.from(
      { length: 1000 },
      (_, i) => `secret-${i.toString(36).padStart(4, "0")}-${(i * 7919).toString(16)}`,
    );
    const many = compileRedaction({ knownValues: secrets });
    expect(redactText(`a ${secrets[0]} b ${secrets[999]} c`, many)).toBe(
      "a [REDACTED:known-value] b [REDACTED:known-value] c",
    );
    checkRedaction(many, {
      secrets: [secrets[5]!, secrets[500]!, Buffer.from(`xy${secrets[77]}`).toString("base64")],
      numRuns: 40,
    });
  });
});
