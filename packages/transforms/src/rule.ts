/**
 * The redaction rule API: what a user writes to teach the redactor a new secret shape.
 * A rule is one of three kinds, from the simplest to the most general:
 *
 * - {@link LiteralRule}: a set of exact strings (whitespace runs inside a value match any
 *   whitespace run). They join the one automaton that also holds known values, so a rule
 *   with a thousand strings costs no more per byte than one with a single string.
 * - {@link PatternRule}: a regular expression tried at every occurrence of an anchor, with
 *   a declared maximum match length so the redactor knows how long it may hold bytes.
 * - {@link MatcherRule}: a custom incremental matcher started at every anchor occurrence
 *   and fed one byte at a time; it says after each byte whether it is still undecided
 *   (and from where it might redact), redacting, or done.
 *
 * Anchors are found by one shared automaton, so the per-byte cost does not grow with the
 * number of rules; only live candidates see bytes.
 *
 * @example
 * ```ts
 * import { createRedactor, Verdict, type MatcherRule } from "@spool/transforms";
 * // Redact "acme-" followed by 12 or more digits, e.g. acme-123456789012.
 * const acme: MatcherRule = {
 *   kind: "matcher",
 *   name: "acme-key",
 *   anchors: ["acme-"],
 *   maxLength: 32,
 *   start() {
 *     let digits = 0;
 *     return {
 *       from: 0,
 *       next(byte) {
 *         if (byte < 0x30 || byte > 0x39) return digits >= 12 ? Verdict.Close : Verdict.Reject;
 *         digits++;
 *         return digits >= 12 ? Verdict.Redact : Verdict.Hold;
 *       },
 *       end: () => (digits >= 12 ? Verdict.Close : Verdict.Reject),
 *     };
 *   },
 * };
 * const redactor = createRedactor({ rules: [acme], builtins: false });
 * ```
 */
import { SpoolError } from "@spool/core/runtime";
import { classBodyProblem } from "./rules/byte-classes.js";

/**
 * What a candidate of a {@link MatcherRule} says after each byte: hold (undecided),
 * redact (a secret, maybe more follows), close (done, redact up to here) or reject.
 *
 * @category redaction
 * @example
 * ```ts
 * import { Verdict, type Candidate } from "@spool/transforms";
 * let digits = 0;
 * const candidate: Candidate = {
 *   from: 0,
 *   next: (byte) => (byte >= 0x30 && byte <= 0x39 ? (++digits >= 12 ? Verdict.Redact : Verdict.Hold) : Verdict.Close),
 *   end: () => (digits >= 12 ? Verdict.Close : Verdict.Reject),
 * };
 * ```
 */
export const Verdict = {
  /** Undecided: bytes from offset `from` on may still be redacted, so they are held. */
  Hold: 0,
  /**
   * Bytes from offset `from` through this byte are redacted; more may follow. When the
   * candidate sets `to`, only those up to `to` (excluded) are, and the rest through this
   * byte are released: one value of several redacted, the candidate reads on.
   */
  Redact: 1,
  /** Done: bytes from offset `from` up to this byte (excluded) are redacted, if any. */
  Close: 2,
  /** Done: nothing more is redacted. */
  Reject: 3,
} as const;
export type Verdict = (typeof Verdict)[keyof typeof Verdict];

/**
 * Where a candidate starts: the anchor that matched and what came before it (what
 * {@link MatcherRule.start} is given).
 *
 * @category redaction
 * @example
 * ```ts
 * import type { AnchorMatch } from "@spool/transforms";
 * const atWordStart = (match: AnchorMatch) => match.before === -1 || !/[A-Za-z0-9]/.test(String.fromCharCode(match.before));
 * ```
 */
