import { isSpoolError } from "@spool/core";
import { describe, expect, it } from "vitest";
import { createTokenAuthority, newRootToken, parseTtl } from "../../src/serve/tokens.js";

const ID = "AbCdEfGhIjKlMnOpQrStUvWx";
const OTHER = "ZyXwVuTsRqPoNmLkJiHgFeDc";

function authority(now: { t: number }, rootToken = ROOT) {
  return createTokenAuthority({ rootToken, now: () => now.t });
}
const ROOT = newRootToken();

function refused(f: () => unknown): string {
  try {
    f();
  } catch (error) {
    expect(isSpoolError(error, "SPOOL_E_AUTH")).toBe(true);
    return (error as Error).message;
  }
  throw new Error("not refused");
}

describe("tokens", () => {
  it("the root token grants everything; a scoped token one capture, read-only, until it expires", () => {
    const now = { t: 1_000_000 };
    const a = authority(now);
    expect(a.verify(`Bearer ${ROOT}`)).toEqual({
      kind: "root",
      captureId: null,
      readOnly: false,
      expiresAt: null,
    });
    const scoped = a.issue({ captureId: ID, ttlMs: 3_600_000 });
    expect(a.verify(`Bearer ${scoped}`)).toEqual({
      kind: "scoped",
      captureId: ID,
      readOnly: true,
      expiresAt: 1_000_000 + 3_600_000,
    });
    now.t += 3_600_000 - 1;
    expect(a.verify(`Bearer ${scoped}`).captureId).toBe(ID);
    now.t += 1;
    expect(refused(() => a.verify(`Bearer ${scoped}`))).toMatch(/expired/);
  });

  it("refuses a missing, malformed, wrong, tampered or foreign token", () => {
    const now = { t: 0 };
    const a = authority(now);
    const scoped = a.issue({ captureId: ID, ttlMs: 60_000 });
    refused(() => a.verify(undefined));
    refused(() => a.verify(ROOT));
    refused(() => a.verify(`Basic ${ROOT}`));
    refused(() => a.verify(`Bearer ${newRootToken()}`));
    refused(() => a.verify(`Bearer ${ROOT.slice(0, -1)}`));
    refused(() => a.verify(`Bearer ${"x".repeat(5000)}`));
    // Another capture in the claims, with the original mac.
    const [prefix, claims, mac] = scoped.split(".");
    const forged = JSON.parse(Buffer.from(claims as string, "base64url").toString());
    forged.cap = OTHER;
    const swapped = `${prefix}.${Buffer.from(JSON.stringify(forged)).toString("base64url")}.${mac}`;
    refused(() => a.verify(`Bearer ${swapped}`));
    // A longer lifetime, with the original mac.
    forged.cap = ID;
    forged.exp += 1e9;
    refused(() =>
      a.verify(
        `Bearer ${prefix}.${Buffer.from(JSON.stringify(forged)).toString("base64url")}.${mac}`,
      ),
    );
    // Signed by another root: replacing the root token revokes every scoped token.
    refused(() => authority(now, newRootToken()).verify(`Bearer ${scoped}`));
  });

  it("issues tokens for every capture or one, from 1 s to 30 days", () => {
    const a = authority({ t: 0 });
    expect(a.verify(`Bearer ${a.issue({ ttlMs: 1000 })}`).captureId).toBeNull();
    expect(() => a.issue({ ttlMs: 999 })).toThrow();
    expect(() => a.issue({ ttlMs: 31 * 86_400_000 })).toThrow();
    expect(() => a.issue({ captureId: "../x", ttlMs: 1000 })).toThrow();
    expect(parseTtl("90s")).toBe(90_000);
    expect(parseTtl("1h")).toBe(3_600_000);
    expect(parseTtl("7d")).toBe(7 * 86_400_000);
    expect(() => parseTtl("31d")).toThrow();
    expect(() => parseTtl("1 h")).toThrow();
  });
});
