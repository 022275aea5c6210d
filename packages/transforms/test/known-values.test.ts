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
  knownValuesOfEnvSecrets,
  MAX_ENV_VALUES,
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

describe("the environment's credentials", () => {
  const names = (env: Record<string, string>) =>
    knownValuesOfEnvSecrets(env).map((value) => value.name);

  it.each([
    ["GITHUB_TOKEN", "ghp_Zq8vLm2xQw9rTy6uPo3iZq8vLm2xQw9rTy6u"],
    ["OPENAI_API_KEY", "sk-proj-Zq8vLm2xQw9r"],
    ["AWS_SECRET_ACCESS_KEY", "Zq8vLm2xQw9rTy6uPo3iZq8vLm2xQw9rTy6uPo3i"],
    ["DB_PASSWORD", "Hunt3r2-prod"],
    ["db.password", "Hunt3r2-prod"],
    ["SMTP_PASS", "Hunt3r2-prod"],
    ["npm_config__authtoken", "Zq8v-Lm2x-Qw9r"],
    ["CI_JOB_TOKEN", "glcbt-Zq8vLm2xQw9r"],
    ["STRIPE_PRIVATE_KEY", "rk_live_Zq8vLm2x"],
    ["GOOGLE_CREDENTIALS", '{"type":"service_account"}'],
    ["PGPASSWORD", "Hunt3r2-prod"],
    ["MYSQL_PWD", "Hunt3r2-prod"],
    ["SSHPASS", "Hunt3r2-prod"],
    ["BW_SESSION", "Zq8vLm2xQw9rTy6uPo3i=="],
  ])("takes %s", (name, value) => {
    expect(knownValuesOfEnvSecrets({ [name]: value })).toEqual([
      { value, name: `env:${name}`, source: `environment variable ${name}` },
    ]);
  });

  it.each([
    // Not named for a credential, or named for something else beside it.
    ["HOME", "/home/me/Zq8vLm2x"],
    ["BUILD_ID", "Zq8vLm2xQw9r"],
    ["SSH_AUTH_SOCK", "/tmp/ssh-Zq8v/agent.1"],
    ["GIT_ASKPASS", "Zq8vLm2xQw9r-helper"],
    ["PWD", "Zq8vLm2xQw9r"],
    ["OLDPWD", "Zq8vLm2xQw9r"],
    ["NO_BYPASS", "Zq8vLm2xQw9r"],
    ["CACHE_KEY", "Zq8vLm2xQw9r"],
    ["API_TOKEN_FILE", "Zq8vLm2xQw9r"],
    ["VAULT_TOKEN_TTL", "3600s-Zq8v"],
    ["OAUTH_TOKEN_URL", "Zq8vLm2xQw9r"],
    // Not shaped like one: a word, a number, short, a path, a URL without a password, a
    // placeholder, a phrase.
    ["POSTGRES_PASSWORD", "postgres"],
    ["PIN_PASSWORD", "12345678"],
    ["DB_PASSWORD", "pw-1"],
    ["GOOGLE_APPLICATION_CREDENTIALS", "/etc/gcp/key-1.json"],
    ["AUTH_TOKEN", "https://auth.example.com/token"],
    ["API_TOKEN", "${API_TOKEN}"],
    ["API_TOKEN", "<your-token-1>"],
    ["DB_PASSWORD", "correct horse 7 staple"],
  ])("leaves %s=%s", (name, value) => {
    expect(knownValuesOfEnvSecrets({ [name]: value })).toEqual([]);
  });

  it("takes values that fit the window only, and at most MAX_ENV_VALUES", () => {
    const long = `Zq8v${"x1".repeat(5000)}`;
    expect(knownValuesOfEnvSecrets({ DB_PASSWORD: long }, 8192)).toEqual([]);
    const many = Object.fromEntries(
      Array.from({ length: MAX_ENV_VALUES + 5 }, (_, i) => [`T${i}_TOKEN`, `Zq8vLm2x-${i}`]),
    );
    expect(names(many)).toHaveLength(MAX_ENV_VALUES);
  });

  it("redacts each value wherever it appears, named for its variable", () => {
    const compiled = compileRedaction({
      knownValues: knownValuesOfEnvSecrets({ DB_PASSWORD: "Hunt3r2-prod", HOME: "/home/me" }),
    });
    const b64 = Buffer.from("Hunt3r2-prod").toString("base64");
    expect(redactText(`connect Hunt3r2-prod ${b64} /home/me`, compiled)).toBe(
      "connect [REDACTED:env:DB_PASSWORD] [REDACTED:env:DB_PASSWORD] /home/me",
    );
  });
});
