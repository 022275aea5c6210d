import type { Stage } from "@spool/core";
import { tokenRule } from "@spool/transforms";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  allChunkings,
  arbSecretEmbedding,
  byteAtATime,
  checkNoSecretPiece,
  checkRedaction,
  checkStage,
  splitAt,
} from "../src/testing.js";

const bytes = (s: string) => Buffer.from(s);

/** A deliberately broken stage: it redacts "secret" only when it arrives in one chunk. */
function perWriteMasker(): Stage {
  return {
    name: "per-write",
    held: 0,
    push: (batch) =>
      batch.map((c) => bytes(Buffer.from(c).toString("latin1").replaceAll("secret", "******"))),
    end: () => [],
  };
}

/** A deliberately broken stage: it claims a window but holds everything. */
function hoarder(): Stage {
  const kept: Uint8Array[] = [];
  return {
    name: "hoarder",
    window: 4,
    get held() {
      return kept.reduce((n, c) => n + c.length, 0);
    },
    push(batch) {
      kept.push(...batch);
      return [];
    },
    end: () => kept.splice(0),
  };
}

describe("testing kit", () => {
  it("enumerates every chunking", () => {
    const all = [...allChunkings(bytes("abcd"))].map((c) =>
      c.map((x) => Buffer.from(x).toString()).join("|"),
    );
    expect(all).toHaveLength(8);
    expect(new Set(all).size).toBe(8);
    expect(all).toContain("a|b|c|d");
    expect(all).toContain("abcd");
    expect(byteAtATime(bytes("xyz"))).toHaveLength(3);
    expect(splitAt(bytes("abcdef"), [4, 2, 2, 9]).map((c) => Buffer.from(c).toString())).toEqual([
      "ab",
      "cd",
      "ef",
    ]);
  });

  it("catches a stage that leaks a secret split across writes (the Drone failure)", () => {
    const input = bytes("a secret b");
    expect(() => checkStage(perWriteMasker, input, [input])).not.toThrow();
    expect(() => checkStage(perWriteMasker, input, splitAt(input, [5]))).toThrow(
      /not a prefix|differs/,
    );
  });

  it("catches a stage whose hold exceeds its window", () => {
    expect(() => checkStage(hoarder, bytes("abcdefgh"), splitAt(bytes("abcdefgh"), [6]))).toThrow(
      /held 6 > window 4/,
    );
  });

  it("catches a surviving piece of a secret, and a rule set that misses its secret", () => {
    expect(() => checkNoSecretPiece("x 12345678 y", "0123456789")).toThrow(/8-byte piece/);
    expect(() => checkNoSecretPiece("x [REDACTED:a] y", "0123456789")).not.toThrow();
    expect(() =>
      checkRedaction({ builtins: false }, { secrets: ["not-covered-by-any-rule"], numRuns: 5 }),
    ).toThrow(
      /8-byte piece of a secret .* survived redaction: .*\n\(failed after .* replay with \{ seed: /s,
    );
  });

  it("embeds secrets in contexts: a rule that only works between spaces fails", () => {
    // Refuses a token right after "=", '"' or ":": fine between words, blind to k=v and JSON.
    const spaced = tokenRule({
      name: "spaced-key",
      prefixes: ["acme_"],
      body: "a-z0-9",
      minBody: 20,
      notAfter: '=":',
    });
    const secrets = ["acme_0123456789abcdefghijk"];
    expect(() =>
      checkRedaction(
        { builtins: false, rules: [spaced] },
        { secrets, contexts: ["words"], numRuns: 30 },
      ),
    ).not.toThrow();
    expect(() =>
      checkRedaction({ builtins: false, rules: [spaced] }, { secrets, numRuns: 100, seed: 7 }),
    ).toThrow(/survived redaction/);
    const texts = fc.sample(
      arbSecretEmbedding({ secrets, contexts: ["json", "yaml", "flag-equals"] }),
      30,
    );
    expect(texts.some((t) => t.text.includes('{"token":"acme_'))).toBe(true);
    expect(texts.some((t) => t.text.includes("api_key: acme_"))).toBe(true);
    expect(texts.some((t) => t.text.includes("--token=acme_"))).toBe(true);
  });
});
