/**
 * An Azure storage account's key (or a Cosmos DB account's): 64 random bytes in base64, 86
 * characters and `==`, after a name that ends in `account key`, `storage key`, `primary key`,
 * `secondary key` or `master key` in any usual spelling, glued to a longer name too
 * (`azurestorageaccountkey: …`, `-storagekey …`, `spark.x.storageaccountkey=…`). The key's
 * shape is exact, so the bytes between the name and the key may be any code punctuation
 * and line breaks, as code wraps a long literal (`AccountKey{\n  "…"}`, `ACCOUNT_KEY\n  =
 * "…"`, `process.env.ACCOUNT_KEY ||\n  "…"`, `['AccountKey'], '…'`): up to
 * {@link MAX_GAP} bytes of blanks, quotes, brackets, `=`, `:`, `,`, `|`, a tag's `>` and
 * escapes, no word.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * const key = `${"k3J9x2M7q4W1z6C5v0B8n2L5h7G4f1D9".repeat(2)}a+b/c9D8e7F6g5H4i3J2k1L0==`;
 * redactText(`-storagekey ${key}`);
 * // "-storagekey [REDACTED:azure-storage-key]"
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet, DIGIT } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";
import { keywordSpellings } from "./keyword-spellings.js";

/** Base64 characters of the key before its `==`. */
const KEY_BODY = 86;
/** Most bytes of a longer name after the anchor (`ACCOUNT_KEY_PROD`). */
const MAX_TAIL = 16;
/** Most bytes between the name and the key. */
const MAX_GAP = 48;
/** A longer name's bytes after the anchor. */
const NAME = byteSet("A-Za-z0-9_");
/** The bytes that may stand between the name and the key. */
const GAP = byteSet(" \t\r\n=:{}()[],|'\"`>");
const BACKSLASH = 0x5c;
const EQUALS = 0x3d;
/** The key's characters before its padding. */
const KEY_CHAR = byteSet("A-Za-z0-9+/");
const UPPER = byteSet("A-Z");
const LOWER = byteSet("a-z");

const Part = { Tail: 0, Gap: 1, Escape: 2, Body: 3, Padding: 4, After: 5 } as const;
type Part = (typeof Part)[keyof typeof Part];

/** Reads the name's rest, the gap and the key after an anchor. */
class AccountKeyCandidate implements Candidate {
  from = 0;
  to: number | undefined = undefined;
  private here: number;
  private part: Part = Part.Tail;
  private count = 0;
  /** Kinds of characters the key holds: 1 a digit, 2 a capital, 4 a small letter. */
  private kinds = 0;

  constructor(anchorLength: number) {
    this.here = anchorLength - 1;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    switch (this.part) {
      case Part.Tail:
        if (NAME[byte] === 1) return ++this.count > MAX_TAIL ? Verdict.Reject : Verdict.Hold;
        this.part = Part.Gap;
        this.count = 0;
        return this.gap(byte, here);
      case Part.Gap:
        return this.gap(byte, here);
      case Part.Escape:
        // The escaped byte (`\"`, the `n` of `\n`) is the gap's; a run of backslashes reads
        // as one (a string inside a string: `\\n`, `\\\"`).
        if (byte !== BACKSLASH) this.part = Part.Gap;
        return ++this.count > MAX_GAP ? Verdict.Reject : Verdict.Hold;
      case Part.Body:
        return this.body(byte);
      case Part.Padding:
        if (byte !== EQUALS) return Verdict.Reject;
        this.part = Part.After;
        this.to = here + 1;
        return Verdict.Hold;
      default:
        // The key ends the run: a base64 byte after it makes a longer one.
        return KEY_CHAR[byte] === 1 || byte === EQUALS ? Verdict.Reject : Verdict.Close;
    }
  }

  private gap(byte: number, here: number): Verdict {
    if (byte === BACKSLASH) {
      this.part = Part.Escape;
      return ++this.count > MAX_GAP ? Verdict.Reject : Verdict.Hold;
    }
    if (GAP[byte] === 1) return ++this.count > MAX_GAP ? Verdict.Reject : Verdict.Hold;
    if (KEY_CHAR[byte] !== 1) return Verdict.Reject;
    this.part = Part.Body;
    this.from = here;
    this.count = 0;
    return this.body(byte);
  }

  /** A byte of the key's 86 characters, or its first `=`. */
  private body(byte: number): Verdict {
    if (KEY_CHAR[byte] === 1) {
      if (++this.count > KEY_BODY) return Verdict.Reject;
      this.kinds |= DIGIT[byte]! | (UPPER[byte]! << 1) | (LOWER[byte]! << 2);
      return Verdict.Hold;
    }
    if (byte !== EQUALS || this.count !== KEY_BODY || this.kinds !== 7) return Verdict.Reject;
    this.part = Part.Padding;
    return Verdict.Hold;
  }

  end(): Verdict {
    return this.part === Part.After ? Verdict.Close : Verdict.Reject;
  }
}

/**
 * Azure storage and Cosmos DB account keys after their name (see the file's comment).
 *
 * @category redaction
 */
export const AZURE_ACCOUNT_KEY_RULE: MatcherRule = {
  kind: "matcher",
  name: "azure-storage-key",
  anchors: ["account", "storage", "primary", "secondary", "master"].flatMap((word) =>
    keywordSpellings([word, "key"]),
  ),
  maxLength: MAX_TAIL + MAX_GAP + KEY_BODY + 4,
  start: (match): Candidate => new AccountKeyCandidate(match.length),
};

keepShape(new AccountKeyCandidate(10));