export interface AnchorMatch {
  /** The anchor as declared in the rule. */
  readonly anchor: string;
  /** Bytes the anchor occupied in the input (differs from the declaration when whitespace runs or case differ). */
  readonly length: number;
  /** The byte just before the anchor, or -1 at the start of input (for word-boundary checks). */
  readonly before: number;
  /**
   * For a rule with {@link MatcherRule.lookbehind}: the bytes of its class just before the
   * anchor (latin1, at most `lookbehind.length`, nearest last), held back for it. @default ""
   */
  readonly lead?: string;
  /**
   * With `lead`: its first byte as a word-boundary check sees it, through a string escape
   * or percent-encoding as {@link AnchorMatch.before} (the `n` of `\n` reads as a line
   * feed). @default undefined
   */
  readonly leadFirst?: number;
  /**
   * The byte before the name the anchor stands in (the run of `A-Za-z0-9_-` bytes just
   * before it, at most 24), as {@link AnchorMatch.before} reads it: `before` when no name
   * byte precedes the anchor, -1 at the start of input, a name byte for a longer name
   * (`https://x-access-token:` gives `/` for the anchor `token`). @default `before`
   */
  readonly nameBefore?: number;
  /**
   * True when `before` is `-` and a letter or a digit stands just before it: the anchor
   * continues a name or a digest (`sha256=qaN-fw_…`) rather than starting a word.
   * @default false
   */
  readonly joined?: boolean;
  /**
   * True when the name the anchor stands in follows `::`, a scope's or a type's
   * (`AWS::IAM::AccessKey`, `Config::API_KEY`). @default false
   */
  readonly scoped?: boolean;
  /**
   * For the built-in rules that ask for it: the name bytes (`A-Za-z0-9_-`, latin1) before the
   * anchor in the name it stands in, at most 24 (`Next` in `NextToken`, `next_page_` in
   * `next_page_token`); when the anchor starts the name after a space, the word before it and
   * the space (`page ` in `Next page token:`), else "". @default undefined
   */
  readonly namePrefix?: string | undefined;
  /**
   * For the built-in rules that ask for it: the letters of the word just before the anchor,
   * or before it and one space (`License` in `License key:`), "" when there is none.
   * @default undefined
   */
  readonly wordBefore?: string;
}

/**
 * One live match attempt of a {@link MatcherRule}. Offsets count bytes from the first byte
 * of the anchor (the anchor's own bytes are offsets `0 .. length - 1`).
 *
 * @category redaction
 * @example
 * ```ts
 * import { Verdict, type AnchorMatch, type Candidate } from "@spool/transforms";
 * // Redact the 16 bytes after the anchor, whatever they are.
 * const start = (match: AnchorMatch): Candidate => {
 *   let seen = 0;
 *   return {
 *     from: match.length,
 *     next: () => (++seen >= 16 ? Verdict.Close : Verdict.Hold),
 *     end: () => Verdict.Reject,
 *   };
 * };
 * ```
 */
export interface Candidate {
  /**
   * Offset of the first byte this candidate may still redact (after `Hold`) or redacts
   * (after `Redact` / `Close`); read after every call. A value past the current byte
   * means "nothing held". It never moves backwards: the redactor clamps it.
   */
  readonly from: number;
  /** After `Close`, the offset where the redacted span ends; the current byte when absent. */
  readonly to?: number | undefined;
  /** The next byte of input. */
  next(byte: number): Verdict;
  /** End of input: `Close` or `Redact` redact from `from` to the end, anything else nothing. */
  end(): Verdict;
  /**
   * Optional fast path over a run of bytes. Consume `input[start]`, `input[start + 1]`, …
   * (never `input[end]` or beyond) for as long as `next` would return, for each byte, the
   * same verdict it returned last (`Hold` or `Redact`), and stop before the first byte it
   * would not; leave the candidate exactly as if `next` had been called on every consumed
   * byte. `from` may only grow during a run. Return the index of the first byte not
   * consumed (`start` when none). The redactor calls it only after a `next` that returned
   * `Hold` or `Redact`, and then treats the run as that many calls of `next`, so it changes
   * speed, never output (the redactor's property tests check this for the built-in rules).
   */
  skip?(input: Uint8Array, start: number, end: number): number;
  /**
   * Optional key of the candidate's state, for linear time when anchors repeat inside a
   * run a candidate is already redacting (`token=token=token=…`, `xoxb-xoxb-…`). Return a
   * key only in a state where the future is a function of the key alone: two candidates of
   * the same rule, fed the same bytes up to the same byte, with equal keys, must return the
   * same verdicts for any further input, with `from` and `to` naming the same bytes once the
   * redactor clamps them to what each already claimed (so a key is only given where `from`
   * no longer matters). Keys are non-negative integers. The redactor then keeps the
   * older one only, which changes nothing in the output. `undefined`: no key now.
   */
  stateKey?(): number | undefined;
}

interface RuleBase {
  /** Shown in the marker `[REDACTED:<name>]`: letters, digits, `.`, `_`, `:`, `-`. */
  readonly name: string;
}

/**
 * Exact strings to redact wherever they occur.
 *
 * @category redaction
 * @example
 * ```ts
 * import { createRedactor, type LiteralRule } from "@spool/transforms";
 * const rule: LiteralRule = { kind: "literal", name: "staging-password", values: ["Tr0ub4dor&3-staging"] };
 * const redactor = createRedactor({ rules: [rule] });
 * ```
 */
export interface LiteralRule extends RuleBase {
  /** Marks a literal rule. */
  readonly kind: "literal";
  /** The strings (UTF-8). Each must be shorter than the redaction window. */
  readonly values: readonly string[];
}

