/**
 * Compile redaction rules once: known values (with their encoded forms), literal rules and
 * every rule's anchors go into two automata (one exact with whitespace runs collapsed, one
 * ASCII case-folded for case-insensitive anchors). The result is immutable and shared by
 * every redactor built from it (stdout, stderr, labels), so a thousand known secrets are
 * compiled once per capture, not once per stream.
 *
 * @example
 * ```ts
 * import { compileRedaction, createRedactor, redactText } from "@spool/transforms";
 * const compiled = compileRedaction({ knownValues: ["correct-horse-battery"] });
 * const stdout = createRedactor(compiled);
 * const stderr = createRedactor(compiled);
 * redactText("label correct-horse-battery", compiled); // "label [REDACTED:known-value]"
 * ```
 */

import { readFileSync } from "node:fs";
import { SpoolError } from "@spool/core/runtime";
import {
  type Automaton,
  type AutomatonOptions,
  buildAutomaton,
  isWhitespaceByte,
  type Needle,
} from "./aho-corasick.js";
import { automatonKey, readAutomatonImage, writeAutomatonImage } from "./automaton-image.js";
import { BUILTIN_RULES } from "./builtin-rules.js";
import { hexViewFits } from "./hex-runs.js";
import { checkKnownValue, type KnownValue, knownValueForms } from "./known-values.js";
import { NeedlePool } from "./needle-pool.js";
import {
  type AnchorMatch,
  type Candidate,
  type PatternRule,
  type RedactionRule,
  Verdict,
  validateRule,
} from "./rule.js";
import { ALNUM, byteSet } from "./rules/byte-classes.js";
import { namePrefixOf, notAfterOf, notBeforeOf, wordBeforeOf } from "./rules/not-before.js";
import { buildStartFilter, type StartFilter } from "./start-filter.js";

/** Deepest state of the exact automaton with a dense transition row. */
const DENSE_DEPTH = 3;

/**
 * Default bytes a redactor may hold undecided per stream (8 KiB): the longest secret it can
 * recognise whole. Raise `window` for longer rules.
 *
 * @category redaction
 * @example
 * ```ts
 * import { createRedactor, DEFAULT_REDACTION_WINDOW } from "@spool/transforms";
 * const redactor = createRedactor({ window: 4 * DEFAULT_REDACTION_WINDOW });
 * ```
 */
export const DEFAULT_REDACTION_WINDOW = 8192;

/**
 * What a redactor redacts: built-in rules, your rules, known secret values, and how much
 * it may hold undecided. Taken by {@link createRedactor}, {@link compileRedaction} and
 * `redactText`.
 *
 * @category redaction
 * @example
 * ```ts
 * import { createRedactor, tokenRule, type RedactionOptions } from "@spool/transforms";
 * const options: RedactionOptions = {
 *   rules: [tokenRule({ name: "acme-key", prefixes: ["acme_"], body: "A-Za-z0-9", minBody: 24 })],
 *   knownValues: [{ value: "correct-horse-battery", name: "db-password" }],
 * };
 * const redactor = createRedactor(options);
 * ```
 */
export interface RedactionOptions {
  /** Most bytes held undecided per stream; a candidate still undecided there is omitted. @default 8192 */
  readonly window?: number;
  /** Apply the built-in credential rules. @default true */
  readonly builtins?: boolean;
  /** Extra rules, applied with the built-ins. @default [] */
  readonly rules?: readonly RedactionRule[];
  /** Known secret values (strings or {@link KnownValue}s), matched with their encoded forms. @default [] */
  readonly knownValues?: readonly (KnownValue | string)[];
}

/**
 * Reads the bytes a candidate holds, for pattern rules. Positions are absolute stream
 * offsets. Met only when implementing a {@link CompiledAnchor} by hand.
 *
 * @category redaction
 * @example
 * ```ts
 * import type { HeldText } from "@spool/transforms";
 * declare const held: HeldText;
 * const text = held.latin1(100, 140); // 40 held bytes, one character per byte
 * ```
 */
export interface HeldText {
  latin1(start: number, end: number): string;
}

