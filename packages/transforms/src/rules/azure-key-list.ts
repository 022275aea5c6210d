/**
 * Azure's access keys as `az storage account keys list` (and the other `keys list` commands
 * that answer the same way) prints them: a list of objects, each a `keyName` (`key1`,
 * `key2`, `kerb1`), its `permissions` and its `value`, the key itself (88 characters of
 * base64 for a storage account). No keyword names the value; the `keyName` member before it
 * in the same object does. Read in JSON (`-o json`, pretty or not, also escaped inside a
 * string) and YAML (`-o yaml`): the `value` member at most {@link MAX_GAP} bytes after
 * `keyName`, in the same object, whose value is 40 to {@link MAX_KEY} base64 characters.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText('{"keyName": "key1", "permissions": "FULL", "value": "' + "Ab3+".repeat(21) + 'AA=="}');
 * // '{"keyName": "key1", "permissions": "FULL", "value": "[REDACTED:azure-access-key]"}'
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { ALPHA, BLANK, byteSet } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";

/** Most bytes from `keyName` to its sibling `value`'s key (the members between). */
const MAX_GAP = 256;
/** Most bytes between `value` and the key (quotes, blanks, `:`). */
const MAX_SEPARATOR = 16;
/** Fewest and most bytes of a key. */
const MIN_KEY = 40;
const MAX_KEY = 512;
const KEY = byteSet("A-Za-z0-9+/=");
/** Bytes that leave the object before `value` came: another object, or a list's end. */
const OBJECT_END = byteSet("{}[]");
/** `value` as the seek phase reads it, a letter at a time. */
const VALUE = "value";
/** The anchor, as the seek phase reads it. */
const NAME = "keyName";

const Phase = { Seek: 0, Separator: 1, Key: 2 } as const;

export const AZURE_KEY_LIST_RULE: MatcherRule = {
  kind: "matcher",
  name: "azure-access-key",
  anchors: [NAME],
  maxLength: MAX_KEY + MAX_SEPARATOR,
  start(match): Candidate | undefined {
    // A member's name: after a quote (JSON), or a blank or a line's start (YAML).
    const before = match.before;
    if (before >= 0 && before !== 0x22 && BLANK[before] !== 1 && before !== 0x0a) return undefined;
    return new AzureKeyCandidate(match.length);
  },
};

class AzureKeyCandidate implements Candidate {
  from: number;
  private here: number;
  private phase: number = Phase.Seek;
  private count = 0;
  /** Letters of `value` matched so far (-1: the byte before was a letter of another word). */
  private matched = 0;
  /** Letters of `keyName` matched so far: another one starts another object's key. */
  private again = 0;
  private colon = false;

  constructor(anchorLength: number) {
    this.from = anchorLength;
    this.here = anchorLength - 1;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    if (this.phase === Phase.Key) return this.keyByte(byte);
    this.from = here + 1;
    return this.phase === Phase.Seek ? this.seek(byte, here) : this.separator(byte, here);
  }

  /** Up to the sibling `value` member's name, within the object. */
  private seek(byte: number, here: number): Verdict {
    if (++this.count > MAX_GAP || OBJECT_END[byte] === 1) return Verdict.Reject;
    if (ALPHA[byte] !== 1) {
      if (this.matched === VALUE.length) {
        this.phase = Phase.Separator;
        this.count = 0;
        return this.separator(byte, here);
      }
      this.matched = 0;
      this.again = 0;
      return Verdict.Hold;
    }
    this.again = byte === NAME.charCodeAt(this.again) ? this.again + 1 : byte === 0x6b ? 1 : 0;
    if (this.again === NAME.length) return Verdict.Reject; // its candidate reads on
    // `value` as a whole word only (not `values`, `keyvalue`).
    if (this.matched >= 0 && this.matched < VALUE.length && byte === VALUE.charCodeAt(this.matched))
      this.matched++;
    else this.matched = -1;
    return Verdict.Hold;
  }

  /** After `value`: its closing quote, `:`, blanks, the key's opening quote. */
  private separator(byte: number, here: number): Verdict {
    if (++this.count > MAX_SEPARATOR) return Verdict.Reject;
    if (byte === 0x3a && !this.colon) {
      this.colon = true;
      return Verdict.Hold;
    }
    if (byte === 0x22 || byte === 0x5c || BLANK[byte] === 1) return Verdict.Hold;
    if (!this.colon || KEY[byte] !== 1) return Verdict.Reject;
    this.phase = Phase.Key;
    this.from = here;
    this.count = 1;
    return Verdict.Hold;
  }

  private keyByte(byte: number): Verdict {
    if (KEY[byte] === 1) return ++this.count > MAX_KEY ? Verdict.Reject : Verdict.Hold;
    return this.count >= MIN_KEY ? Verdict.Close : Verdict.Reject;
  }

  end(): Verdict {
    return this.phase === Phase.Key && this.count >= MIN_KEY ? Verdict.Close : Verdict.Reject;
  }
}

keepShape(new AzureKeyCandidate(7));
