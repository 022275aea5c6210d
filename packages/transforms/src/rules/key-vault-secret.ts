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
  /** The object's members after it: strings skipped, braces counted, up to the next key of the path. */
  Members: 1,
  /** After such a key: blanks, `:`, the value's opening quote (or, inside the path, `{`). */
  Colon: 2,
  /** The value, up to its closing quote. */
  Value: 3,
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
const KEY_VAULT_PATH = ['"value"'];
const SECRET_MANAGER_PATH = ['"payload"', '"data"'];

/** A secret's URL or name, then the members of its object down a path of keys to the value. */
class SecretResponseCandidate implements Candidate {
  from = Number.MAX_SAFE_INTEGER;
  to: number | undefined = undefined;
  private here: number;
  private part: Part = Part.Url;
  private readonly quotes = new JsonQuotes();
  private read = 0;
  /** In `Members`: inside a string; nested objects' and lists' depth; the key matched so far. */
  private inString = false;
  private depth = 0;
  private key = 0;
  /** The path's key sought now. */
  private level = 0;
  /** The URL's or name's bytes after the anchor (for `needs`). */
  private url = "";

  constructor(
    anchor: number,
    private readonly path: readonly string[],
    /** What the URL or name must hold, else none. */
    private readonly needs: string | null,
  ) {
    this.here = anchor - 1;
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
      case Part.Members:
        return this.member(byte, quote);
      case Part.Colon:
        if (byte === 0x3a || byte === 0x20 || byte === 0x0a || byte === 0x0d) return Verdict.Hold;
        if (this.level < this.path.length - 1) {
          // A key on the path: its object, whose members are read next.
          if (byte !== 0x7b) return Verdict.Reject;
          this.level++;
          this.part = Part.Members;
          return Verdict.Hold;
        }
        if (!quote) return Verdict.Reject;
        this.part = Part.Value;
        this.read = 0;
        this.from = here + 1;
        return Verdict.Hold;
      default:
        if (quote) {
          // Closed where its own quote's backslashes begin (none as written).
          this.to = here - this.quotes.escapes;
          return Verdict.Close;
        }
        return byte === 0x0a || byte === 0x0d ? Verdict.Reject : Verdict.Redact;
    }
  }

  /** A byte of the members between the URL and the path's next key. */
  private member(byte: number, quote: boolean): Verdict {
    if (this.inString) {
      const key = this.path[this.level]!;
      if (!quote) {
        if (this.key > 0) this.key = byte === key.charCodeAt(this.key) ? this.key + 1 : 0;
        return Verdict.Hold;
      }
      this.inString = false;
      // The key closed, at the object's own depth: its `:` and its value come next.
      if (this.key === key.length - 1 && this.depth === 0) this.part = Part.Colon;
      return Verdict.Hold;
    }
    if (quote) {
      this.inString = true;
      this.key = 1;
      return Verdict.Hold;
    }
    if (byte === 0x7b || byte === 0x5b) this.depth++;
    else if (byte === 0x7d || byte === 0x5d) {
      // The object closed without a value.
      if (--this.depth < 0) return Verdict.Reject;
    }
    return Verdict.Hold;
  }

  end(): Verdict {
    return Verdict.Reject;
  }
}

keepShape(new SecretResponseCandidate(25, KEY_VAULT_PATH, null));