/**
 * One anchor of one rule, as the redactor starts it (part of a {@link CompiledRedaction}).
 *
 * @category redaction
 * @example
 * ```ts
 * import { compileRedaction } from "@spool/transforms";
 * const compiled = compileRedaction({ builtins: false, rules: [{ kind: "literal", name: "pw", values: ["hunter2hunter2"] }] });
 * compiled.exactAnchors.map((anchor) => compiled.ruleNames[anchor.rule]);
 * ```
 */
export interface CompiledAnchor {
  readonly rule: number;
  readonly anchor: string;
  readonly maxLength: number;
  /** Most bytes before the anchor it may claim (the rule's `lookbehind`), 0 for none. */
  readonly lookbehind: number;
  /** The rule's `lookbehind` class (1 per byte), `null` for none. */
  readonly lookbehindClass: Uint8Array | null;
  /**
   * Bytes (1 each) that, just before the anchor as `AnchorMatch.before` reads them, rule it
   * out: it is not started. @default none
   */
  readonly notBefore?: Uint8Array | null;
  /**
   * Bytes (1 each) that, right after the anchor, rule it out: it is not started. @default none
   */
  readonly notAfter?: Uint8Array | null;
  /** The rule reads the word before the anchor and a space (`AnchorMatch.wordBefore`). @default false */
  readonly wordBefore?: boolean;
  /** The rule reads the name's bytes before the anchor (`AnchorMatch.namePrefix`). @default false */
  readonly namePrefix?: boolean;
  start(match: AnchorMatch, held: HeldText, at: number): Candidate | undefined;
}

declare const compiledBrand: unique symbol;

/**
 * Rules compiled for the redactor; build with {@link compileRedaction} once and pass to
 * each {@link createRedactor} (stdout, stderr, labels) to compile only once.
 *
 * @category redaction
 * @example
 * ```ts
 * import { compileRedaction, createRedactor, type CompiledRedaction } from "@spool/transforms";
 * const compiled: CompiledRedaction = compileRedaction({ window: 16_384 });
 * const stdout = createRedactor(compiled);
 * const stderr = createRedactor(compiled);
 * ```
 */
export interface CompiledRedaction {
  readonly [compiledBrand]: true;
  readonly window: number;
  /** Rule names by rule index (markers read them). */
  readonly ruleNames: readonly string[];
  readonly exact: Automaton;
  readonly folded: Automaton;
  readonly exactAnchors: readonly CompiledAnchor[];
  readonly foldedAnchors: readonly CompiledAnchor[];
  /** Rule index of `[REDACTED:base64]`, a base64 run whose decoded bytes hold a secret. */
  readonly base64Rule: number;
  /** Rule index of a bare AWS secret access key (a built-in), or -1 without the built-ins. */
  readonly secretKeyRule: number;
  /**
   * Bytes some rule may claim before its anchor (the union of the rules' `lookbehind`
   * classes, 1 per byte), and the most of them: that many such bytes before anything still
   * undecided are held back. `null` when no rule looks behind.
   */
  readonly lead: { readonly bytes: Uint8Array; readonly length: number } | null;
  /** Where a needle of either automaton may start (`start-filter.ts`), built when first read. */
  readonly startFilter: StartFilter;
  /** Some known value is found in hex by decoding hex runs (`hex-runs.ts`), not by needles. */
  readonly hexView: boolean;
}

/**
 * True when `value` is a {@link CompiledRedaction} (as opposed to {@link RedactionOptions}).
 *
 * @category redaction
 * @example
 * ```ts
 * import { compileRedaction, isCompiledRedaction } from "@spool/transforms";
 * isCompiledRedaction(compileRedaction()); // true
 * isCompiledRedaction({ builtins: true }); // false
 * ```
 */
export function isCompiledRedaction(value: unknown): value is CompiledRedaction {
  return typeof value === "object" && value !== null && "exact" in value && "ruleNames" in value;
}

/**
 * Validate and compile `options`; throws `SPOOL_E_OPTIONS` / `SPOOL_E_REDACT_VALUE`.
 *
 * @category redaction
 * @example
 * ```ts
 * import { compileRedaction, createRedactor, redactText } from "@spool/transforms";
 * const rules = compileRedaction({ knownValues: [{ name: "db", value: "hunter2-hunter2" }] });
 * redactText("password hunter2-hunter2", rules); // "password [REDACTED:db]"
 * const stdout = createRedactor(rules); // share `rules` between streams
 * ```
 */
