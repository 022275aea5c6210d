import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { Receipt } from "@spool/core";
import { describe, expect, it } from "vitest";
import { nodeCmd, runJson, spool, tempRoot } from "./helpers.js";

const SECRET = `ghp_${"A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"}`; // ghp_ + 36

/** Every 8-character piece of the secret after its well-known prefix. */
const pieces = (secret: string) =>
  Array.from({ length: secret.length - 4 - 7 }, (_, i) => secret.slice(4 + i, 12 + i));

function leaks(text: string | Buffer): string[] {
  const s = text.toString();
  return pieces(SECRET).filter((p) => s.includes(p));
}

describe("redaction through the CLI", () => {
  it("a token written across three writes with pauses never shows a piece: live file, final file, receipt, preview, logs", async () => {
    const root = tempRoot();
    const log = path.join(root, "spool.log");
    const parts = [
      `token=${SECRET.slice(0, 14)}`,
      SECRET.slice(14, 27),
      `${SECRET.slice(27)}\nafter\n`,
    ];
    // The parts reach the child through its environment, so the command line (the label)
    // holds no piece of the secret: argv secrets are what --no-label is for. Between writes
    // the child waits for the test: it creates GATE.wroteN once part N is written, and
    // writes the next part once the test has sampled and created GATE.goN.
    const gate = path.join(root, "gate");
    const script =
      "const fs = require('fs'); const parts = JSON.parse(process.env.PARTS); const gate = process.env.GATE; let i = 0; const next = () => process.stdout.write(parts[i++], () => { if (i === parts.length) return; fs.writeFileSync(gate + '.wrote' + i, ''); const t = setInterval(() => { if (fs.existsSync(gate + '.go' + i)) { clearInterval(t); next(); } }, 20); }); next();";
    const started = spool(["start", "--root", root, "--log", log, "--", ...nodeCmd(script)], {
      PARTS: JSON.stringify(parts),
      GATE: gate,
    });
    expect(started.status).toBe(0);
    const launch = JSON.parse(started.stdout.toString()) as Receipt;
    const dir = path.join(root, "tool-outputs", launch.captureId);
    const live = path.join(dir, "stdout.live");
    let samples = 0;
    const sample = () => {
      if (existsSync(live)) {
        expect(leaks(readFileSync(live))).toEqual([]);
        samples++;
      }
      const read = spool(["read", "--root", root, launch.captureId]);
      expect(leaks(read.stdout)).toEqual([]);
    };
    const until = async (file: string) => {
      for (let i = 0; i < 3000 && !existsSync(file); i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(existsSync(file), file).toBe(true);
    };
    // Sample the live file and `spool read` while the child waits after each part but the
    // last (the live file appears once the job's writer has opened it).
    for (let i = 1; i < parts.length; i++) {
      await until(`${gate}.wrote${i}`);
      await until(live);
      sample();
      writeFileSync(`${gate}.go${i}`, "");
    }
    // And until the job ends.
    while (!existsSync(path.join(dir, "receipt.json"))) {
      sample();
      if (samples > 2000) break;
    }
    expect(samples).toBeGreaterThan(0);
    const waited = spool(["wait", "--root", root, launch.captureId]);
    const receipt = JSON.parse(waited.stdout.toString()) as Receipt;
    expect(receipt.capture.state).toBe("complete");
    expect(receipt.streams.stdout.redactions).toBe(1);
    const final = readFileSync(path.join(root, receipt.streams.stdout.ref!));
    expect(final.toString()).toBe("token=[REDACTED:github-token]\nafter\n");
    for (const file of readdirSync(dir)) {
      const full = path.join(dir, file);
      if (file === "cursors") continue;
      expect(leaks(readFileSync(full)), file).toEqual([]);
    }
    expect(leaks(JSON.stringify(receipt))).toEqual([]);
    expect(leaks(readFileSync(log))).toEqual([]);
  });

  it("redacts the label, and known values from --redact-env and --redact-file in their encodings", () => {
    const root = tempRoot();
    const file = path.join(root, "secrets.txt");
    writeFileSync(file, "file-secret-value-42\n");
    const env = { DEPLOY_KEY: "env-secret-value-17" };
    const b64 = Buffer.from(env.DEPLOY_KEY).toString("base64");
    const r = spool(
      [
        "run",
        "--root",
        root,
        "--json",
        "--redact-env",
        "DEPLOY_KEY",
        "--redact-file",
        file,
        "--",
        "sh",
        "-c",
        `echo "$DEPLOY_KEY ${b64} file-secret-value-42 url=env%2Dsecret%2Dvalue%2D17"`,
        "--token",
        SECRET,
      ],
      env,
    );
    const receipt = JSON.parse(r.stdout.toString()) as Receipt;
    expect(receipt.preview.text).not.toContain("env-secret-value-17");
    expect(receipt.preview.text).not.toContain("file-secret-value-42");
    expect(receipt.preview.text).toContain("[REDACTED:env:DEPLOY_KEY]");
    expect(receipt.label).not.toContain(SECRET);
    // The value of a secret-named flag goes whatever its shape (the label's flag rule).
    expect(receipt.label).toContain("--token [REDACTED:command-flag]");
  });

  it("redacts the environment's credentials without being told, in their encodings, in the file, the preview and the label", () => {
    const root = tempRoot();
    // Named for a credential and shaped like one: a known value. The rest stays readable.
    const env = {
      DB_PASSWORD: "Hunt3r2-prod-db",
      APP_TOKEN_FILE: "/run/secrets/app-token-17",
      CACHE_PASSWORD: "postgres",
      BUILD_LABEL: "release-2024-q3",
    };
    const b64 = Buffer.from(env.DB_PASSWORD).toString("base64");
    const r = spool(
      [
        "run",
        "--root",
        root,
        "--json",
        "--",
        "sh",
        "-c",
        // Past the preview, so the output is stored in a file.
        `echo "pw $DB_PASSWORD b64 ${b64} url ${encodeURIComponent(env.DB_PASSWORD)} file $APP_TOKEN_FILE cache $CACHE_PASSWORD label $BUILD_LABEL"; seq 1 20000; echo >&2 "failed: $DB_PASSWORD"`,
        env.DB_PASSWORD,
      ],
      env,
    );
    expect(r.status).toBe(0);
    const receipt = JSON.parse(r.stdout.toString()) as Receipt;
    const stored = readFileSync(receipt.streams.stdout.path ?? "", "utf8");
    for (const text of [stored, receipt.preview.text, receipt.label ?? ""]) {
      expect(text).not.toContain(env.DB_PASSWORD);
      expect(text).not.toContain(b64);
    }
    expect(stored.split("\n")[0]).toBe(
      "pw [REDACTED:env:DB_PASSWORD] b64 [REDACTED:env:DB_PASSWORD] url [REDACTED:env:DB_PASSWORD] file /run/secrets/app-token-17 cache postgres label release-2024-q3",
    );
    expect(receipt.preview.text).toContain("failed: [REDACTED:env:DB_PASSWORD]");
    expect(receipt.label).toContain("[REDACTED:env:DB_PASSWORD]");
    expect(receipt.streams.stdout.redactions).toBe(3);
    // --no-redact turns it off with the rest.
    const raw = spool(
      ["run", "--root", root, "--no-redact", "--", "sh", "-c", "echo $DB_PASSWORD"],
      env,
    );
    expect(raw.stdout.toString()).toContain(env.DB_PASSWORD);
  });

  it("redacts the whole stdout of a command that prints a secret, line by line, and nothing of another's", () => {
    const root = tempRoot();
    // A stand-in for 1Password's CLI on PATH: `op read` prints the secret, plain as it is.
    const bin = path.join(root, "bin");
    mkdirSync(bin);
    writeFileSync(
      path.join(bin, "op"),
      '#!/bin/sh\nif [ "$1" = read ]; then printf "hunter2\\n\\nsecond line\\n"; else echo "ITEM  db"; fi\necho >&2 "op: done"\n',
      { mode: 0o755 },
    );
    const env = { PATH: `${bin}:${process.env.PATH}`, POSTGRES_PASSWORD: "postgres" };
    const read = spool(
      ["run", "--root", root, "--json", "--", "op", "read", "op://Private/db/password"],
      env,
    );
    const receipt = JSON.parse(read.stdout.toString()) as Receipt;
    expect(receipt.preview.text).toContain(
      "[REDACTED:command-output]\n\n[REDACTED:command-output]\n",
    );
    expect(receipt.preview.text).not.toContain("hunter2");
    expect(receipt.preview.text).toContain("op: done");
    expect(receipt.streams.stdout.redactions).toBe(2);
    // Another verb's output is read by the rules only.
    const list = spool(["run", "--root", root, "--", "op", "item", "list"], env);
    expect(list.stdout.toString()).toContain("ITEM  db");
    // A credential's variable printed: even a word, which the environment's values leave.
    const printed = spool(["run", "--root", root, "--", "printenv", "POSTGRES_PASSWORD"], env);
    expect(printed.stdout.toString()).toMatch(/^\[REDACTED:command-output\]\n/);
  });

  it("redacts a piped password and a credential setting in a command line shown, and a coloured token in JSON, in the output and the label", () => {
    const root = tempRoot();
    // A recipe as make prints it before running it, from a file; the label holds the same
    // command line.
    const recipe = [
      "echo 'Vq7pLm2x!Z9w' | docker login -u ci --password-stdin registry.example.com",
      "aws configure set aws_secret_access_key Vq7pLm2xZ9wR4tW6yZ3a",
      `{"text":"\\u001b[32m${SECRET}\\u001b[0m"}`,
    ].join("\n");
    const file = path.join(root, "recipe.txt");
    writeFileSync(file, `${recipe}\n`);
    const command = "echo 'Vq7pLm2x!Z9w' | sudo -S true 2>/dev/null; cat \"$0\"";
    const result = spool(["run", "--root", root, "--json", "--", "sh", "-c", command, file]);
    const receipt = JSON.parse(result.stdout.toString()) as Receipt;
    const all = `${receipt.label ?? ""}\n${receipt.preview.text}`;
    for (const secret of ["Vq7pLm2x!Z9w", "Vq7pLm2xZ9wR4tW6yZ3a", SECRET.slice(4, 20)])
      expect(all).not.toContain(secret);
    expect(receipt.label).toContain("echo '[REDACTED:piped-password]' | sudo -S true");
    expect(receipt.preview.text).toContain(
      "echo '[REDACTED:piped-password]' | docker login -u ci --password-stdin registry.example.com\n",
    );
    expect(receipt.preview.text).toMatch(
      /aws configure set aws_secret_access_key \[REDACTED:[a-z-]+\]\n/,
    );
    expect(receipt.preview.text).toContain(
      '{"text":"\\u001b[32m[REDACTED:github-token]\\u001b[0m"}',
    );
  });

  /** The preview of `spool run` over `cat` of a file holding `lines`. */
  const capturedPreview = (root: string, lines: readonly string[]): string => {
    const file = path.join(root, "out.txt");
    writeFileSync(file, `${lines.join("\n")}\n`);
    const result = spool(["run", "--root", root, "--json", "--", "cat", file]);
    return (JSON.parse(result.stdout.toString()) as Receipt).preview.text;
  };
  /** No piece of `secrets` is in `text`. */
  const expectNone = (text: string, secrets: readonly string[]): void => {
    for (const secret of secrets) expect(text).not.toContain(secret);
  };

  it("redacts every element of a list of secrets, AWS keys in the CLI's text rows, and a key's block cut short, keeping what follows each", () => {
    const root = tempRoot();
    const lines = [
      JSON.stringify({ api_keys: ["Vq7pLm2xZ9wR4tW6yZ3a", "Hm4kQ8wZ2pL6tR9yX3cB"], n: 1 }),
      "tokens:\n  prod: Nx5tW7qL3mZ9pR2kV8dF\n  staging: Jd6sF1gH4jK7lP0oI9uY\nnext: kept",
      "CREDENTIALS\tASIAQXK9MQ2ZLP7RTZ4W\t2026-12-07T13:00:00Z\twJa1rXUtnFEMI/K7MDENG/bPxRfiCYzX9mQ2vLp7Rt\tIQoJb3JpZ2luX2VjEHt5pW8sD1fG4hJ7kL0zX3cV6bN9mQ2aS5dF8gH1jK4lZ7xC0vB3nM6",
      "-----BEGIN PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq3b9Gx4fR2zXkWq0p8Yw1NfLc5vT3oHhJ9aQ2sD4fG6jK8\nline after the key stays",
    ];
    const text = capturedPreview(root, lines);
    expectNone(text, [
      "Hm4kQ8wZ2pL6tR9yX3cB",
      "Jd6sF1gH4jK7lP0oI9uY",
      "wJa1rXUtnFEMI",
      "IQoJb3JpZ2luX2VjEHt5",
      "7bq3b9Gx4fR2zXkW",
    ]);
    expect(text).toContain(
      '{"api_keys":["[REDACTED:secret-assignment]","[REDACTED:secret-assignment]"],"n":1}\n',
    );
    expect(text).toContain("  staging: [REDACTED:secret-assignment]\nnext: kept\n");
    expect(text).toContain(
      "\t2026-12-07T13:00:00Z\t[REDACTED:aws-credential-row]\t[REDACTED:aws-credential-row]\n",
    );
    expect(text).toContain("[REDACTED:pem-private-key]\nline after the key stays\n");
  });

  it("redacts an OAuth client id, an Azure account key across a wrapped literal, a value before its attribute's name and a dash-separated token, keeping what follows each", () => {
    const root = tempRoot();
    const key = `${"Zq8Hc3JfXk9mQ2vLp7RtZ4w2".repeat(3)}a+b/Xk9mQ2vLp7==`;
    const lines = [
      JSON.stringify({
        client_id: "318273645091-q7w2e9r4t1y6u3i8o5p0a2s7d4f9g1h6.apps.googleusercontent.com",
        n: 1,
      }),
      `export const key =\n  process.env.STORAGE_ACCOUNT_KEY ||\n  "${key}"; next();`,
      '<add value="Wp4!zQ8rLm2x" key="DbPassword"/><kept/>',
      "okta token - 'Jq4vN8xT2mW6zK9pR3sY7bL5' kept",
    ];
    const text = capturedPreview(root, lines);
    expectNone(text, ["q7w2e9r4t1y6u3i8", "Zq8Hc3JfXk9mQ2vL", "Wp4!zQ8rLm2x", "Jq4vN8xT2mW6zK9p"]);
    expect(text).toContain(
      '{"client_id":"[REDACTED:google-oauth-client-id].apps.googleusercontent.com","n":1}\n',
    );
    expect(text).toContain('||\n  "[REDACTED:azure-storage-key]"; next();\n');
    expect(text).toContain('<add value="[REDACTED:secret-assignment]" key="DbPassword"/><kept/>\n');
    expect(text).toContain("okta token - '[REDACTED:secret-assignment]' kept\n");
  });

  it("redacts a getter's returned literal, a shell array's elements, a plural's dictionary, a password holding a $, a fallback literal, a cloud store's new secret and a SASL response, keeping what follows each", () => {
    const root = tempRoot();
    const lines = [
      'func getApiKey() string { return "Tq2wE9rY5uI1oP7aS3dF" } // kept',
      'TOKENS=("Gh8jK4lZ6xC2vB9nM1qW" "Rk3mN7bV1cX5zL9aS2dF") && kept',
      'API_KEYS = {"prod": "Pm6nB2vC8xZ4lK1jH7gF", "dev": "Wd5sA9qE3rT7yU1iO4pL"} # kept',
      "machine api.example.com login bob password Pa$$w0rd9x",
      "kept",
      'export const API_KEY = process.env.API_KEY ?? "Yx4cV8bN2mQ6wE1rT5yU"; // kept',
      "az keyvault secret set --vault-name v --name db --value Hz3xC7vB1nM5qW9eR2tY --output none",
      "send: 'AUTH PLAIN AGJvYgBIejN4QzdWQjFuTTVxVzllUjJ0WQ==\\r\\n'",
    ];
    const text = capturedPreview(root, lines);
    expectNone(text, [
      "Tq2wE9rY5uI1oP7a",
      "Gh8jK4lZ6xC2vB9n",
      "Rk3mN7bV1cX5zL9a",
      "Pm6nB2vC8xZ4lK1j",
      "Wd5sA9qE3rT7yU1i",
      "Pa$$w0rd9x",
      "Yx4cV8bN2mQ6wE1r",
      "Hz3xC7vB1nM5qW9e",
      "AGJvYgBIejN4QzdW",
    ]);
    expect(text).toContain('process.env.API_KEY ?? "[REDACTED:secret-assignment]"; // kept\n');
    expect(text).toContain("--value [REDACTED:command-flag] --output none\n");
    expect(text).toContain("send: 'AUTH PLAIN [REDACTED:sasl-plain]\\r\\n'\n");
    expect(text).toContain('{ return "[REDACTED:secret-assignment]" } // kept\n');
    expect(text).toContain(
      'TOKENS=("[REDACTED:secret-assignment]" "[REDACTED:secret-assignment]") && kept\n',
    );
    expect(text).toContain('"dev": "[REDACTED:secret-assignment]"} # kept\n');
    expect(text).toContain("login bob password [REDACTED:secret-assignment]\nkept\n");
  });

  it("redacts --redact-file and --redact-env values percent-encoded strictly, as hex and JSON-escaped, in the file and the label", () => {
    const root = tempRoot();
    const file = path.join(root, "secrets.txt");
    const fileValue = "p@ss w0rd/x!y(z)*é";
    writeFileSync(file, `unrelated-value-1\n${fileValue}\nunrelated-value-2\n`);
    const env = { API_PASSWORD: "env's (secret)!~value" };
    // As curl --data-urlencode, Go's url.QueryEscape and Python's quote(safe='') write them.
    const strict = (v: string) =>
      encodeURIComponent(v).replace(
        /[!'()*]/g,
        (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
      );
    const lowerHex = (v: string) => v.replace(/%[0-9A-F]{2}/g, (x) => x.toLowerCase());
    const asciiJson = (v: string) =>
      JSON.stringify(v)
        .slice(1, -1)
        .replaceAll("/", "\\/")
        .replace(
          /[\u0080-\uffff]/g,
          (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
        );
    const forms = [fileValue, env.API_PASSWORD].flatMap((v) => [
      strict(v),
      lowerHex(strict(v)).replaceAll("%20", "+"),
      Buffer.from(v).toString("hex"),
      Buffer.from(v).toString("hex").toUpperCase(),
      asciiJson(v),
    ]);
    const script = forms.map((form) => `console.log(${JSON.stringify(`v=${form}`)});`).join("");
    const r = spool(
      [
        "run",
        "--root",
        root,
        "--json",
        "--redact-file",
        file,
        "--redact-env",
        "API_PASSWORD",
        "--label",
        `deploy ${strict(fileValue)}`,
        "--",
        ...nodeCmd(script),
      ],
      env,
    );
    const receipt = JSON.parse(r.stdout.toString()) as Receipt;
    // Output this short is kept inline: the preview is all of it.
    const stored = receipt.preview.text;
    expect(receipt.streams.stdout.lines).toBe(forms.length);
    for (const form of forms) expect(stored).not.toContain(form);
    expect(stored.match(/\[REDACTED:(known-value|env:API_PASSWORD)\]/g)?.length).toBe(forms.length);
    expect(receipt.label).toBe("deploy [REDACTED:known-value]");
  });

  it("--no-redact keeps the bytes as they are and --keep-ansi keeps colour codes", () => {
    const root = tempRoot();
    const plain = runJson(
      root,
      ["sh", "-c", `printf 'token=${SECRET} \\033[31mred\\033[0m\\n'`],
      ["--no-redact", "--keep-ansi"],
    );
    // The preview escapes the ESC (safe for a terminal); the stored file keeps the codes.
    expect(plain.receipt.preview.text).toBe(`token=${SECRET} \\x1b[31mred\\x1b[0m\n`);
    expect(readFileSync(plain.receipt.streams.stdout.path!, "utf8")).toBe(
      `token=${SECRET} \u001b[31mred\u001b[0m\n`,
    );
    expect(plain.receipt.streams.stdout.transforms).toEqual([]);
    const cleaned = runJson(root, ["sh", "-c", `printf 'token=${SECRET} \\033[31mred\\033[0m\\n'`]);
    expect(cleaned.receipt.preview.text).toBe("token=[REDACTED:github-token] red\n");
    expect(cleaned.receipt.streams.stdout.transforms).toEqual(["ansi-strip", "redact"]);
  });

  it("refuses a known value too short to redact safely, or an unset variable, with one line and exit 64", () => {
    const root = tempRoot();
    const short = spool(["run", "--root", root, "--redact-env", "SHORTV", "--", "true"], {
      SHORTV: "abc",
    });
    expect(short.status).toBe(64);
    expect(short.stderr).not.toContain("abc");
    expect(short.stderr.trim().split("\n")).toHaveLength(1);
    // A root that does not exist yet is not created for a refused command.
    const unset = spool([
      "run",
      "--root",
      path.join(root, "not-yet"),
      "--redact-env",
      "SPOOL_TEST_UNSET_VAR",
      "--",
      "true",
    ]);
    expect(unset.status).toBe(64);
    expect(readdirSync(root)).toEqual([]);
  });
});

describe("--binary keep stores raw bytes (issue 29)", () => {
  /** `bytes` of seeded xorshift noise: the same every run. */
  function noise(bytes: number): Buffer {
    const out = Buffer.alloc(bytes);
    let x = 0x2545f491;
    for (let i = 0; i < bytes; i += 4) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      out.writeInt32LE(x | 0, i);
    }
    return out;
  }

  it("the file is the child's bytes but for named values; the preview still meets every rule", () => {
    const root = tempRoot();
    const known = "MYSECRETVALUE123";
    // Noise, with the text shapes the rules look for (as random bytes form them by chance:
    // 21-25 `PW=`-style rewrites per 50 MB before) and a value named by --redact-env.
    const shapes = Buffer.from(` PW=q8Zr!x2Lm0Pw token=${SECRET} ${known} `);
    const input = Buffer.concat([noise(64), shapes, noise(512)]);
    const file = path.join(root, "input.bin");
    writeFileSync(file, input);
    const keep = spool(
      [
        "run",
        "--root",
        root,
        "--json",
        "--binary",
        "keep",
        "--redact-env",
        "MYSEC",
        "--",
        "cat",
        file,
      ],
      { MYSEC: known },
    );
    expect(keep.status, keep.stderr).toBe(0);
    const receipt = JSON.parse(keep.stdout.toString()) as Receipt;
    const stored = readFileSync(receipt.streams.stdout.path!);
    // Before: the shapes (and chance shapes in the noise) were rewritten in the file.
    const marker = Buffer.from("[REDACTED:env:MYSEC]");
    const expected = Buffer.concat([
      input.subarray(0, input.indexOf(known)),
      marker,
      input.subarray(input.indexOf(known) + known.length),
    ]);
    expect(stored.equals(expected)).toBe(true);
    expect(receipt.streams.stdout.redactions).toBe(1);
    // The preview is text a model reads (it shows these, near the start): every rule applies.
    expect(receipt.preview.text).toContain("PW=[REDACTED:secret-assignment]");
    expect(receipt.preview.text).not.toContain("q8Zr!x2Lm0Pw");
    expect(leaks(receipt.preview.text)).toEqual([]);
    expect(receipt.preview.text).not.toContain(known);
  });

  it("16 MiB of noise is stored byte for byte", () => {
    const root = tempRoot();
    const input = noise(16 << 20);
    const file = path.join(root, "noise.bin");
    writeFileSync(file, input);
    const limits = ["--max-bytes", "1GiB", "--root-quota", "1GiB", "--stall-ms", "60000"];
    const r = spool([
      "run",
      "--root",
      root,
      "--json",
      "--binary",
      "keep",
      ...limits,
      "--",
      "cat",
      file,
    ]);
    expect(r.status, r.stderr).toBe(0);
    const receipt = JSON.parse(r.stdout.toString()) as Receipt;
    expect(receipt.capture.state).toBe("complete");
    expect(receipt.streams.stdout.redactions).toBe(0);
    expect(readFileSync(receipt.streams.stdout.path!).equals(input)).toBe(true);
  });
});
