/**
 * Bytes that, standing just before an anchor (as `AnchorMatch.before` reads them), rule the
 * anchor out whatever follows, for the built-in rules that check a boundary first; and bytes
 * that rule it out when they come right after it (the first byte a candidate is fed), for
 * rules whose candidates reject such a byte at once (`pass` in `password`, `token` in
 * `tokens`). The candidate set tests them before it starts a candidate: in ordinary text
 * most anchor occurrences of short prefixes (`s.` in `routes.js`, `az` in a trace id) end
 * there, at the cost of one table lookup instead of a candidate's start. A rule's own
 * `start` and `next` still make the same tests; this only skips the work around them.
 *
 * @example
 * ```ts
 * import { notBeforeOf, withNotBefore } from "./not-before.js";
 * import { byteSet } from "./byte-classes.js";
 * const rule = withNotBefore({ kind: "matcher", name: "x", anchors: ["x_"], maxLength: 8, start: () => undefined }, byteSet("A-Za-z0-9"));
 * notBeforeOf(rule)?.[0x61]; // 1
 * ```
 */
import type { MatcherRule } from "../rule.js";

const NOT_BEFORE = new WeakMap<MatcherRule, Uint8Array>();
const NOT_AFTER = new WeakMap<MatcherRule, Uint8Array>();

/** `rule`, registered with the bytes (1 each) whose presence before an anchor rules it out. */
export function withNotBefore<R extends MatcherRule>(rule: R, bytes: Uint8Array): R {
  NOT_BEFORE.set(rule, bytes);
  return rule;
}

/** The bytes registered for `rule`, if any. */
export function notBeforeOf(rule: MatcherRule): Uint8Array | undefined {
  return NOT_BEFORE.get(rule);
}

/**
 * `rule`, registered with the bytes (1 each) that rule an anchor out when they follow it:
 * every candidate it starts rejects such a first byte whatever the anchor and what came
 * before it.
 */
export function withNotAfter<R extends MatcherRule>(rule: R, bytes: Uint8Array): R {
  NOT_AFTER.set(rule, bytes);
  return rule;
}

/** The bytes registered for `rule` by {@link withNotAfter}, if any. */
export function notAfterOf(rule: MatcherRule): Uint8Array | undefined {
  return NOT_AFTER.get(rule);
}

const WORD_BEFORE = new WeakSet<MatcherRule>();

/**
 * `rule` (one without a `lookbehind`), registered to be told the word before its anchor
 * (`AnchorMatch.wordBefore`): read from the bytes the redactor keeps, never held back.
 */
export function withWordBefore<R extends MatcherRule>(rule: R): R {
  WORD_BEFORE.add(rule);
  return rule;
}

/** True for a rule registered by {@link withWordBefore}. */
export function wordBeforeOf(rule: MatcherRule): boolean {
  return WORD_BEFORE.has(rule);
}

const NAME_PREFIX = new WeakMap<MatcherRule, (anchor: string) => boolean>();

/**
 * `rule`, registered to be told the name bytes before those of its anchors `reads` picks
 * (`AnchorMatch.namePrefix`): read from the bytes the redactor keeps, never held back.
 */
export function withNamePrefix<R extends MatcherRule>(
  rule: R,
  reads: (anchor: string) => boolean,
): R {
  NAME_PREFIX.set(rule, reads);
  return rule;
}

/** Which anchors of `rule` are told their name's prefix ({@link withNamePrefix}), if any. */
export function namePrefixOf(rule: MatcherRule): ((anchor: string) => boolean) | undefined {
  return NAME_PREFIX.get(rule);
}
