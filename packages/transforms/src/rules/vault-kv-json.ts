/**
 * A key/value secret as Vault's CLI prints it with `-format=json` (`vault kv get`, a
 * version 2 store): the response's `"renewable"` member, then its `"data"` object, whose
 * own `"data"` object holds the secret's entries (`"metadata"` follows it). Every string
 * value there is the secret's, whatever its key (`"conn": "postgres://…"`), and is redacted,
 * its key and quotes kept; a value that is no string (a number, a list, an object) stays.
 * Only that nesting is read: another engine's `data` (a token's lookup, a database's
 * credentials, whose keys the keyword rules read) is left alone. Inside a JSON string the
 * quotes come escaped, read the same way.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText('{"renewable": false, "data": {"data": {"conn": "hunter2x"}, "metadata": {}}}');
 * // '{"renewable": false, "data": {"data": {"conn": "[REDACTED:vault-kv-data]"}, "metadata": {}}}'
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { IN_ESCAPE, JsonQuotes, TEXT_QUOTE, TOO_DEEP } from "./escaped-literal.js";
import { MembersToKey } from "./json-members.js";
import { keepShape } from "./kept-shapes.js";

const QUOTE = 0x22;
/** `"data": {` inside the response's `data`: blanks and line breaks aside, a quote for each `"`. */
const INNER = Buffer.from('"data":{', "latin1");
/** Most bytes of the response's members before its `data`. */
const MAX_MEMBERS = 4096;
/** Most bytes of the entries' object read. */
const MAX_ENTRIES = 16384;

const Part = {
  /** The anchor's closing quote (its backslashes say how quotes are escaped). */
  Close: 0,
  /** The response's members up to its `"data": {`. */
  Members: 1,
  /** `"data": {` again, the secret's entries' object. */
  Inner: 2,
  /** Between entries: a key, its `:`, a value that is no string, `,`. */
  Entries: 3,
  /** A string value, redacted as it comes. */
  Value: 4,
} as const;
type Part = (typeof Part)[keyof typeof Part];

export const VAULT_KV_JSON_RULE: MatcherRule = {
  kind: "matcher",
  name: "vault-kv-data",
  anchors: ["renewable"],
  // Nothing is held but a run of backslashes in a value.
  maxLength: 64,
  start(match): Candidate | undefined {
    return match.before === QUOTE ? new VaultJsonCandidate(match.length) : undefined;
  },
};

class VaultJsonCandidate implements Candidate {
  from = Number.MAX_SAFE_INTEGER;
  to: number | undefined = undefined;
  private here: number;
  private part: Part = Part.Close;
  private readonly quotes = new JsonQuotes();
  private read = 0;
  private readonly members = new MembersToKey("data", 0x7b, MAX_MEMBERS);
  /** Bytes of {@link INNER} matched. */
  private matched = 0;
  /** In `Entries`: inside a key's string; after a key's `:`; nesting of a value that is no string. */
  private inString = false;
  private colon = false;
  private depth = 0;

  constructor(anchor: number) {
    this.here = anchor - 1;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    if (++this.read > MAX_ENTRIES) return Verdict.Reject;
    const kind = this.quotes.read(byte);
    if (kind === IN_ESCAPE) return Verdict.Hold;
    if (kind === TOO_DEEP) return Verdict.Reject;
    const quote = kind === TEXT_QUOTE;
    const run = this.quotes.run;
    switch (this.part) {
      case Part.Close:
        // `"`, or `\"` inside a string (`\\\"` a string deeper).
        if (!quote) return Verdict.Reject;
        this.part = Part.Members;
        return Verdict.Hold;
      case Part.Members: {
        const read = this.members.read(byte, quote);
        if (read < 0) return Verdict.Reject;
        if (read > 0) this.part = Part.Inner;
        return Verdict.Hold;
      }
      case Part.Inner:
        return this.inner(byte, run, quote);
      case Part.Value:
        if (!quote) return byte === 0x0a ? Verdict.Reject : Verdict.Redact;
        // The value ends where its quote's own backslashes begin; nothing more is held.
        this.to = here - this.quotes.escapes;
        this.part = Part.Entries;
        this.colon = false;
        return Verdict.Redact;
      default:
        return this.entry(byte, quote, here);
    }
  }

  /** `"data": {` (blanks and escaped line breaks between its tokens). */
  private inner(byte: number, run: number, quote: boolean): Verdict {
    const expected = INNER[this.matched]!;
    if (expected === QUOTE ? quote : byte === expected && run === 0) {
      if (++this.matched === INNER.length) this.part = Part.Entries;
      return Verdict.Hold;
    }
    // Blanks, and a line break or a tab escaped inside a string.
    const blank = byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
    const escapedBlank = run > 0 && (byte === 0x6e || byte === 0x72 || byte === 0x74);
    return blank || escapedBlank ? Verdict.Hold : Verdict.Reject;
  }

  /** A byte between the entries: keys are skipped, a string value after `:` is redacted. */
  private entry(byte: number, quote: boolean, here: number): Verdict {
    this.from = Number.MAX_SAFE_INTEGER;
    this.to = undefined;
    if (this.inString) {
      if (quote) this.inString = false;
      return Verdict.Hold;
    }
    if (quote) {
      if (this.colon && this.depth === 0) {
        this.part = Part.Value;
        this.from = here + 1;
        return Verdict.Hold;
      }
      this.inString = true;
      return Verdict.Hold;
    }
    if (byte === 0x3a && this.depth === 0) this.colon = true;
    else if (byte === 0x2c && this.depth === 0) this.colon = false;
    else if (byte === 0x7b || byte === 0x5b) this.depth++;
    else if (byte === 0x7d || byte === 0x5d) {
      // The entries' object closed: the secret is done.
      if (--this.depth < 0) return Verdict.Reject;
    }
    return Verdict.Hold;
  }

  end(): Verdict {
    return Verdict.Reject;
  }
}

keepShape(new VaultJsonCandidate(9));
