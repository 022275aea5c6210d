/**
 * Keys named for what they unlock: `key` after a word that makes it a secret
 * (`LICENSE_KEY=…`, `sessionKey: …`, `"jwt-key": "…"`, `AZURE_STORAGE_ACCOUNT_KEY=…`,
 * `License key: …`). A cache's, a table's or a map's key (`CACHE_KEY`, `PARTITION_KEY`,
 * `sortKey`) names none of these words and is never read.
 *
 * The anchors are `key` joined to the word before it (`_key`, `-KEY`, `.key`, and `eKey`,
 * its last letter, in camelCase), so no common word's first bytes stop the scan; the word
 * itself comes from the bytes the rule holds back before its anchor (its lookbehind). The
 * value must look like a token, as after a vendor's name: 16+ bytes of a token alphabet with
 * a letter and a digit.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("LICENSE_KEY=Xk9mP2qL8vR4tW6yZ3aB CACHE_KEY=user42abcdefghijklmn");
 * // "LICENSE_KEY=[REDACTED:key-assignment] CACHE_KEY=user42abcdefghijklmn"
 * ```
 */
import type { MatcherRule } from "../rule.js";
import { DECIDE, tokenValueCandidate } from "./assignment-rule.js";
import { byteSet } from "./byte-classes.js";
import { withNotAfter, withNotBefore, withWordBefore } from "./not-before.js";

/** The words before `key` that make it a secret (lowercase). */
export const SECRET_KEY_QUALIFIERS: readonly string[] = [
  "license",
  "auth",
  "session",
  "jwt",
  "account",
  "service",
  "client",
  "admin",
  "storage",
  "ingest",
  "deploy",
  "write",
  "server",
  "consumer",
  "encrypt",
  "decryption",
  "decrypt",
  "cipher",
  "crypto",
  "shared",
  "webhook",
  "root",
  "cookie",
  "integration",
  "personal",
  "secure",
  "rest",
  "sign",
  "db",
  "database",
  "priv",
];

const DASH = 0x2d;

/** `key` after a separator, in the case of the word before it. */
const JOINED = ["_key", "_KEY", "_Key", "-key", "-KEY", "-Key", ".key"];

/**
 * The rules: `name` on their markers, `qualifiers` the words (lowercase) that make the key a
 * secret. A rule per form, so that each rules out what it can before a candidate starts: `key`
 * after a separator only after a qualifier's last letter (`ACCESS_KEY`, `CACHE_KEY` end
 * there), camelCase only on the anchors of those letters (`eKey`, `tKey`, …), and a label's
 * `key:` only after a space.
 */
export function qualifiedKeyRules(name: string, qualifiers: readonly string[]): MatcherRule[] {
  const words = new Set(qualifiers);
  const lastLetters = [...new Set(qualifiers.map((q) => q.charAt(q.length - 1)))];
  // One letter more than the longest word: a longer run of letters is another word.
  const most = Math.max(...qualifiers.map((q) => q.length)) + 1;
  const rule = (anchors: string[]): MatcherRule =>
    // `keys`, `keyboard`: a longer word (as `Phase.First` would say).
    withNotAfter(
      {
        kind: "matcher",
        name,
        anchors,
        maxLength: DECIDE + 16,
        lookbehind: { length: most, body: "A-Za-z" },
        start(match) {
          const lead = match.lead ?? "";
          // camelCase: the anchor's first byte is the word's last letter.
          const letters = /^[a-z]Key$/.test(match.anchor) ? lead + match.anchor[0] : lead;
          const word = qualifierOf(letters, lead.length >= most);
          if (word === undefined || !words.has(word)) return undefined;
          // A kebab-case name reads as a keyword after a `-` does (`--license-key X`, as
          // `--api-token X`): a flag, whose value may follow a space.
          return tokenValueCandidate(
            match.anchor.startsWith("-") ? { ...match, before: DASH } : match,
          );
        },
      },
      byteSet("a-z"),
    );
  const notLast = new Uint8Array(256).fill(1);
  for (const c of lastLetters)
    notLast[c.charCodeAt(0)] = notLast[c.toUpperCase().charCodeAt(0)] = 0;
  // A form's label or prose, the words apart and a `:` after them (`License key: …`,
  // `INTEGRATION KEY: …`): anchored at `key:` (a space inside an anchor would stop the scan
  // at every `e `), told the word before it and its one space.
  const label = withWordBefore({
    kind: "matcher",
    name,
    anchors: ["key:", "Key:", "KEY:"],
    maxLength: DECIDE + 16,
    start(match) {
      const word = qualifierOf(match.wordBefore ?? "", false);
      return word !== undefined && words.has(word) ? tokenValueCandidate(match, true) : undefined;
    },
  } satisfies MatcherRule);
  const notSpace = new Uint8Array(256).fill(1);
  notSpace[0x20] = 0;
  return [
    withNotBefore(rule(JOINED), notLast),
    rule(lastLetters.map((c) => `${c}Key`)),
    withNotBefore(label, notSpace),
  ];
}

/**
 * The last camelCase word of `letters`, lowercase (`appLicense` → `license`, `LICENSE` →
 * `license`), or `undefined` when there is none or, `capped` (the rule held back as many
 * bytes as it may), the run may go on before them.
 */
function qualifierOf(letters: string, capped: boolean): string | undefined {
  let start = letters.length;
  const lower = (c: string) => c >= "a" && c <= "z";
  const upper = (c: string) => c >= "A" && c <= "Z";
  if (start === 0) return undefined;
  if (lower(letters[start - 1]!)) {
    while (start > 0 && lower(letters[start - 1]!)) start--;
    if (start > 0 && upper(letters[start - 1]!)) start--; // `License`
  } else {
    // `myLICENSE`: the capitals after a small letter are the word.
    while (start > 0 && upper(letters[start - 1]!)) start--;
  }
  if (start === 0 && capped) return undefined;
  return letters.slice(start).toLowerCase();
}
