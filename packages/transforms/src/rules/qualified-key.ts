/**
 * Keys named for what they unlock: `key` after a word that makes it a secret
 * (`LICENSE_KEY=…`, `sessionKey: …`, `"jwt-key": "…"`, `AZURE_STORAGE_ACCOUNT_KEY=…`,
 * `License key: …`), or after a word that may name a vendor (`SHODAN_KEY=…`, `mapquestKey`)
 * when the value is random too. A cache's, a table's or a map's key (`CACHE_KEY`,
 * `PARTITION_KEY`, `sortKey`) is never read: {@link NOT_SECRET_KEY_WORDS}.
 *
 * The anchors are `key` joined to the word before it (`_key`, `-KEY`, `.key`, `eKey` with
 * its last letter in camelCase, `key:` after a space), so no common word's first bytes stop
 * the scan; the word itself is read from the bytes the redactor keeps before an anchor
 * (`AnchorMatch.wordBefore`), and nothing is held back for it. Words apart (`License key:`,
 * `acme KEY=…`) are anchored with their `:` or `=`, after a space. The value must look like a
 * token, as after a vendor's name: 16+ bytes of a token alphabet with a letter and a digit;
 * after an unlisted word, also switching between letters and digits 4+ times
 * (`a1b2c3d4…`, not `user42abcdefghijklmn`).
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText("LICENSE_KEY=Xk9mP2qL8vR4tW6yZ3aB CACHE_KEY=u4x8c2a9b3d7e1f5g6h0");
 * // "LICENSE_KEY=[REDACTED:key-assignment] CACHE_KEY=u4x8c2a9b3d7e1f5g6h0"
 * ```
 */
import type { MatcherRule } from "../rule.js";
import { DECIDE, PUBLIC_KEY_WORDS, tokenValueCandidate } from "./assignment-rule.js";
import { byteSet } from "./byte-classes.js";
import { withNotAfter, withNotBefore, withWordBefore } from "./not-before.js";

/** The words before `key` that make it a secret (lowercase). */
export const SECRET_KEY_QUALIFIERS: readonly string[] = [
  "license",
  "auth",
  "jwt",
  "account",
  "service",
  "client",
  "admin",
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
  // An application's key (Datadog's `DD_APP_KEY`, `appKey`), PagerDuty's `routing_key`, a
  // merchant's key (payment gateways), a one-time-password seed (`totp_key`).
  "app",
  "application",
  "routing",
  "merchant",
  "totp",
  "otp",
];

/**
 * Words before `key` that name no secret, or whose key other rules read (lowercase): a
 * key of any other word (`SHODAN_KEY`, `mapquestKey`, `Polygon key:`) is read too, and its
 * value must then be random as well as token-like (see `tokenValueCandidate`).
 */
export const NOT_SECRET_KEY_WORDS: readonly string[] = [
  // Read by the keyword rules (`API_KEY`, `ACCESS_KEY`, `PRIVATE_KEY`, …).
  ..."api access secret private encryption signing master hmac subscription".split(" "),
  // A place in a data structure, a store or a message.
  ..."cache partition sort foreign hash range row column table index composite".split(" "),
  ..."object bucket map lookup dict redis memcache queue topic stream shard lock".split(" "),
  ..."idempotency dedup dedupe unique natural surrogate route message event state".split(" "),
  // A name, a label or a place in an interface.
  ..."translation locale lang label name type kind tag category group list item".split(" "),
  ..."node tree child parent field form input attr prop data value query filter".split(" "),
  ..."hot short menu nav tab page react render component element view".split(" "),
  // Keys that are public or identify (`PUBLIC_KEY`, reCAPTCHA's `SITE_KEY`, Algolia's search
  // key, a GPG fingerprint, an SSH key's path or its public half).
  ...PUBLIC_KEY_WORDS,
  ..."pub gpg pgp gnupg ssh host fingerprint user".split(" "),
  // Configuration and builds.
  ..."config setting settings env registry file path asset bundle image version build".split(" "),
  ..."commit branch release job task step test mock dummy example sample demo fake".split(" "),
  // What a tool's log says it did with a key (`Restore key: …`, `Using key: …`).
  ..."restore restored using request response action output".split(" "),
];

const DASH = 0x2d;
/** Words of prose before a label's `key:` (`Cache restored from key: …`, `saved with key:`). */
const PROSE = new Set(
  "from with the a an and or your my our their his her its this that these by for of to in on at as is was be new old no any each every same other which what one".split(
    " ",
  ),
);
/** Words before `key` that say a log used one: closed, but before `Key=` (see `qualifiedKeyRules`). */
const USING = new Set(["using", "use"]);
/** Fewest letters of a word before `key` that is no listed qualifier. */
const MIN_WORD = 3;