/**
 * A regular expression tried at each anchor occurrence. It runs once per occurrence, on the
 * text from the anchor's first byte up to the first `stop` byte (included) or `maxLength`
 * bytes, whichever comes first, decoded as latin1 (one character per byte, so write
 * non-ASCII as `\xNN` bytes). It is matched sticky at the anchor: start it with the anchor.
 * The span redacted is the named group `secret` when the pattern has one, else the match.
 * A match still running at `maxLength` (no stop byte seen) is redacted and extended to the
 * next stop byte or whitespace: a token longer than declared fails closed.
 *
 * @category redaction
 * @example
 * ```ts
 * import { createRedactor, type PatternRule } from "@spool/transforms";
 * const rule: PatternRule = {
 *   kind: "pattern",
 *   name: "acme-session",
 *   anchors: ["session="],
 *   pattern: /session=(?<secret>[A-Za-z0-9]{32})/,
 *   maxLength: 48,
 * };
 * const redactor = createRedactor({ rules: [rule] });
 * ```
 */
export interface PatternRule extends RuleBase {
  /** Marks a pattern rule. */
  readonly kind: "pattern";
  /** Literal prefixes that start a candidate. */
  readonly anchors: readonly string[];
  /** Match anchors ignoring ASCII case. @default false */
  readonly ignoreCase?: boolean;
  /** The expression, starting with the anchor; its named group `secret`, if any, is what is redacted. */
  readonly pattern: RegExp;
  /** Most bytes a match spans, from the anchor's first byte; at most the window. */
  readonly maxLength: number;
  /** Bytes that end a candidate early (the pattern is decided there). @default whitespace */
  readonly stop?: string;
}

/**
 * A custom incremental matcher, started at each anchor occurrence: the most general rule,
 * for formats a pattern cannot decide in bounded memory. {@link tokenRule} builds one.
 *
 * @category redaction
 * @example
 * ```ts
 * import { createRedactor, Verdict, type MatcherRule } from "@spool/transforms";
 * const rule: MatcherRule = {
 *   kind: "matcher",
 *   name: "card-ish",
 *   anchors: ["card:"],
 *   maxLength: 32,
 *   start: () => {
 *     let digits = 0;
 *     return {
 *       from: 5,
 *       next: (byte) => (byte >= 0x30 && byte <= 0x39 ? (++digits >= 12 ? Verdict.Redact : Verdict.Hold) : digits >= 12 ? Verdict.Close : Verdict.Reject),
 *       end: () => (digits >= 12 ? Verdict.Close : Verdict.Reject),
 *     };
 *   },
 * };
 * const redactor = createRedactor({ rules: [rule] });
 * ```
 */
export interface MatcherRule extends RuleBase {
  /** Marks a matcher rule. */
  readonly kind: "matcher";
  /** Literal prefixes that start a candidate. */
  readonly anchors: readonly string[];
  /** Match anchors ignoring ASCII case. @default false */
  readonly ignoreCase?: boolean;
  /**
   * Most bytes a candidate holds undecided (from its `from` to the current byte); at most
   * the window. A candidate that holds longer fails closed: what it holds is redacted
   * through the next whitespace byte.
   */
  readonly maxLength: number;
  /**
   * Bytes before the anchor that belong to the secret (a token whose fixed part is in the
   * middle: `<14 characters>.atlasv1.<secret>`). Up to `length` bytes of the class `body`
   * just before any anchor are held back until the anchor is ruled out; a candidate gets
   * them as `match.lead` and its `from` may go as low as minus their count. @default none
   */
  readonly lookbehind?: { readonly length: number; readonly body: string };
  /** A new candidate at an anchor occurrence, or `undefined` to ignore it. */
  start(match: AnchorMatch): Candidate | undefined;
}

/**
 * Any rule a redactor takes in `rules`: a {@link LiteralRule}, a {@link PatternRule} or a
 * {@link MatcherRule}. Checked by {@link validateRule} when the redactor is built.
 *
 * @category redaction
 * @example
 * ```ts
 * import { createRedactor, tokenRule, type RedactionRule } from "@spool/transforms";
 * const rules: RedactionRule[] = [
 *   { kind: "literal", name: "db-password", values: ["correct-horse-battery"] },
 *   tokenRule({ name: "acme-key", prefixes: ["acme_"], body: "A-Za-z0-9", minBody: 24 }),
 * ];
 * const redactor = createRedactor({ rules });
 * ```
 */
export type RedactionRule = LiteralRule | PatternRule | MatcherRule;

/**
 * Most bytes a rule may claim before its anchor (they are held back behind every anchor):
 * an Azure DevOps token's 76 characters before its `AZDO` signature, and the byte before.
 */
export const MAX_LOOKBEHIND = 80;

const RULE_NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