export function compileRedaction(options: RedactionOptions = {}): CompiledRedaction {
  const {
    window,
    ruleNames,
    known,
    exactNeedles,
    foldedNeedles,
    anchors,
    base64Rule,
    secretKeyRule,
  } = collectNeedles(options);
  const folded = buildAutomaton(foldedNeedles, { foldCase: true });
  if (folded.denseStates < folded.states) {
    throw new SpoolError("SPOOL_E_OPTIONS", "redactor", "too many case-insensitive anchors");
  }
  // The exact automaton is built when first read (by the first redactor that sees bytes):
  // a capture with no output never pays for it. Everything that can refuse the options
  // has run by now. With the built-in rules alone it is loaded from the build's image.
  const builtinsOnly =
    (options.builtins ?? true) && known.length === 0 && (options.rules ?? []).length === 0;
  let exact: Automaton | null = null;
  let startFilter: StartFilter | null = null;
  // Known values' forms are made once, for the automaton and the start filter together.
  const buildExact = (): Automaton => {
    const image = builtinsOnly ? loadBuiltinImage(exactNeedles) : null;
    if (image !== null) return image;
    const pool = exactPool(known, exactNeedles, window);
    if (known.length > 0) startFilter ??= buildStartFilter(exactNeedles, foldedNeedles, pool);
    return buildAutomaton(pool, EXACT_OPTIONS);
  };
  const compiled = {
    window,
    ruleNames,
    get exact() {
      exact ??= buildExact();
      return exact;
    },
    folded,
    get startFilter() {
      if (startFilter === null && known.length > 0) exact ??= buildExact();
      startFilter ??= buildStartFilter(exactNeedles, foldedNeedles);
      return startFilter;
    },
    exactAnchors: anchors.exactAnchors,
    foldedAnchors: anchors.foldedAnchors,
    base64Rule,
    secretKeyRule,
    hexView: known.some(({ value }) => hexViewFits(Buffer.byteLength(value), window)),
    lead:
      anchors.leadBytes === null ? null : { bytes: anchors.leadBytes, length: anchors.leadLength },
  } as unknown as CompiledRedaction;
  if (known.length > 0) {
    SOURCES.set(compiled, { options, known, built: () => exact !== null, withoutKnown: null });
  }
  return compiled;
}

/** What a compiled redaction with known values was compiled from, for {@link compiledForText}. */
const SOURCES = new WeakMap<
  CompiledRedaction,
  {
    readonly options: RedactionOptions;
    readonly known: readonly KnownNeedle[];
    readonly built: () => boolean;
    /** The same rules without known values, once a text needed none (most labels). */
    withoutKnown: CompiledRedaction | null;
  }
>();

/** Longest text {@link compiledForText} narrows the known values for. */
const MAX_NARROWED_TEXT = 4096;

/**
 * `compiled`, or for a short text (a label) while its automaton is not built yet, the same
 * rules with only the known values that may occur in `text`: a form of theirs is in the text
 * or in a base64 decoding of it (whitespace runs compared as the automaton does). The
 * redaction of `text` is the same either way; a label no longer makes a capture build the
 * automaton of 100,000 known values before its command starts.
 *
 * @example
 * ```ts
 * import { compileRedaction, compiledForText } from "./compile-redaction.js";
 * const compiled = compileRedaction({ knownValues: ["correct-horse-battery"] });
 * compiledForText(compiled, Buffer.from("npm test")) !== compiled; // true: no known value there
 * ```
 */
