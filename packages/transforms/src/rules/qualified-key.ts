/**
 * Keys named for what they unlock: `key` after a word that makes it a secret
 * (`LICENSE_KEY=…`, `sessionKey: …`, `"jwt-key": "…"`, `AZURE_STORAGE_ACCOUNT_KEY=…`,
 * `License key: …`). A cache's, a table's or a map's key (`CACHE_KEY`, `PARTITION_KEY`,
 * `sortKey`) names none of these words and is never read.
 *
 * The anchors are `key` joined to the word before it (`_key`, `-KEY`, `.key`, `eKey` with
 * its last letter in camelCase, `key:` after a space), so no common word's first bytes stop
 * the scan; the word itself is read from the bytes the redactor keeps before an anchor
 * (`AnchorMatch.wordBefore`), and nothing is held back for it. The value must look like a
 * token, as after a vendor's name: 16+ bytes of a token alphabet with a letter and a digit.
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
  // Azure's two keys of a resource (`az … keys list`: `"primaryKey": "…"`, `secondaryKey`).
  "primary",
  "secondary",
];

const DASH = 0x2d;

/** `key` after a separator, in the case of the word before it. */
const JOINED = ["_key", "_KEY", "_Key", "-key", "-KEY", "-Key", ".key"];

/**
 * The rules: `name` on their markers, `qualifiers` the words (lowercase) that make the key a
 * secret. A rule per form, so that each rules out what it can before a candidate starts: `key`
 * after a separator only after a qualifier's last letter (`ACCESS_KEY`, `CACHE_KEY` end
 * there), camelCase only on the anchors of those letters (`eKey`, `tKey`, …) after another
 * letter, and a label's `key:` only after a space. Each is told the word before its anchor.
 */
export function qualifiedKeyRules(name: string, qualifiers: readonly string[]): MatcherRule[] {
  const words = new Set(qualifiers);
  const lastLetters = [...new Set(qualifiers.map((q) => q.charAt(q.length - 1)))];
  const rule = (anchors: string[], notBefore: Uint8Array, afterColon: boolean): MatcherRule =>
    withWordBefore(
      withNotBefore(
        {
          kind: "matcher",
          name,
          anchors,
          maxLength: DECIDE + 16,
          start(match) {
            // camelCase: the anchor's first byte is the word's last letter.
            const letters = /^[a-z]Key$/.test(match.anchor)
              ? `${match.wordBefore}${match.anchor[0]}`
              : (match.wordBefore ?? "");
            const word = qualifierOf(letters);
            if (word === undefined || !words.has(word)) return undefined;
            // A kebab-case name reads as a keyword after a `-` does (`--license-key X`, as
            // `--api-token X`): a flag, whose value may follow a space.
            const kebab = match.anchor.startsWith("-");
            return tokenValueCandidate(kebab ? { ...match, before: DASH } : match, afterColon);
          },
        },
        notBefore,
      ),
    );
  const notLast = bytesBut(lastLetters.flatMap((c) => [c, c.toUpperCase()]));
  return [
    // `keys`, `keyboard`: a longer word (as `Phase.First` would say).
    withNotAfter(rule(JOINED, notLast, false), byteSet("a-z")),
    withNotAfter(
      rule(
        lastLetters.map((c) => `${c}Key`),
        bytesBut([..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"]),
        false,
      ),
      byteSet("a-z"),
    ),
    // A form's label or prose, the words apart and a `:` after them (`License key: …`,
    // `INTEGRATION KEY: …`): anchored at `key:`, since a space inside an anchor would stop
    // the scan at every `e `.
    rule(["key:", "Key:", "KEY:"], bytesBut([" "]), true),
  ];
}

/** Every byte but `chars` (1 each): what rules an anchor out when it stands before it. */
function bytesBut(chars: readonly string[]): Uint8Array {
  const table = new Uint8Array(256).fill(1);
  for (const c of chars) table[c.charCodeAt(0)] = 0;
  return table;
}

/**
 * The last camelCase word of `letters`, lowercase (`appLicense` → `license`, `LICENSE` →
 * `license`), or `undefined` when there is none.
 */
function qualifierOf(letters: string): string | undefined {
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
  return letters.slice(start).toLowerCase();
}
