/**
 * A Kubernetes object's `data` in JSON, as `kubectl get secret -o json` prints it: the keys
 * sorted, so `"apiVersion": "v1"` and then `"data": {` open the object (also inside a JSON
 * string, its quotes and line breaks escaped). As in YAML (`secret-data-block.ts`), every
 * value that is base64 of text is a Secret's bytes whatever its key, redacted with the key
 * and quotes kept; a ConfigMap's first plain value ends the object, kept; a certificate
 * and a value over 1,024 characters are kept and the object goes on. The two members that
 * open it are the anchor's context: an API's other `"data"` objects (GraphQL's node ids
 * are base64 of text too) are not read.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText('{"apiVersion": "v1", "data": {"username": "YWRtaW4="}, "kind": "Secret"}');
 * // '{"apiVersion": "v1", "data": {"username": "[REDACTED:kubernetes-secret]"}, "kind": "Secret"}'
 * ```
 */
import { type AnchorMatch, type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet } from "./byte-classes.js";
import { MembersToKey } from "./json-members.js";
import { keepShape } from "./kept-shapes.js";
import { MAX_VALUE, ValueKind, ValueText } from "./secret-data-block.js";

/** What follows the anchor, blanks and line breaks aside: `": "v1", "data": {`. */
const OPENING = Buffer.from('":"v1","data":{', "latin1");
/**
 * What follows the anchor `kind` with the keys in another order, as `kubectl create secret
 * … --dry-run=client -o json` prints them: `": "Secret",`, then other members up to `data`.
 */
const KIND_OPENING = Buffer.from('":"Secret",', "latin1");
/** Most bytes of the members between `kind` and `data` (`apiVersion`, `metadata`, `type`). */
const MAX_MEMBERS = 4096;
/** Most bytes of an entry's key. */
const MAX_KEY = 253;
/** Blanks and line breaks between JSON's tokens (`\n` and the others escaped inside a string). */
const BLANK = byteSet(" \t\r\n");
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

const Part = {
  Members: 8,
  Opening: 0,
  KeyOpen: 1,
  Key: 2,
  Colon: 3,
  ValueOpen: 4,
  Value: 5,
  After: 6,
  Long: 7,
} as const;
type Part = (typeof Part)[keyof typeof Part];

/** Reads the opening members, then each entry of `data`; redacts a Secret's value as it ends. */
class JsonSecretDataCandidate implements Candidate {
  from: number;
  to: number | undefined = undefined;
  private here: number;
  private part: Part = Part.Opening;
  private count = 0;
  /** A backslash was read (a run reads as one), at `escapeAt`: the next byte is its letter. */
  private escape = false;
  private escapeAt = 0;
  private readonly text = new ValueText();
  private valueFrom = 0;
  /** After `kind`: the members up to `"data": {` (see {@link MembersToKey}), and its strings' quotes escaped. */
  private readonly members: MembersToKey | null;
  private escapedQuotes = false;

  constructor(
    anchorLength: number,
    private readonly opening: Buffer = OPENING,
  ) {
    this.from = anchorLength;
    this.here = anchorLength - 1;
    this.members = opening === KIND_OPENING ? new MembersToKey("data", 0x7b, MAX_MEMBERS) : null;
  }

  next(input: number): Verdict {
    const here = ++this.here;
    let byte = input;
    const escaped = this.escape;
    if (byte === BACKSLASH) {
      if (!escaped) this.escapeAt = here;
      this.escape = true;
      return this.part === Part.Value ? Verdict.Hold : this.release(here);
    }
    if (escaped) {
      this.escape = false;
      // An escape's letter: a line break or a tab between tokens, or an escaped quote.
      if (byte === 0x6e || byte === 0x72 || byte === 0x74) byte = 0x20;
    }
    if (this.part === Part.Value) return this.value(byte, here, escaped);
    if (this.part === Part.Members) {
      const read = this.members!.read(byte, byte === QUOTE && escaped === this.escapedQuotes);
      if (read < 0) return Verdict.Reject;
      if (read > 0) this.part = Part.KeyOpen;
      return this.release(here);
    }
    if (this.part === Part.Long) return byte === QUOTE ? this.afterValue(here) : this.release(here);
    if (this.part === Part.Key) {
      if (byte === QUOTE) this.part = Part.Colon;
      else if (++this.count > MAX_KEY) return Verdict.Reject;
      return this.release(here);
    }
    if (BLANK[byte] === 1) return this.release(here);
    switch (this.part) {
      case Part.Opening:
        if (byte !== this.opening[this.count]) return Verdict.Reject;
        if (this.count === 0) this.escapedQuotes = escaped;
        if (++this.count === this.opening.length)
          this.part = this.members === null ? Part.KeyOpen : Part.Members;
        return this.release(here);
      case Part.KeyOpen:
        if (byte !== QUOTE) return Verdict.Reject; // `}`: the object ended
        this.part = Part.Key;
        this.count = 0;
        return this.release(here);
      case Part.Colon:
        if (byte !== 0x3a) return Verdict.Reject;
        this.part = Part.ValueOpen;
        return this.release(here);
      case Part.ValueOpen:
        if (byte !== QUOTE) return Verdict.Reject;
        this.part = Part.Value;
        this.valueFrom = here + 1;
        this.text.reset();
        return this.release(here);
      default:
        // After a value: `,` and the next entry, or `}`.
        if (byte !== 0x2c) return Verdict.Reject;
        this.part = Part.KeyOpen;
        return this.release(here);
    }
  }

  /** Nothing before `here` is held: bytes read so far go out as they are. */
  private release(here: number): Verdict {
    this.from = here + 1;
    this.to = undefined;
    return Verdict.Hold;
  }

  /** A byte of the value, or its closing quote (`escaped`: inside a string, `\\"`). */
  private value(byte: number, here: number, escaped: boolean): Verdict {
    if (byte !== QUOTE) {
      if (this.text.chars >= MAX_VALUE) {
        this.part = Part.Long;
        return this.release(here);
      }
      this.text.decode(byte);
      this.from = this.valueFrom;
      return Verdict.Hold;
    }
    const kind = this.text.judge(false);
    if (kind === ValueKind.None) return Verdict.Reject;
    if (kind === ValueKind.Kept) return this.afterValue(here);
    this.from = this.valueFrom;
    this.to = escaped ? this.escapeAt : here;
    this.part = Part.After;
    return Verdict.Redact;
  }

  /** A value kept (a certificate, a long one) ended at its quote: the next entry may follow. */
  private afterValue(here: number): Verdict {
    this.part = Part.After;
    return this.release(here);
  }

  end(): Verdict {
    return Verdict.Reject;
  }
}

/**
 * A Kubernetes object's `data` values in JSON (see the file's comment).
 *
 * @category redaction
 */
export const JSON_SECRET_DATA_RULE: MatcherRule = {
  kind: "matcher",
  name: "kubernetes-secret",
  anchors: ["apiVersion", "kind"],
  maxLength: MAX_VALUE + 16,
  start(match: AnchorMatch): Candidate | undefined {
    if (match.before !== QUOTE) return undefined;
    return new JsonSecretDataCandidate(
      match.length,
      match.anchor === "kind" ? KIND_OPENING : OPENING,
    );
  },
};

keepShape(new JsonSecretDataCandidate(10));
keepShape(new JsonSecretDataCandidate(4, KIND_OPENING));