export function compiledForText(compiled: CompiledRedaction, text: Uint8Array): CompiledRedaction {
  const source = SOURCES.get(compiled);
  if (source === undefined || source.built() || text.length > MAX_NARROWED_TEXT) return compiled;
  const haystack = haystackOf(text);
  const grams = new Set<string>();
  for (let i = 0; i + GRAM <= haystack.length; i++) grams.add(haystack.slice(i, i + GRAM));
  const occurs = (form: string) => {
    const needle = normaliseForm(form);
    if (needle.length >= GRAM && !grams.has(needle.slice(0, GRAM))) return false;
    return haystack.includes(needle);
  };
  // A value without whitespace has forms without whitespace, none shorter than itself: none
  // fits in the haystack when the value is longer than its longest run of other bytes.
  let run = 0;
  for (const piece of haystack.split(/[\0 ]/)) run = Math.max(run, piece.length);
  const entries = source.options.knownValues ?? [];
  const kept = source.known.flatMap((known, i) => {
    const spaced = /[\t\n\v\f\r \0]/.test(known.value); // NUL: the pieces' separator
    const longest = spaced ? Number.POSITIVE_INFINITY : run;
    if (Buffer.byteLength(known.value) > longest) return [];
    return knownValueForms(known.value, longest).some(occurs) ? [entries[i]!] : [];
  });
  if (kept.length > 0) return compileRedaction({ ...source.options, knownValues: kept });
  source.withoutKnown ??= compileRedaction({ ...source.options, knownValues: [] });
  return source.withoutKnown;
}

/** Bytes compared at once by {@link compiledForText}'s first test. */
const GRAM = 8;

/**
 * `text` and its base64 decodings at each character alignment (every run of the base64
 * alphabets: a run the redactor decodes is part of one), as one latin1 string with
 * whitespace runs as one space; the pieces are joined by NUL (which can only widen the test).
 */
function haystackOf(text: Uint8Array): string {
  const latin1 = Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString("latin1");
  const pieces = [collapseWhitespace(latin1)];
  for (const run of latin1.match(/[A-Za-z0-9+/_-]{4,}/g) ?? []) {
    for (let shift = 0; shift < 4; shift++) {
      pieces.push(collapseWhitespace(Buffer.from(run.slice(shift), "base64").toString("latin1")));
    }
  }
  return pieces.join("\0");
}

/** A form as the automaton compares it: its UTF-8 bytes as latin1, trimmed, runs collapsed. */
function normaliseForm(form: string): string {
  const ascii = Buffer.byteLength(form) === form.length;
  const latin1 = ascii ? form : Buffer.from(form, "utf8").toString("latin1");
  // Not String#trim: that would also take U+00A0, a byte (0xa0) the automaton keeps.
  return collapseWhitespace(latin1).replace(/^ | $/g, "");
}

function collapseWhitespace(text: string): string {
  return text.replace(/[\t\n\v\f\r ]+/g, " ");
}

/**
 * Options of the exact automaton: whitespace runs collapse. Dense rows to depth 3 only
 * (≈650 of ≈2,650 built-in states): building a row per state was most of the start-up cost
 * every `spool run` paid; text rarely goes deeper than a few bytes into an anchor, and
 * deeper states step through their sparse rows.
 */
const EXACT_OPTIONS: AutomatonOptions = { collapseWhitespace: true, denseDepth: DENSE_DEPTH };

/**
 * Where the build writes the built-in rules' exact automaton (`scripts/build-automata.mjs`):
 * the same file from `src/` (tests) and `dist/`.
 */
const BUILTIN_IMAGE = new URL("../dist/automata/builtin-exact.bin", import.meta.url);

/** The built-in rules' exact automaton from the build's image, `null` when there is none for these needles. */
function loadBuiltinImage(needles: readonly Needle[]): Automaton | null {
  let image: Uint8Array;
  try {
    image = readFileSync(BUILTIN_IMAGE);
  } catch {
    return null;
  }
  return readAutomatonImage(image, automatonKey(needles, EXACT_OPTIONS));
}

/** The built-in rules' exact automaton as an image, for the build to write (see {@link BUILTIN_IMAGE}). */
export function builtinAutomatonImage(): Uint8Array {
  const { exactNeedles } = collectNeedles({});
  const automaton = buildAutomaton(exactNeedles, EXACT_OPTIONS);
  return writeAutomatonImage(automaton, automatonKey(exactNeedles, EXACT_OPTIONS));
}

