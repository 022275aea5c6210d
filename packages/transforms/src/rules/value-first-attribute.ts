/**
 * An element's `value` attribute written before the attribute that names it, which XML and
 * HTML allow in any order (`<add value="…" key="DbPassword"/>`, `<property value="…"
 * name="db.password"/>`, `<input value="…" type="password">`): the value is the secret, as in
 * `<add key="DbPassword" value="…"/>` (the keyword rule's). The anchor is the value's closing
 * quote and the next attribute's name (`" name`, `' key`, `" type`), so the value is read
 * behind it (`MatcherRule.lookbehind`), and it must be the whole `value="…"` attribute after
 * a blank; the name's attribute decides: a `name` or `key` whose last part ends in a
 * secret's keyword (`password`, `apiKey`, `db.password`), or the `type` `password`.
 *
 * The value is judged as a literal compared with a secret (`reversed-comparison.ts`): 4+
 * bytes without a blank, a digit or a sign besides letters, no placeholder. Inside a JSON
 * string the quotes are escaped (`value=\"…\" name=\"…\"`).
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText('<add value="Vq7p!Lm2x" key="DbPassword"/>');
 * // '<add value="[REDACTED:secret-assignment]" key="DbPassword"/>'
 * ```
 */
import { type AnchorMatch, type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { BLANK } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";
import { type Literal, literalOf, namesSecret } from "./reversed-comparison.js";

/** Most bytes of the value (and its quotes and backslashes) read behind the anchor. */
const MAX_VALUE = 72;
/** Most bytes of the naming attribute's value. */
const MAX_NAME = 64;
/** Most blanks around the naming attribute's `=`. */
const MAX_BLANKS = 4;
const BACKSLASH = 0x5c;
const EQUALS = 0x3d;

/** Where a candidate stands after its anchor. */
const Part = { Equals: 0, Open: 1, Name: 2 } as const;
type Part = (typeof Part)[keyof typeof Part];

/** Reads the naming attribute's `=` and quoted value; the value was read at its start. */
class ValueFirstCandidate implements Candidate {
  readonly from: number;
  readonly to: number;
  /** The naming attribute is `type`: only `password` names a secret. */
  private readonly typed: boolean;
  private part: Part = Part.Equals;
  private blanks = 0;
  private quote = 0;
  private name = "";

  constructor(literal: Literal, typed: boolean) {
    this.from = literal.from;
    this.to = literal.to;
    this.typed = typed;
  }

  next(byte: number): Verdict {
    if (BLANK[byte] === 1 && this.part !== Part.Name)
      return ++this.blanks > MAX_BLANKS ? Verdict.Reject : Verdict.Hold;
    if (this.part === Part.Equals) {
      this.part = Part.Open;
      return byte === EQUALS ? Verdict.Hold : Verdict.Reject;
    }
    if (this.part === Part.Open) {
      // The quote, escaped inside a string (`\"`).
      if (byte === BACKSLASH) return ++this.blanks > MAX_BLANKS ? Verdict.Reject : Verdict.Hold;
      if (byte !== 0x22 && byte !== 0x27) return Verdict.Reject;
      this.quote = byte;
      this.part = Part.Name;
      return Verdict.Hold;
    }
    if (byte === this.quote || byte === BACKSLASH) return this.decide();
    if (BLANK[byte] === 1 || this.name.length >= MAX_NAME) return Verdict.Reject;
    this.name += String.fromCharCode(byte);
    return Verdict.Hold;
  }

  private decide(): Verdict {
    const names = this.typed ? this.name.toLowerCase() === "password" : namesSecret(this.name);
    return names ? Verdict.Close : Verdict.Reject;
  }

  end(): Verdict {
    return Verdict.Reject;
  }
}

/** The attributes that name the value, after its closing quote and a blank. */
const NAMING = ["name", "key", "type"];

/**
 * An element's value given before the attribute that names it (see the file's comment).
 *
 * @category redaction
 */
export const VALUE_FIRST_ATTRIBUTE_RULE: MatcherRule = {
  kind: "matcher",
  name: "secret-assignment",
  anchors: NAMING.flatMap((attribute) => [`" ${attribute}`, `' ${attribute}`]),
  lookbehind: { length: MAX_VALUE, body: "!-~" },
  maxLength: MAX_VALUE + 2 * MAX_BLANKS + MAX_NAME + 8,
  start: (match: AnchorMatch): Candidate | undefined => {
    const quote = match.anchor[0]!;
    const lead = match.lead ?? "";
    const literal = literalOf(lead, quote);
    if (literal === null) return undefined;
    // The whole `value=` attribute, after a blank: the run's first bytes (`value=\"` inside
    // a string, its quote's backslashes before it).
    const attribute = lead.slice(0, lead.length + literal.from).replace(/\\*.$/, "");
    if (attribute.toLowerCase() !== "value=") return undefined;
    return new ValueFirstCandidate(literal, match.anchor.endsWith("type"));
  },
};

keepShape(new ValueFirstCandidate({ from: -4, to: 0 }, false));
