/**
 * Sensitive assignments: `NAME=value`, `NAME: value`, `"name": "value"`, `name := value`,
 * `name => value`, where NAME contains a sensitive keyword. Only the value is redacted
 * (`DB_PASSWORD=[REDACTED:secret-assignment]`). The candidate never holds a byte: while it
 * reads the name and separator nothing it has seen can become part of the value, and the
 * value is redacted from its first byte, to its closing quote or the first byte that ends
 * an unquoted value, however long it is. So an assignment split anywhere across writes
 * is caught with nothing exposed.
 *
 * Plural or longer words (`tokens`, `tokenizer`, `secretary`: the keyword followed by a
 * lowercase letter, or by `s`/`S` and the end of the name) are not sensitive: `max_tokens`
 * stays readable.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText('{"api_key": "abc123"} DB_PASSWORD=hunter2 max_tokens=10');
 * // '{"api_key": "[REDACTED:secret-assignment]"} DB_PASSWORD=[REDACTED:secret-assignment] max_tokens=10'
 * ```
 */
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { BLANK, byteSet } from "./byte-classes.js";
import { keywordSpellings } from "./keyword-spellings.js";

const NAME = byteSet("A-Za-z0-9_.-");
/** Bytes that end an unquoted value (besides whitespace and quotes). */
const VALUE_END = byteSet(",;&})]");
const QUOTES = byteSet("\"'`");
const SPACE = byteSet(" \t\r\n\v\f");
/** Bytes that end an unquoted value. */
const UNQUOTED_END = byteSet(",;&})]\"'` \t\r\n\v\f");
const MAX_NAME = 64;
const MAX_BLANKS = 16;

const Phase = {
  First: 0,
  Plural: 1,
  Name: 2,
  AfterName: 3,
  AfterEquals: 4,
  AfterColon: 5,
  ValueStart: 6,
  QuotedFirst: 7,
  Quoted: 8,
  Unquoted: 9,
} as const;

/** One assignment candidate (a class: one allocation per anchor occurrence). */
class AssignmentCandidate implements Candidate {
  readonly anchorLength: number;
  phase: number = Phase.First;
  /** Bytes seen after the anchor. */
  offset = 0;
  /** First byte (offset from the anchor) this candidate may redact. */
  claim: number;
  count = 0;
  keyQuoted = false;
  quote = 0;
  escaped = false;

  constructor(anchorLength: number) {
    this.anchorLength = anchorLength;
    this.claim = anchorLength;
  }

  get from(): number {
    return this.claim;
  }

