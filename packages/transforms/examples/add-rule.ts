/**
 * Adding a redaction rule in your own package: three ways, from the simplest.
 *
 * 1. A literal set: exact strings (e.g. your staging passwords).
 * 2. A token rule: a prefix plus an alphabet, the shape of most vendor keys.
 * 3. A custom incremental matcher: anything else, one byte at a time.
 *
 * Then prove it keeps SPEC §5 with the testing kit in one line.
 * Run: `npx vitest run packages/transforms/test/examples.test.ts` (it imports this file).
 */
import {
  compileRedaction,
  createRedactor,
  type MatcherRule,
  type RedactionRule,
  redactText,
  tokenRule,
  Verdict,
} from "@spool/transforms";
import { checkRedaction } from "@spool/transforms/testing";

// 1. Literal strings.
const stagingPasswords: RedactionRule = {
  kind: "literal",
  name: "staging-password",
  values: ["st4ging-pa55word", "another-staging-secret"],
};

// 2. "acme_" + at least 24 of [A-Za-z0-9]: held until 24 body bytes are seen, then the
//    whole token is redacted however long it runs.
const acmeKey = tokenRule({
  name: "acme-key",
  prefixes: ["acme_"],
  body: "A-Za-z0-9",
  minBody: 24,
});

// 3. A custom matcher: an order id "ORD-" + 6 digits + "-" + a 4-digit PIN; only the PIN
//    is secret. `from` says where redaction may start (offsets count from the anchor).
const orderPin: MatcherRule = {
  kind: "matcher",
  name: "order-pin",
  anchors: ["ORD-"],
  maxLength: 16, // never holds more than the anchor + 6 digits + "-" + 4 digits
  start(match) {
    let seen = 0; // bytes after the anchor
    return {
      get from() {
        return match.length + 7; // the PIN starts after "ORD-" + 6 digits + "-"
      },
      next(byte) {
        seen++;
        const digit = byte >= 0x30 && byte <= 0x39;
        if (seen <= 6) return digit ? Verdict.Hold : Verdict.Reject;
        if (seen === 7) return byte === 0x2d ? Verdict.Hold : Verdict.Reject;
        if (seen < 11) return digit ? Verdict.Hold : Verdict.Reject;
        return digit ? Verdict.Redact : Verdict.Reject;
      },
      end: () => Verdict.Reject,
    };
  },
};

/** Compile once; share between streams and labels. */
export const rules = compileRedaction({ rules: [stagingPasswords, acmeKey, orderPin] });

export function demo(): string[] {
  const redactor = createRedactor(rules);
  // A secret split across writes is never exposed: "acme_AbC" is held, not emitted.
  const out = [
    ...redactor.push([Buffer.from("deploy acme_AbC")]),
    ...redactor.push([Buffer.from("dEfGhIjKlMnOpQrStUvWxYz0123 ok\n")]),
    ...redactor.end(),
  ];
  return [
    Buffer.concat(out).toString(),
    redactText("login st4ging-pa55word", rules),
    redactText("order ORD-123456-9876 shipped", rules),
  ];
}

/** The testing kit: random embeddings, random and byte-at-a-time splits, every invariant. */
export function proveInvariants(): void {
  checkRedaction(rules, {
    secrets: [
      "st4ging-pa55word",
      "acme_AbCdEfGhIjKlMnOpQrStUvWxYz",
      { text: "ORD-123456-9876", secret: "9876" },
    ],
    numRuns: 50,
  });
}
