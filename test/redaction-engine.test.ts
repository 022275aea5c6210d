/**
 * The redaction engine through the built `spool` binary, on the cases that used to fail:
 * tokens right after a string escape, matches that ate the rest of a line, text that only
 * looks like a token, and the receipt's byte accounting.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { Receipt } from "@spool/core";
import { describe, expect, it } from "vitest";
import { runJson, tempRoot } from "./helpers.js";

/** Lines after the text, so the output is spooled rather than kept inline. */
const PADDING = Array.from({ length: 4000 }, (_, i) => `padding line ${i}\n`).join("");

/** `spool run --json -- cat FILE` of `text` + {@link PADDING}: the receipt and the stored stdout. */
function capture(text: string): { receipt: Receipt; stored: string } {
  const root = tempRoot();
  const file = path.join(root, "input.txt");
  writeFileSync(file, text + PADDING);
  const { receipt, status } = runJson(root, ["cat", file], ["--max-bytes", "64MiB"]);
  expect(status).toBe(0);
  const ref = receipt.streams.stdout.ref;
  expect(ref).not.toBeNull();
  const stored = readFileSync(path.join(root, ref!), "utf8");
  expect(stored.endsWith(PADDING)).toBe(true);
  return { receipt, stored };
}

// Fake tokens of real shapes, built here (prefix + body) so no scanner flags this file.
const TOKENS = {
  github: `ghp_${"x7Kq2mP9vR4tW8yB3nL6cF1hJ5gD0sA2eZ9u"}`,
  gitlab: `glpat-${"Zx81kLmN02pQrS3tUvW4"}`,
  slack: `xoxb-${"118273645502-223344556677-Qm7Rt9Vx2Kp4Ws6Yz8Ab1Cd3"}`,
  aws: `AKIA${"QX7RT2MW5ZK3PL9V"}`,
  jwt: `eyJhbGciOiJIUzI1NiJ9.${"eyJzdWIiOiJhZ2VudC0xIiwiaWF0IjoxNzAwMDAwMDAwfQ"}.${"c2lnbmF0dXJlLWJ5dGVzLWhlcmUtMDEyMzQ1Njc4OQ"}`,
};
const ESCAPES = ["\\n", "\\t", "\\r", '\\"', "\\\\", "\\/", "\\u0022", "\\u000a"];

describe("redaction engine, end to end", () => {
  it("catches a token right after any escape inside a JSON string, and keeps the escape", () => {
    const lines: string[] = [];
    for (const [name, token] of Object.entries(TOKENS))
      for (const esc of ESCAPES) lines.push(`{"log":"start ${name}${esc}${token}${esc}end"}`);
    const { receipt, stored } = capture(`${lines.join("\n")}\n`);
    for (const token of Object.values(TOKENS)) expect(stored).not.toContain(token.slice(4, 16));
    for (const [name] of Object.entries(TOKENS))
      for (const esc of ESCAPES) expect(stored).toContain(`start ${name}${esc}[REDACTED:`);
    expect(receipt.streams.stdout.redactions).toBe(lines.length);
  });

  it("an Authorization header inside one-line JSON keeps everything after its token", () => {
    const tail = JSON.stringify({
      items: Array.from({ length: 2000 }, (_, i) => ({ id: i, ok: true })),
    });
    const doc = `{"request":{"headers":{"Authorization":"Bearer ${TOKENS.github.slice(4)}","Accept":"*/*"}},"body":${tail}}`;
    const { receipt, stored } = capture(doc);
    expect(stored).toBe(
      doc.replace(TOKENS.github.slice(4), "[REDACTED:authorization-header]") + PADDING,
    );
    expect(receipt.streams.stdout.redactions).toBe(1);
    expect(receipt.streams.stdout.redactedBytes).toBe(TOKENS.github.length - 4);
  });

  it("a password, a token flag and curl -u inside strings of one-line JSON keep what follows them", () => {
    const password = `Xk29${"sLq0Zp81"}`;
    const tail = JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ id: i, ok: true })));
    const doc = `{"conn":"Host=db;Password=${password}","cmd":"deploy --token ${password}abc","curl":"curl -u ci:${password}","items":${tail}}`;
    const { receipt, stored } = capture(doc);
    expect(stored).toBe(
      `{"conn":"Host=db;Password=[REDACTED:secret-assignment]","cmd":"deploy --token [REDACTED:secret-assignment]","curl":"curl -u [REDACTED:basic-auth]","items":${tail}}${PADDING}`,
    );
    expect(receipt.streams.stdout.redactions).toBe(3);
    expect(receipt.streams.stdout.redactedBytes).toBe(3 * password.length + 3 + 3);
  });

  it("keeps 100,000 repeated letters and minified JavaScript that starts like a token", () => {
    const letters = `${"A".repeat(100_000)}\n`;
    const code = "s.addComponentsFromRegistry();s.getElementsByTagNameNS(a,b);\n";
    const { receipt, stored } = capture(letters + code);
    expect(stored).toBe(letters + code + PADDING);
    expect(receipt.streams.stdout.redactions).toBe(0);
    expect(receipt.streams.stdout.redactedBytes).toBe(0);
  });

  it("accounts for every byte: produced = accepted - redactedBytes + markerBytes", () => {
    const text = [
      `export GITHUB_TOKEN=${TOKENS.github}`,
      `curl -H "Authorization: Bearer ${TOKENS.jwt}" https://api.example.com`,
      `aws_access_key_id = ${TOKENS.aws}`,
      "nothing to see here",
      "",
    ].join("\n");
    const { receipt, stored } = capture(text);
    const s = receipt.streams.stdout;
    expect(s.redactions).toBe(3);
    expect(s.raw.accepted).toBe(Buffer.byteLength(text + PADDING));
    expect(s.produced).toBe(s.raw.accepted - s.redactedBytes! + s.markerBytes!);
    expect(s.committed).toBe(Buffer.byteLength(stored));
    const markers = stored.match(/\[REDACTED:[a-z0-9-]+\]/g) ?? [];
    expect(s.markerBytes).toBe(markers.join("").length);
  });
});
