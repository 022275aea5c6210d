/**
 * A literal compared with a secret's name written the other way round, the literal first
 * (`if ("Vq7p!Lm2x" == password)`, `'Vq7p!Lm2x' !== req.body.token`, Java's and C#'s
 * `"Vq7p!Lm2x".equals(password)`): the literal is the secret, as in `password ==
 * "Vq7p!Lm2x"` (the keyword rule's comparison). The anchor is the literal's closing quote
 * and the operator, so the literal is read behind it (`MatcherRule.lookbehind`: the
 * redactor holds back the last bytes without a blank); the name after the operator decides.
 *
 * The name is a variable, a member, a path to one or a getter (`password`, `this.apiKey`,
 * `$user->password`, `Config::TOKEN`, `user.getPassword()`), whose last part ends in a
 * secret's keyword. The
 * literal is judged as after the keyword: 4+ bytes, no blank, a digit or a sign besides
 * letters, no placeholder (`"$x"`, `"{{pw}}"`, `"<token>"`); `"return" == token` (a lexer
 * comparing its token with a keyword) and `"" == password` stay. Inside a JSON string the
 * quotes are escaped (`\"Vq7p!Lm2x\" == password`): the backslashes before the closing
 * quote are kept with it, and as many must stand before the opening one.
 *
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * redactText('if ("Vq7p!Lm2x" == password) {}');
 * // 'if ("[REDACTED:secret-assignment]" == password) {}'
 * ```
 */