/** `key` after a separator, in the case of the word before it. */
const JOINED = ["_key", "_KEY", "_Key", "-key", "-KEY", "-Key", ".key"];

/**
 * The rules: `name` on their markers, `qualifiers` the words (lowercase) that make the key a
 * secret, `notSecret` the words that never do; after any other word the value must also be
 * random. A rule per form, so that each rules out what it can before a candidate starts: `key`
 * after a separator only after a letter (`3_KEY` names nothing), camelCase on the anchors
 * `aKey` … `zKey` after another letter, and a label's `key:` only after a space. Each is
 * told the word before its anchor.
 */
export function qualifiedKeyRules(
  name: string,
  qualifiers: readonly string[],
  notSecret: readonly string[],
): MatcherRule[] {
  const words = new Set(qualifiers);
  const closed = new Set(notSecret);
  const rule = (
    anchors: string[],
    notBefore: Uint8Array,
    afterColon: boolean,
    afterEquals = false,
  ): MatcherRule =>
    withWordBefore(
      withNotBefore(
        {
          kind: "matcher",
          name,
          anchors,
          maxLength: DECIDE + 16,
          start(match) {
            // camelCase: the anchor's first byte is the word's last letter.
            const letters = /^[a-z]K(?:ey|EY)$/.test(match.anchor)
              ? `${match.wordBefore ?? ""}${match.anchor[0]}`
              : (match.wordBefore ?? "");
            const word = qualifierOf(letters);
            if (word === undefined || word.length < MIN_WORD) return undefined;
            // A log's `Using key: ~/.ssh/id_ed25519` names a key; `Using Key=…` assigns one
            // (its value must be random, as after any unlisted word).
            if (closed.has(word) && !(afterEquals && USING.has(word))) return undefined;
            // A label's unlisted word is a name (`Shodan key: …`, `mailjet key: …`), not a word
            // of prose (`Cache restored from key: …`); its value must be random.
            if (afterColon && !words.has(word) && PROSE.has(word)) return undefined;
            // Laravel's `APP_KEY=base64:…` has its own rule, whose marker names it.
            if (letters.endsWith("APP") && match.anchor === "_KEY") return undefined;
            // A kebab-case name reads as a keyword after a `-` does (`--license-key X`, as
            // `--api-token X`): a flag, whose value may follow a space.
            const kebab = match.anchor.startsWith("-");
            return tokenValueCandidate(
              kebab ? { ...match, before: DASH } : match,
              !words.has(word),
              afterColon ? "colon" : afterEquals ? "equals" : "in-name",
            );
          },
        },
        notBefore,
      ),
    );
  const lower = [..."abcdefghijklmnopqrstuvwxyz"];
  const notLetter = bytesBut([...lower, ...lower.map((c) => c.toUpperCase())]);
  return [
    // `keys`, `keyboard`: a longer word (as `Phase.First` would say).
    withNotAfter(rule(JOINED, notLetter, false), byteSet("a-z")),
    withNotAfter(
      rule(
        lower.map((c) => `${c}Key`),
        notLetter,
        false,
      ),
      byteSet("a-z"),
    ),
    // A capitalized suffix on a lowercase name (`shodanKEY=…`), as generated names write it.
    withNotAfter(
      rule(
        lower.map((c) => `${c}KEY`),
        notLetter,
        false,
      ),
      byteSet("A-Za-z"),
    ),
    // A form's label or prose, the words apart and a `:` after them (`License key: …`,
    // `INTEGRATION KEY: …`): anchored at `key:`, since a space inside an anchor would stop
    // the scan at every `e `.
    rule(["key:", "Key:", "KEY:"], bytesBut([" "]), true),
    // The same words apart with a `=` (`loading acme KEY=…`, `mailer key = …`).
    rule(["key=", "Key=", "KEY=", "key =", "Key =", "KEY ="], bytesBut([" "]), false, true),
    flagKeyRule(name),
  ];
}

/**
 * A flag named `--key` alone (`mix hex.organization auth acme --key <hex>`), after a blank:
 * its value when random, as after an unlisted word (a path, `--key ./tls.key`, stays; a
 * longer flag, `--key-id`, is none).
 */
function flagKeyRule(name: string): MatcherRule {
  return withNotBefore(
    {
      kind: "matcher",
      name,
      anchors: ["--key"],
      maxLength: DECIDE + 16,
      start(match) {
        if (match.before >= 0 && match.before !== 0x20 && match.before !== 0x09) return undefined;
        return tokenValueCandidate({ ...match, before: DASH }, true, "name");
      },
    },
    bytesBut([" ", "\t"]),
  );
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