/**
 * Throw a `SPOOL_E_OPTIONS` error (naming the rule and why) unless `rule` is well formed
 * for a window of `window` bytes: a valid name, values and lengths within the window,
 * patterns that start at their anchors. {@link createRedactor} calls it for every rule.
 *
 * @category redaction
 * @example
 * ```ts
 * import { DEFAULT_REDACTION_WINDOW, validateRule } from "@spool/transforms";
 * validateRule({ kind: "literal", name: "bad name!", values: ["x"] }, DEFAULT_REDACTION_WINDOW); // throws SPOOL_E_OPTIONS
 * ```
 */
export function validateRule(rule: RedactionRule, window: number): void {
  const fail = (why: string) => {
    throw new SpoolError(
      "SPOOL_E_OPTIONS",
      "redactor",
      `rule ${JSON.stringify(rule.name)}: ${why}`,
    );
  };
  if (typeof rule.name !== "string" || !RULE_NAME.test(rule.name))
    fail("name must be 1-64 letters, digits, '.', '_', ':' or '-'");
  if (rule.kind === "literal") {
    for (const value of rule.values) {
      const length = Buffer.byteLength(value.trim());
      if (length === 0) fail("an empty literal would match everywhere");
      if (length >= window)
        fail(`a literal of ${length} bytes does not fit the ${window}-byte window`);
    }
    return;
  }
  if (rule.anchors.length === 0) fail("needs at least one anchor");
  for (const anchor of rule.anchors) {
    const length = Buffer.byteLength(anchor);
    if (length === 0 || length > 256) fail("anchors must be 1-256 bytes");
    if (anchor.trim() !== anchor) fail("anchors may not start or end with whitespace");
  }
  if (!Number.isInteger(rule.maxLength) || rule.maxLength < 1 || rule.maxLength > window)
    fail(`maxLength must be an integer from 1 to the window (${window})`);
  if (rule.kind === "matcher" && rule.lookbehind !== undefined) {
    const { length, body } = rule.lookbehind;
    if (!Number.isInteger(length) || length < 1 || length > MAX_LOOKBEHIND)
      fail(`lookbehind.length must be an integer from 1 to ${MAX_LOOKBEHIND}`);
    const problem = classBodyProblem(body);
    if (problem !== null) fail(`lookbehind.body ${JSON.stringify(body)} ${problem}`);
  }
  if (rule.kind === "pattern" && rule.pattern.global)
    fail("pattern must not be global (it is matched once per anchor)");
  if (rule.kind === "pattern") {
    for (const anchor of rule.anchors) {
      if (!mayStartWith(rule.pattern, anchor, rule.ignoreCase ?? false))
        fail(
          `pattern /${rule.pattern.source}/ cannot start at its anchor ${JSON.stringify(anchor)} (it is matched from the anchor's first byte: start it with the anchor)`,
        );
    }
  }
}

/**
 * False when the pattern's first atom surely cannot match the anchor's first character
 * (a pattern matched sticky at the anchor would then match nothing, silently). Opening
 * groups are looked through; a first group with alternatives is not judged.
 */
function mayStartWith(pattern: RegExp, anchor: string, ignoreCase: boolean): boolean {
  let source = pattern.source;
  if (firstGroup(`(${source})`).alternation) return true;
  for (;;) {
    const open = /^(?:\^|\((?:\?:|\?<[A-Za-z_$][\w$]*>)?)/.exec(source);
    if (!open || open[0].length === 0) break;
    if (open[0].startsWith("(")) {
      const group = firstGroup(source);
      if (group.alternation || /^[?*]|^\{0[,}]/.test(source.slice(group.end + 1))) return true;
    }
    source = source.slice(open[0].length);
  }
  const atom =
    /^(?:\[[^\]\\]*(?:\\.[^\]\\]*)*\]|\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|.)|[^|()?*+{])/.exec(
      source,
    );
  if (!atom) return true;
  const quantified = /^[?*]|^\{0[,}]/.test(source.slice(atom[0].length));
  if (quantified) return true; // the first atom may be skipped
  const flags = pattern.flags.replace(/[gy]/g, "") + (ignoreCase && !pattern.ignoreCase ? "i" : "");
  try {
    return new RegExp(`^(?:${atom[0]})`, flags).test(anchor);
  } catch {
    return true;
  }
}

/** The group opening `source`: whether it has a `|` at its own level, and where it closes. */
function firstGroup(source: string): { alternation: boolean; end: number } {
  let depth = 0;
  let alternation = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (c === "[") {
      while (i < source.length && source[i] !== "]") i += source[i] === "\\" ? 2 : 1;
    } else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return { alternation, end: i };
    else if (c === "|" && depth === 1) alternation = true;
  }
  return { alternation: true, end: source.length };
}
