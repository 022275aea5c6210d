/**
 * `terraform output -json` prints every output, sensitive ones included, as
 * `"name": {"sensitive": true, "type": …, "value": …}`: the value of an output marked
 * sensitive is redacted, whatever its name or shape (a string's characters, or a whole
 * number, list or object), and the rest of the document stays. The object is read as JSON
 * from `"sensitive": true` to its `"value"` (strings, escapes and nesting followed), at
 * most {@link MAX_BEFORE_VALUE} bytes; outputs marked `false` stay readable.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText('{"db": {"sensitive": true, "type": "string", "value": "hunter2-prod"}}');
 * // '{"db": {"sensitive": true, "type": "string", "value": "[REDACTED:sensitive-output]"}}'
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { byteSet } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";

/** Most bytes read from the anchor to the value (an output's `type` may be a nested type). */
const MAX_BEFORE_VALUE = 4096;
/** Most bytes of a value that is not a string (a list or an object is redacted whole). */
const MAX_VALUE = 1 << 20;
/** Characters of a key kept: enough for `"sensitive"` (a longer key is neither). */
const KEY_CHARS = 10;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** JSON's whitespace. */
const JSON_SPACE = byteSet(" \t\n\r");

const Phase = {
  /** Inside the output's object, before its `"value"` key. */
  Seek: 0,
  /** After `"value"`: blanks and the `:`. */
  Colon: 1,
  /** After the `:`: blanks, then the value. */
  ValueStart: 2,
  /** A string value's characters (redacted up to its closing quote). */
  String: 3,
  /** A value of another kind (redacted up to the `,` or `}` after it). */
  Other: 4,
  /** A list or an object value closed with the byte before: done. */
  Done: 5,
} as const;

export const SENSITIVE_OUTPUT_RULE: MatcherRule = {
  kind: "matcher",
  name: "sensitive-output",
  anchors: ['"sensitive": true', '"sensitive":true'],
  maxLength: MAX_BEFORE_VALUE + 2,
  start: (match) => new SensitiveOutputCandidate(match.length),
};

/** One sensitive output, from its `"sensitive": true` to the end of its value. */
class SensitiveOutputCandidate implements Candidate {
  phase: number = Phase.Seek;
  here: number;
  claim: number;
  /** Nesting inside the output's object (0: its own keys). */
  depth = 0;
  inString = false;
  escaped = false;
  /** The string just read at depth 0 (a key, at most `"value"`'s length). */
  key = "";
  /** Bytes of the value read (not a string). */
  length = 0;

  constructor(anchorLength: number) {
    this.here = anchorLength - 1;
    this.claim = anchorLength;
  }

  get from(): number {
    return this.claim;
  }

  next(byte: number): Verdict {
    const here = ++this.here;
    switch (this.phase) {
      case Phase.Seek:
        this.claim = here + 1;
        if (here > MAX_BEFORE_VALUE) return Verdict.Reject;
        return this.seek(byte);
      case Phase.Colon:
        this.claim = here + 1;
        if (JSON_SPACE[byte] === 1) return Verdict.Hold;
        if (byte !== 0x3a) {
          this.phase = Phase.Seek;
          return this.seek(byte);
        }
        this.phase = Phase.ValueStart;
        return Verdict.Hold;
      case Phase.ValueStart:
        this.claim = here + 1;
        if (JSON_SPACE[byte] === 1) return Verdict.Hold;
        if (byte === QUOTE) {
          this.phase = Phase.String;
          return Verdict.Hold;
        }
        if (byte === 0x2c || byte === 0x7d) return Verdict.Reject;
        this.claim = here;
        this.phase = Phase.Other;
        return this.other(byte);
      case Phase.String:
        if (this.escaped) {
          this.escaped = false;
          return Verdict.Redact;
        }
        if (byte === QUOTE) return Verdict.Close;
        if (byte === BACKSLASH) this.escaped = true;
        return Verdict.Redact;
      case Phase.Other:
        return this.other(byte);
      default:
        return Verdict.Close;
    }
  }

  /** A byte of the output's object before its value: follow strings and nesting, find `"value"`. */
  private seek(byte: number): Verdict {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (byte === BACKSLASH) this.escaped = true;
      else if (byte === QUOTE) {
        this.inString = false;
        if (this.depth === 0 && this.key === "value") this.phase = Phase.Colon;
        // The object's `"sensitive"` again: the last one says (as JSON parsers read a
        // repeated key), and one marked true has its own candidate from there; this one
        // stops, so a run of them holds one candidate, not one for each before it.
        if (this.depth === 0 && this.key === "sensitive") return Verdict.Reject;
      } else if (this.key.length < KEY_CHARS) this.key += String.fromCharCode(byte);
      return Verdict.Hold;
    }
    if (byte === QUOTE) {
      this.inString = true;
      this.key = "";
    } else if (byte === 0x7b || byte === 0x5b) this.depth++;
    else if (byte === 0x7d || byte === 0x5d) {
      // The output's object closed without a value.
      if (--this.depth < 0) return Verdict.Reject;
    }
    return Verdict.Hold;
  }

  /** A byte of a value that is not a string: redacted until a `,` or `}` outside it. */
  private other(byte: number): Verdict {
    if (++this.length > MAX_VALUE) return Verdict.Close;
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (byte === BACKSLASH) this.escaped = true;
      else if (byte === QUOTE) this.inString = false;
      return Verdict.Redact;
    }
    if (byte === QUOTE) this.inString = true;
    else if (byte === 0x7b || byte === 0x5b) this.depth++;
    else if (byte === 0x7d || byte === 0x5d) {
      if (this.depth === 0) return Verdict.Close;
      this.depth--;
      // A list or an object ends with its bracket: redacted with it, nothing after.
      if (this.depth === 0) this.phase = Phase.Done;
    } else if (this.depth === 0 && (byte === 0x2c || JSON_SPACE[byte] === 1)) return Verdict.Close;
    return Verdict.Redact;
  }

  end(): Verdict {
    const redacting = (this.phase === Phase.Other && this.length > 0) || this.phase === Phase.Done;
    return redacting ? Verdict.Close : Verdict.Reject;
  }
}

keepShape(new SensitiveOutputCandidate(17));