  next(byte: number): Verdict {
    this.offset++;
    const here = this.anchorLength + this.offset - 1; // this byte's offset from the anchor's start
    for (;;) {
      switch (this.phase) {
        case Phase.First:
          if (byte >= 0x61 && byte <= 0x7a && byte !== 0x73) return Verdict.Reject;
          this.phase = byte === 0x73 || byte === 0x53 ? Phase.Plural : Phase.Name;
          if (this.phase === Phase.Plural) {
            this.claim = here + 1;
            return Verdict.Hold;
          }
          continue;
        case Phase.Plural:
          if (byte >= 0x61 && byte <= 0x7a) return Verdict.Reject;
          if (NAME[byte] !== 1 || byte === 0x2e || byte === 0x2d) return Verdict.Reject;
          this.phase = Phase.Name;
          continue;
        case Phase.Name:
          if (NAME[byte] === 1) {
            if (++this.count > MAX_NAME) return Verdict.Reject;
            this.claim = here + 1;
            return Verdict.Hold;
          }
          this.phase = Phase.AfterName;
          this.count = 0;
          continue;
        case Phase.AfterName:
          this.claim = here + 1;
          if ((byte === 0x22 || byte === 0x27) && !this.keyQuoted) {
            this.keyQuoted = true;
            return Verdict.Hold;
          }
          if (BLANK[byte] === 1) return ++this.count > MAX_BLANKS ? Verdict.Reject : Verdict.Hold;
          if (byte === 0x3d) this.phase = Phase.AfterEquals;
          else if (byte === 0x3a) this.phase = Phase.AfterColon;
          else return Verdict.Reject;
          this.count = 0;
          return Verdict.Hold;
        case Phase.AfterEquals:
          // "==" is a comparison, "=>" a map arrow.
          if (byte === 0x3d) return Verdict.Reject;
          this.phase = Phase.ValueStart;
          if (byte === 0x3e) {
            this.claim = here + 1;
            return Verdict.Hold;
          }
          continue;
        case Phase.AfterColon:
          // "::" is a scope operator, ":=" an assignment.
          if (byte === 0x3a) return Verdict.Reject;
          this.phase = Phase.ValueStart;
          if (byte === 0x3d) {
            this.claim = here + 1;
            return Verdict.Hold;
          }
          continue;
        case Phase.ValueStart:
          this.claim = here + 1;
          if (BLANK[byte] === 1) return ++this.count > MAX_BLANKS ? Verdict.Reject : Verdict.Hold;
          if (QUOTES[byte] === 1) {
            this.quote = byte;
            this.phase = Phase.QuotedFirst;
            return Verdict.Hold;
          }
          if (SPACE[byte] === 1 || VALUE_END[byte] === 1) return Verdict.Reject;
          this.phase = Phase.Unquoted;
          this.claim = here;
          return Verdict.Redact;
        case Phase.QuotedFirst:
          if (byte === this.quote || byte === 0x0a || byte === 0x0d) return Verdict.Reject;
          this.phase = Phase.Quoted;
          this.claim = here;
          this.escaped = byte === 0x5c;
          return Verdict.Redact;
        case Phase.Quoted:
          if (this.escaped) {
            this.escaped = false;
            return Verdict.Redact;
          }
          if (byte === this.quote || byte === 0x0a || byte === 0x0d) return Verdict.Reject;
          this.escaped = byte === 0x5c;
          return Verdict.Redact;
        case Phase.Unquoted:
          if (SPACE[byte] === 1 || QUOTES[byte] === 1 || VALUE_END[byte] === 1)
            return Verdict.Reject;
          return Verdict.Redact;
      }
    }
  }

  skip(input: Uint8Array, start: number, end: number): number {
    let i = start;
    if (this.phase === Phase.Unquoted) {
      while (i < end && UNQUOTED_END[input[i]!] !== 1) i++;
    } else if (this.phase === Phase.Quoted) {
      for (; i < end; i++) {
        if (this.escaped) {
          this.escaped = false;
          continue;
        }
        const byte = input[i]!;
        if (byte === this.quote || byte === 0x0a || byte === 0x0d) break;
        this.escaped = byte === 0x5c;
      }
    } else if (this.phase === Phase.Name) {
      const stop = Math.min(end, start + (MAX_NAME - this.count));
      while (i < stop && NAME[input[i]!] === 1) i++;
      this.count += i - start;
      this.claim = this.anchorLength + this.offset + (i - start);
    }
    this.offset += i - start;
    return i;
  }

  stateKey(): number | undefined {
    if (this.phase === Phase.Unquoted) return 1;
    if (this.phase === Phase.Quoted) return 2 + this.quote * 2 + (this.escaped ? 1 : 0);
    return undefined;
  }

  end(): Verdict {
    return Verdict.Reject;
  }
}

/**
 * An assignment rule for names containing one of `keywords`, each a list of words spelled
 * every usual way (see `keyword-spellings.ts`).
 */
export function assignmentRule(
  name: string,
  keywords: readonly (readonly string[])[],
): MatcherRule {
  return {
    kind: "matcher",
    name,
    anchors: [...new Set(keywords.flatMap(keywordSpellings))],
    maxLength: 16,
    start(match): Candidate {
      return new AssignmentCandidate(match.length);
    },
  };
}
