/**
 * A secret's value as Azure's CLI prints it (`az keyvault secret show`, `set`, `list-versions`
 * with values): a JSON object whose `id` is the secret's URL in a key vault
 * (`https://<vault>.vault.azure.net/secrets/<name>/<version>`, and the other clouds' vault
 * domains) and whose `value` member, later in the same object (the CLI sorts the members),
 * holds the secret whatever its name or shape. From the URL's closing quote the object is read
 * up to its `value` (strings skipped, nested objects such as `tags` counted, at most
 * {@link MAX_BETWEEN} bytes); the value's characters are redacted as they come (a certificate's
 * PFX in base64 is long), its quotes and the rest stay.
 * Inside a JSON string the quotes come escaped (`\"value\": \"…\"`), read the same way.
 *
 * Google Cloud's Secret Manager the same way, as `gcloud secrets versions access …
 * --format=json` prints a version: the `name` (`projects/<project>/secrets/<name>/versions/<n>`,
 * the anchor at `/secrets/`), then `"payload": {"data": "…"}`, the secret in base64 (a
 * `name` without `/versions/`, a secret's own description, is not read).
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText('{"id": "https://kv1.vault.azure.net/secrets/db/7f3a", "name": "db", "value": "Zx9Kq2"}');
 * // '{"id": "https://kv1.vault.azure.net/secrets/db/7f3a", "name": "db", "value": "[REDACTED:key-vault-secret]"}'
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet } from "./byte-classes.js";
import { IN_ESCAPE, JsonQuotes, TEXT_QUOTE, TOO_DEEP } from "./escaped-literal.js";
import { MembersToKey } from "./json-members.js";
import { keepShape } from "./kept-shapes.js";

/** The vault domains of Azure's clouds, each with the path of a secret. */
const ANCHORS = [
  ".vault.azure.net/secrets/",
  ".vault.azure.cn/secrets/",
  ".vault.usgovcloudapi.net/secrets/",
  ".vault.microsoftazure.de/secrets/",
];
/** Most bytes from the URL's end to the value's opening quote. */
const MAX_BETWEEN = 1024;
/** The URL's name and version. */
const URL_PATH = byteSet("A-Za-z0-9/_.-");
/** Most bytes of the URL or name after the anchor. */
const MAX_URL = 256;
/** A byte before `/secrets/` in Secret Manager's name: the project's id or number. */
const PROJECT = byteSet("a-z0-9-");

/** Where the candidate is. */
const Part = {
  /** The rest of the URL, up to its closing quote (escaped or not). */
  Url: 0,
  /** The object's members after it, down the path of keys to the value's opening quote. */
  Members: 1,
  /** The value, up to its closing quote. */
  Value: 2,
} as const;
type Part = (typeof Part)[keyof typeof Part];

export const KEY_VAULT_SECRET_RULE: MatcherRule = {
  kind: "matcher",
  name: "key-vault-secret",
  anchors: ANCHORS,
  // Nothing is held but a run of backslashes in the value (its closing quote's, or its own).
  maxLength: 64,
  start(match): Candidate {
    return new SecretResponseCandidate(match.length, KEY_VAULT_PATH, null);
  },
};

/** Secret Manager's version (see the file's comment). */
export const SECRET_MANAGER_RULE: MatcherRule = {
  kind: "matcher",
  name: "secret-manager",
  anchors: ["/secrets/"],
  maxLength: 64,
  start(match): Candidate | undefined {
    if (match.before < 0 || PROJECT[match.before] !== 1) return undefined;
    return new SecretResponseCandidate(match.length, SECRET_MANAGER_PATH, "/versions/");
  },
};

/** The members to the secret's value: Key Vault's `value`; Secret Manager's `payload`, then `data`. */
const KEY_VAULT_PATH = ["value"];
const SECRET_MANAGER_PATH = ["payload", "data"];

/** A secret's URL or name, then the members of its object down a path of keys to the value. */
class SecretResponseCandidate implements Candidate {
  from = Number.MAX_SAFE_INTEGER;
  to: number | undefined = undefined;
  private here: number;
  private part: Part = Part.Url;
  private readonly quotes = new JsonQuotes();
  private read = 0;
  /** The path's key sought now, and the members read up to its value. */
  private level = 0;
  private members: MembersToKey;
  /** The URL's or name's bytes after the anchor (for `needs`). */
  private url = "";

  constructor(
    anchor: number,
    private readonly path: readonly string[],
    /** What the URL or name must hold, else none. */
    private readonly needs: string | null,
  ) {
    this.here = anchor - 1;
    this.members = this.membersTo(0);
  }

  /** The members of the object at the path's `level`, up to its key's value. */
  private membersTo(level: number): MembersToKey {
    const opener = level < this.path.length - 1 ? 0x7b : 0x22;
    return new MembersToKey(this.path[level]!, opener, MAX_BETWEEN);
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    if (++this.read > MAX_BETWEEN && this.part !== Part.Value) return Verdict.Reject;
    const kind = this.quotes.read(byte);
    if (kind === IN_ESCAPE) return Verdict.Hold;
    if (kind === TOO_DEEP) return Verdict.Reject;
    const quote = kind === TEXT_QUOTE;
    const run = this.quotes.run;
    switch (this.part) {
      case Part.Url:
        if (quote) {
          if (this.needs !== null && !this.url.includes(this.needs)) return Verdict.Reject;
          this.part = Part.Members;
          return Verdict.Hold;
        }
        if (URL_PATH[byte] !== 1 || run !== 0 || this.url.length >= MAX_URL) return Verdict.Reject;
        if (this.needs !== null) this.url += String.fromCharCode(byte);
        return Verdict.Hold;
      case Part.Members: {
        const read = this.members.read(byte, quote);
        if (read < 0) return Verdict.Reject;
        if (read === 0) return Verdict.Hold;
        // A key on the path opened its object, whose members are read next; the last one's value.
        if (++this.level < this.path.length) {
          this.members = this.membersTo(this.level);
          return Verdict.Hold;
        }
        this.part = Part.Value;
        this.read = 0;
        this.from = here + 1;
        return Verdict.Hold;
      }
      default:
        if (quote) {
          // Closed where its own quote's backslashes begin (none as written).
          this.to = here - this.quotes.escapes;
          return Verdict.Close;
        }
        return byte === 0x0a || byte === 0x0d ? Verdict.Reject : Verdict.Redact;
    }
  }

  end(): Verdict {
    return Verdict.Reject;
  }
}

keepShape(new SecretResponseCandidate(25, KEY_VAULT_PATH, null));