/** Validate `options` and gather the needles of both automata, rule by rule. */
function collectNeedles(options: RedactionOptions) {
  const window = checkWindow(options.window ?? DEFAULT_REDACTION_WINDOW);
  const ruleNames: string[] = [];
  const exactNeedles: Needle[] = [];
  const foldedNeedles: Needle[] = [];
  const anchors: Anchors = {
    exactNeedles,
    foldedNeedles,
    exactAnchors: [],
    foldedAnchors: [],
    leadBytes: null,
    leadLength: 0,
  };
  const ruleIndex = new Map<string, number>();
  const indexOf = (name: string) => {
    let index = ruleIndex.get(name);
    if (index === undefined) {
      index = ruleNames.length;
      ruleNames.push(name);
      ruleIndex.set(name, index);
    }
    return index;
  };
  // Known values first: on a tie their name wins the marker, being the most specific. Their
  // forms are made when the automaton is built (`exactPool`): checking them is cheap.
  const known: KnownNeedle[] = [];
  for (const entry of options.knownValues ?? []) {
    const value: KnownValue = typeof entry === "string" ? { value: entry } : entry;
    known.push({
      value: checkKnownValue(value, window),
      rule: indexOf(value.name ?? "known-value"),
    });
  }
  const rules = [...(options.rules ?? []), ...((options.builtins ?? true) ? BUILTIN_RULES : [])];
  for (const rule of rules) {
    validateRule(rule, window);
    const index = indexOf(rule.name);
    if (rule.kind === "literal") {
      for (const value of rule.values) {
        exactNeedles.push({ bytes: Buffer.from(value.trim(), "utf8"), literal: index, anchor: -1 });
      }
      continue;
    }
    addAnchors(rule, index, anchors);
  }
  // Last: a rule's own name wins a tie against a base64 run over the same bytes.
  const base64Rule = indexOf("base64");
  // Last too, under the name the built-in assignment rule for these keys has, but an index of
  // its own: a rule's span wins a tie against the bare key's shape in a base64 run, so the
  // marker's name does not depend on which was decided first (on how the input was split).
  const secretKeyRule =
    (options.builtins ?? true) ? ruleNames.push("aws-secret-access-key") - 1 : -1;
  return {
    window,
    ruleNames,
    known,
    exactNeedles,
    foldedNeedles,
    anchors,
    base64Rule,
    secretKeyRule,
  };
}

/** A checked known value (trimmed) and its rule index. */
interface KnownNeedle {
  readonly value: string;
  readonly rule: number;
}

/**
 * The exact automaton's needles packed: every form of every known value (in hex only where
 * the hex view cannot find it), then the rules'.
 */
function exactPool(
  known: readonly KnownNeedle[],
  ruleNeedles: readonly Needle[],
  window: number,
): NeedlePool {
  const pool = new NeedlePool();
  for (const { value, rule } of known) {
    const hex = !hexViewFits(Buffer.byteLength(value), window);
    for (const form of knownValueForms(value, Number.POSITIVE_INFINITY, hex))
      pool.addText(form, rule, -1);
  }
  for (const needle of ruleNeedles) pool.add(needle.bytes, needle.literal, needle.anchor);
  return pool;
}

function checkWindow(window: number): number {
  if (!Number.isInteger(window) || window < 64 || window > 1 << 24) {
    throw new SpoolError(
      "SPOOL_E_OPTIONS",
      "redactor",
      `window must be an integer from 64 to ${1 << 24}, got ${window}`,
    );
  }
  return window;
}

/** The needles of both automata and the anchors they point to, filled rule by rule. */
interface Anchors {
  readonly exactNeedles: Needle[];
  readonly foldedNeedles: Needle[];
  readonly exactAnchors: CompiledAnchor[];
  readonly foldedAnchors: CompiledAnchor[];
  /** The union of the rules' `lookbehind` classes (1 per byte), `null` while none has one. */
  leadBytes: Uint8Array | null;
  /** The longest `lookbehind` so far. */
  leadLength: number;
}

