/**
 * The shape most vendor credentials share: a fixed prefix (the anchor) followed by a run of
 * bytes from one alphabet. A candidate holds the prefix and the body until the body reaches
 * `minBody` bytes (then it is a credential: redacted, and the rest of the run with it, in
 * O(1) memory however long it is) or a byte outside the alphabet ends it sooner (then it is
 * not: released). At most prefix + `minBody` bytes are ever held.
 *
 * @example
 * ```ts
 * import { tokenRule, createRedactor } from "@spool/transforms";
 * const acme = tokenRule({ name: "acme-key", prefixes: ["acme_"], body: "A-Za-z0-9", minBody: 24 });
 * const redactor = createRedactor({ rules: [acme] });
 * ```
 */
import { SpoolError } from "@spool/core/errors";
import { type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { ALNUM, byteSet, classBodyProblem } from "./byte-classes.js";

/**
 * What {@link tokenRule} takes: the shape of a prefix + alphabet credential.
 *
 * @example
 * ```ts
 * import { tokenRule, type TokenRuleOptions } from "@spool/transforms";
 * const options: TokenRuleOptions = { name: "acme-key", prefixes: ["acme_live_", "acme_test_"], body: "A-Za-z0-9", minBody: 24, mixed: true };
 * const rule = tokenRule(options);
 * ```
 */
export interface TokenRuleOptions {
  /** Rule name for the marker. */
  readonly name: string;
  /** Literal prefixes. */
  readonly prefixes: readonly string[];
  /** The body's alphabet as a character-class body, e.g. `"A-Za-z0-9_-"`. */
  readonly body: string;
  /** Body bytes needed before the token counts as a credential. */
  readonly minBody: number;
  /** Match prefixes ignoring ASCII case. @default false */
  readonly ignoreCase?: boolean;
  /** Require a non-alphanumeric byte (or the start) before the prefix. @default true */
  readonly boundary?: boolean;
  /** Extra bytes that may not precede the prefix, as a character-class body. @default "" */
  readonly notAfter?: string;
  /**
   * Require an ASCII digit or capital letter in the body before it counts (random keys have
   * one; kebab-case words do not). Waits at most twice `minBody` body bytes. @default false
   */
  readonly mixed?: boolean;
  /** Keep the prefix readable and redact only the body (`AccountKey=[REDACTED:…]`). @default false */
  readonly keepPrefix?: boolean;
  /**
   * The token starts exactly `length` bytes of `A-Za-z0-9` before its prefix (Terraform's
   * `<14>.atlasv1.<body>`); they are redacted with it, and `boundary` applies before them.
   * @default none
   */
  readonly lead?: number;
}

/**
 * A {@link MatcherRule} for prefix + alphabet tokens, redacting the whole run once the
 * body reaches `minBody` bytes. Throws `SPOOL_E_OPTIONS` at once for options that would
 * silently match nothing: an empty, reversed (`"z-a"`) or escaped (`"\\w"`) `body`, no
 * prefixes, or a `minBody` below 1.
 *
 * @example
 * ```ts
 * import { redactText, tokenRule } from "@spool/transforms";
 * const acme = tokenRule({ name: "acme-key", prefixes: ["acme_"], body: "A-Za-z0-9", minBody: 24 });
 * redactText("key=acme_0123456789abcdefghijKLMN", { rules: [acme] }); // "key=[REDACTED:acme-key]"
 * ```
 */
export function tokenRule(options: TokenRuleOptions): MatcherRule {
  validateTokenRule(options);
  const body = byteSet(options.body);
  const notAfter = byteSet(options.notAfter ?? "");
  const boundary = options.boundary ?? true;
  const minBody = options.minBody;
  const mixed = options.mixed ?? false;
  const keepPrefix = options.keepPrefix ?? false;
  const longestPrefix = Math.max(...options.prefixes.map((p) => Buffer.byteLength(p)));
  const lead = options.lead ?? 0;
  return {
    kind: "matcher",
    name: options.name,
    anchors: options.prefixes,
    ...(options.ignoreCase === undefined ? {} : { ignoreCase: options.ignoreCase }),
    // One more lead byte than the token has, to see the boundary before it.
    ...(lead > 0 ? { lookbehind: { length: lead + 1, body: "A-Za-z0-9" } } : {}),
    maxLength: lead + longestPrefix + (mixed ? 2 * minBody : minBody) + 1,
    start(match): Candidate | undefined {
      const before = lead > 0 ? leadBoundary(match.lead ?? "", lead) : match.before;
      if (
        before === undefined ||
        (before >= 0 && ((boundary && ALNUM[before] === 1) || notAfter[before] === 1))
      ) {
        return undefined;
      }
      let count = 0;
      let sawMixed = !mixed;
      return {
        from: keepPrefix ? match.length : -lead,
        next(byte) {
          if (body[byte] !== 1) return Verdict.Reject;
          count++;
          if (!sawMixed) {
            sawMixed = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a);
            if (!sawMixed && count >= 2 * minBody) return Verdict.Reject;
          }
          return count >= minBody && sawMixed ? Verdict.Redact : Verdict.Hold;
        },
        skip(input, start, end) {
          let i = start;
          if (count >= minBody && sawMixed) {
            // Redacting: the rest of the run.
            while (i < end && body[input[i]!] === 1) i++;
            count += i - start;
            return i;
          }
          // Holding: body bytes until one that would redact or reject.
          for (; i < end; i++) {
            const byte = input[i]!;
            if (body[byte] !== 1) break;
            const mixedNow =
              sawMixed || (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a);
            if (mixedNow ? count + 1 >= minBody : count + 1 >= 2 * minBody) break;
            count++;
            sawMixed = mixedNow;
          }
          return i;
        },
        stateKey: () => (count >= minBody && sawMixed ? 0 : undefined),
        end: () => Verdict.Reject,
      };
    },
  };
}

/**
 * The byte before a token's `lead` bytes: -1 when the lead run is exactly `lead` long (a
 * boundary), an alphanumeric byte when it runs longer, `undefined` when it is too short.
 */
function leadBoundary(held: string, lead: number): number | undefined {
  if (held.length < lead) return undefined;
  return held.length > lead ? held.charCodeAt(0) : -1;
}

function validateTokenRule(options: TokenRuleOptions): void {
  const fail = (why: string): never => {
    throw new SpoolError(
      "SPOOL_E_OPTIONS",
      "tokenRule",
      `rule ${JSON.stringify(options.name)}: ${why}`,
    );
  };
  const body = classBodyProblem(options.body);
  if (body !== null) fail(`body ${JSON.stringify(options.body)} ${body}`);
  const notAfter = options.notAfter ? classBodyProblem(options.notAfter) : null;
  if (notAfter !== null) fail(`notAfter ${JSON.stringify(options.notAfter)} ${notAfter}`);
  if (options.prefixes.length === 0 || options.prefixes.some((p) => p.length === 0))
    fail("needs at least one non-empty prefix");
  if (options.lead !== undefined && (!Number.isInteger(options.lead) || options.lead < 1))
    fail(`lead must be a whole number ≥ 1 (got ${options.lead})`);
  if (!Number.isInteger(options.minBody) || options.minBody < 1)
    fail(`minBody must be a whole number ≥ 1 (got ${options.minBody})`);
}