import { type AnchorMatch, type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { ALNUM, BLANK, byteSet } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";

/** Most bytes of the literal (and the quote and backslashes before it) read behind the anchor. */
const MAX_LITERAL = 72;
/** Most bytes of the name after the operator. */
const MAX_NAME = 96;
/** Most blanks between the operator and the name. */
const MAX_BLANKS = 4;
/** Bytes of a name, besides the two-byte joins `->`, `?.` and `::`. */
const NAME = byteSet("A-Za-z0-9_$.");
/** By first byte of a two-byte join (`-`, `?`, `:`): the byte it needs next, 0 for none. */
const JOIN_SECOND = new Uint8Array(256);
JOIN_SECOND[0x2d] = 0x3e; // ->
JOIN_SECOND[0x3f] = 0x2e; // ?.
JOIN_SECOND[0x3a] = 0x3a; // ::
/** Letters, `.`, `_`, `-`: a literal of these alone is a word or a name, not a secret. */
const WORD = byteSet("A-Za-z._-");
/** First bytes of a placeholder or a template. */
const PLACEHOLDER_START = byteSet("$%<");
/** A name's last part ends in one of these (lowercase, `_` and `-` dropped). */
const SECRET_ENDINGS = [
  "password",
  "passwd",
  "passphrase",
  "secret",
  "token",
  "apikey",
  "accesskey",
  "secretkey",
  "privatekey",
  "authkey",
];
/** …or is one of these whole. */
const SECRET_NAMES = new Set(["pw", "pwd", "pass"]);

const BACKSLASH = 0x5c;
const EQUALS = 0x3d;
const OPEN_PAREN = 0x28;
const OPEN_BRACKET = 0x5b;
const CLOSE_PAREN = 0x29;
/** A name whose last part is a getter (`getPassword`, `GetApiKey`), read when `()` follows. */
const GETTER = /(?:^|\.|->|::)\$?[Gg]et[A-Z_][A-Za-z0-9_]*$/;

/** The literal before an anchor (its bytes as offsets from the anchor), or null when it is none. */
export interface Literal {
  /** Offset of the literal's first byte (negative). */
  readonly from: number;
  /** Offset just after its last byte: 0, or minus the backslashes escaping the closing quote. */
  readonly to: number;
}

/**
 * The literal that `lead` (the bytes without a blank before the anchor, nearest last)
 * ends with, opened by `quote`; null when it is not one that may be a secret.
 */
export function literalOf(lead: string, quote: string): Literal | null {
  const open = lead.lastIndexOf(quote);
  if (open < 0) return null;
  let body = lead.slice(open + 1);
  // Escaped quotes (`\"…\"`): the closing quote's backslashes stay with it, and the
  // opening quote must have as many.
  let escapes = 0;
  while (escapes < body.length && body.charCodeAt(body.length - 1 - escapes) === BACKSLASH)
    escapes++;
  let before = 0;
  while (before < open && lead.charCodeAt(open - 1 - before) === BACKSLASH) before++;
  if (before !== escapes) return null;
  body = body.slice(0, body.length - escapes);
  if (!credibleLiteral(body)) return null;
  return { from: -(body.length + escapes), to: -escapes };
}

/** The keyword rule's test of a literal compared with a secret (see `assignment-rule.ts`). */
function credibleLiteral(v: string): boolean {
  if (v.length < 4 || v.includes("\\")) return false;
  const first = v.charCodeAt(0);
  if (PLACEHOLDER_START[first] === 1 || v.startsWith("{{")) return false;
  if (v.startsWith("[REDACTED") || v.includes("...")) return false;
  let alnum = false;
  let notWord = false;
  let same = true;
  for (let i = 0; i < v.length; i++) {
    const b = v.charCodeAt(i);
    if (ALNUM[b] === 1) alnum = true;
    if (WORD[b] !== 1) notWord = true;
    if (b !== first) same = false;
  }
  if (same || !alnum || !notWord) return false;
  return !/^https?:\/\/[^@]*$/.test(v);
}

/** True when `name`'s last part names a secret (`password`, `this.apiKey`, `$u->pw`). */
export function namesSecret(name: string): boolean {
  const parts = name.split(/\.|->|::|\?\./);
  const last = parts[parts.length - 1]!.replace(/^\$/, "").toLowerCase().replace(/[_-]/g, "");
  if (SECRET_NAMES.has(last)) return true;
  return SECRET_ENDINGS.some((k) => last.endsWith(k));
}

/** Where a candidate stands after its anchor. */
const Part = {
  /** After `==`/`!=`: one more `=` may follow (`===`, `!==`). */
  Operator: 0,
  Blanks: 1,
  Name: 2,
  /** The first byte of a join (`-`, `?`, `:`) was read: its second must follow. */
  Join: 3,
  /** A getter's `(` was read (`user.getPassword(`): its `)` must follow. */
  Getter: 4,
  /** After the getter's `()`: the name has ended. */
  Called: 5,
} as const;
type Part = (typeof Part)[keyof typeof Part];

/** Reads the operator's rest and the name after it; the literal was read at its start. */
class ReversedComparisonCandidate implements Candidate {
  readonly from: number;
  readonly to: number;
  /** The anchor is a call (`".equals(`): the name must close it. */
  private readonly call: boolean;
  private part: Part;
  private blanks = 0;
  private name = "";
  /** While in {@link Part.Join}: the byte the join needs next. */
  private join = 0;

  constructor(literal: Literal, call: boolean) {
    this.from = literal.from;
    this.to = literal.to;
    this.call = call;
    this.part = call ? Part.Blanks : Part.Operator;
  }

  next(byte: number): Verdict {
    if (this.part === Part.Operator) {
      this.part = Part.Blanks;
      if (byte === EQUALS) return Verdict.Hold;
    }
    if (this.part === Part.Blanks) {
      if (BLANK[byte] === 1) return ++this.blanks > MAX_BLANKS ? Verdict.Reject : Verdict.Hold;
      this.part = Part.Name;
    }
    if (this.part === Part.Getter) {
      this.part = Part.Called;
      return byte === CLOSE_PAREN ? Verdict.Hold : Verdict.Reject;
    }
    if (this.part === Part.Called) return this.decide(byte);
    if (this.part === Part.Join) {
      if (byte !== this.join) return this.decide(byte);
      this.part = Part.Name;
    } else if (byte === OPEN_PAREN || byte === OPEN_BRACKET) {
      // A getter's call (`getPassword()`); any other call or a subscript is no secret's name.
      if (byte === OPEN_BRACKET || !GETTER.test(this.name)) return Verdict.Reject;
      this.part = Part.Getter;
      return Verdict.Hold;
    } else if (NAME[byte] !== 1) {
      const second = JOIN_SECOND[byte]!;
      if (second === 0 || this.name === "") return this.decide(byte);
      this.join = second;
      this.part = Part.Join;
    }
    if (this.name.length >= MAX_NAME) return Verdict.Reject;
    this.name += String.fromCharCode(byte);
    return Verdict.Hold;
  }

  /** The name ended before `byte` (-1: the input ended). */
  private decide(byte: number): Verdict {
    // A join's first byte with no second after it ends the name (`password:` in Python).
    const name = (this.part === Part.Join ? this.name.slice(0, -1) : this.name).replace(/\.+$/, "");
    if (this.call && byte !== CLOSE_PAREN) return Verdict.Reject;
    return name !== "" && namesSecret(name) ? Verdict.Close : Verdict.Reject;
  }

  end(): Verdict {
    const named = this.part === Part.Name || this.part === Part.Join || this.part === Part.Called;
    return named ? this.decide(-1) : Verdict.Reject;
  }
}

const OPERATORS = ["==", " ==", "!=", " !="];
const CALLS = [".equals(", ".equalsIgnoreCase(", ".Equals("];

/**
 * Literals compared with a secret's name, the literal first (see the file's comment).
 *
 * @category redaction
 */
export const REVERSED_COMPARISON_RULE: MatcherRule = {
  kind: "matcher",
  name: "secret-assignment",
  anchors: [...OPERATORS.flatMap((op) => [`"${op}`, `'${op}`]), ...CALLS.map((call) => `"${call}`)],
  lookbehind: { length: MAX_LITERAL, body: "!-~" },
  maxLength: MAX_LITERAL + MAX_BLANKS + MAX_NAME + 24,
  start: (match: AnchorMatch): Candidate | undefined => {
    const quote = match.anchor[0]!;
    const literal = literalOf(match.lead ?? "", quote);
    if (literal === null) return undefined;
    return new ReversedComparisonCandidate(literal, match.anchor.includes("("));
  },
};

keepShape(new ReversedComparisonCandidate({ from: -4, to: 0 }, false));