/** Each anchor of `rule` (rule index `index`) into the exact or the case-folded automaton. */
function addAnchors(
  rule: Exclude<RedactionRule, { kind: "literal" }>,
  index: number,
  into: Anchors,
): void {
  const start =
    rule.kind === "pattern" ? patternStarter(rule) : (match: AnchorMatch) => rule.start(match);
  const lookbehind = rule.kind === "matcher" ? rule.lookbehind : undefined;
  let lookbehindClass: Uint8Array | null = null;
  if (lookbehind !== undefined) {
    lookbehindClass = byteSet(lookbehind.body);
    into.leadBytes ??= new Uint8Array(256);
    const lead = into.leadBytes;
    for (let b = 0; b < 256; b++) if (lookbehindClass[b] === 1) lead[b] = 1;
    into.leadLength = Math.max(into.leadLength, lookbehind.length);
  }
  const notBefore = (rule.kind === "matcher" ? notBeforeOf(rule) : undefined) ?? null;
  const notAfter = (rule.kind === "matcher" ? notAfterOf(rule) : undefined) ?? null;
  const readsWordBefore = rule.kind === "matcher" && wordBeforeOf(rule);
  const readsNamePrefix = rule.kind === "matcher" ? namePrefixOf(rule) : undefined;
  // Out after a letter or a digit: the start filter may pass it inside a word.
  const boundary = notBefore !== null && ALNUM.every((b, i) => b === 0 || notBefore[i] === 1);
  for (const anchor of rule.anchors) {
    const compiled: CompiledAnchor = {
      rule: index,
      anchor,
      maxLength: rule.maxLength,
      lookbehind: lookbehind?.length ?? 0,
      lookbehindClass,
      notBefore,
      notAfter,
      wordBefore: readsWordBefore,
      namePrefix: readsNamePrefix?.(anchor) === true,
      start,
    };
    const bytes = Buffer.from(anchor, "utf8");
    if (rule.ignoreCase === true) {
      into.foldedNeedles.push({ bytes, literal: -1, anchor: into.foldedAnchors.length, boundary });
      into.foldedAnchors.push(compiled);
    } else {
      into.exactNeedles.push({ bytes, literal: -1, anchor: into.exactAnchors.length, boundary });
      into.exactAnchors.push(compiled);
    }
  }
}

/** The candidate of a {@link PatternRule}: hold from the anchor, decide once, fail closed at the limit. */
function patternStarter(rule: PatternRule) {
  const flags = `${rule.pattern.flags.replace(/[gyd]/g, "")}yd`;
  const regex = new RegExp(rule.pattern.source, flags);
  const stop = new Uint8Array(256);
  for (let b = 0; b < 256; b++) if (isWhitespaceByte(b)) stop[b] = 1;
  for (const ch of rule.stop ?? "") stop[ch.charCodeAt(0) & 0xff] = 1;
  return (match: AnchorMatch, held: HeldText, at: number): Candidate => {
    let seen = match.length;
    let from = 0;
    let to: number | undefined;
    let tail = false;
    const decide = (byLength: boolean): Verdict => {
      regex.lastIndex = 0;
      const found = regex.exec(held.latin1(at, at + seen));
      if (found === null) return Verdict.Reject;
      const span = found.indices?.groups?.secret ?? found.indices?.[0];
      if (span === undefined || span[1] <= span[0]) return Verdict.Reject;
      from = span[0];
      if (byLength && span[1] === seen) {
        // The match runs to the declared limit: it may go on, so it fails closed.
        tail = true;
        return Verdict.Redact;
      }
      to = span[1];
      return Verdict.Close;
    };
    return {
      get from() {
        return from;
      },
      get to() {
        return to;
      },
      next(byte) {
        seen++;
        if (tail) return stop[byte] === 1 ? Verdict.Close : Verdict.Redact;
        if (stop[byte] === 1) return decide(false);
        if (seen >= rule.maxLength) return decide(true);
        return Verdict.Hold;
      },
      skip(input, start, end) {
        // Held up to the declared limit; past it (tail), redacted to a stop byte.
        const limit = tail ? end : Math.min(end, start + (rule.maxLength - 1 - seen));
        let i = start;
        while (i < limit && stop[input[i]!] !== 1) i++;
        seen += i - start;
        return i;
      },
      stateKey: () => (tail ? 0 : undefined),
      end() {
        if (tail) return Verdict.Reject;
        return decide(false);
      },
    };
  };
}
