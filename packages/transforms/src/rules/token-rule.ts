/**
 * The shape most vendor credentials share: a fixed prefix (the anchor) followed by a run of
 * bytes from one alphabet. A candidate holds the prefix and the run until the run ends: a
 * run of `minBody` to `maxBody` bytes is a credential (redacted: the prefix and the run,
 * and nothing after them), a shorter or longer one is not (released: a line of 100,000
 * letters that starts like a token is text, not a secret). At most prefix + `maxBody` + 1
 * bytes are ever held. `minBody` is below the real length so a token cut short in output is
 * still caught; `maxBody` well above it, so a longer token of a newer generation still is.
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
  /**
   * Most body bytes a credential has: a longer run is not this token (it is kept). Keep it
   * well above the documented length. @default 1024 (at least `minBody`)
   */
  readonly maxBody?: number;
  /** Match prefixes ignoring ASCII case. @default false */
  readonly ignoreCase?: boolean;
  /** Require a non-alphanumeric byte (or the start) before the prefix. @default true */
  readonly boundary?: boolean;
  /** Extra bytes that may not precede the prefix, as a character-class body. @default "" */
  readonly notAfter?: string;
  /**
   * Require an ASCII digit or capital letter in the body before it counts (random keys have
   * one; kebab-case words do not); `"digit"`: require a digit (a capital is not enough where
   * the prefix also starts camelCase code, as `s.` does). @default false
   */
  readonly mixed?: boolean | "digit";
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
  const maxBody = Math.max(minBody, options.maxBody ?? DEFAULT_MAX_BODY);
  const signal = options.mixed === "digit" ? DIGIT : options.mixed ? DIGIT_OR_CAPITAL : null;
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
    // The byte after the longest run is the one that decides.
    maxLength: lead + longestPrefix + maxBody + 1,
    start(match): Candidate | undefined {
      const before = lead > 0 ? leadBoundary(match.lead ?? "", lead) : match.before;
      if (
        before === undefined ||
        (before >= 0 && ((boundary && ALNUM[before] === 1) || notAfter[before] === 1))
      ) {
        return undefined;
      }
      return new TokenCandidate(keepPrefix ? match.length : -lead, body, minBody, maxBody, signal);
    },
  };
}

/** Most body bytes of a token unless its rule says otherwise. */
export const DEFAULT_MAX_BODY = 1024;

const DIGIT = byteSet("0-9");
const DIGIT_OR_CAPITAL = byteSet("0-9A-Z");

/** One token candidate: counts its run, decides when the run ends. */
class TokenCandidate implements Candidate {
  count = 0;
  sawMixed: boolean;

  constructor(
    readonly from: number,
    private readonly body: Uint8Array,
    private readonly minBody: number,
    private readonly maxBody: number,
    /** Bytes one of which the body must hold (`mixed`), or null. */
    private readonly signal: Uint8Array | null,
  ) {
    this.sawMixed = signal === null;
  }

  private get credential(): boolean {
    return this.count >= this.minBody && this.count <= this.maxBody && this.sawMixed;
  }

  next(byte: number): Verdict {
    if (this.body[byte] !== 1) return this.credential ? Verdict.Close : Verdict.Reject;
    if (++this.count > this.maxBody) return Verdict.Reject;
    if (!this.sawMixed) this.sawMixed = this.signal![byte] === 1;
    return Verdict.Hold;
  }

  skip(input: Uint8Array, start: number, end: number): number {
    // Body bytes up to the longest run; the byte that ends it (or passes it) goes to `next`.
    const body = this.body;
    const stop = Math.min(end, start + (this.maxBody - this.count));
    let i = start;
    if (this.sawMixed) {
      while (i < stop && body[input[i]!] === 1) i++;
    } else {
      for (; i < stop; i++) {
        const byte = input[i]!;
        if (body[byte] !== 1) break;
        if (this.signal![byte] === 1) this.sawMixed = true;
      }
    }
    this.count += i - start;
    return i;
  }

  end(): Verdict {
    return this.credential ? Verdict.Close : Verdict.Reject;
  }
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
  if (
    options.maxBody !== undefined &&
    (!Number.isInteger(options.maxBody) || options.maxBody < options.minBody)
  )
    fail(`maxBody must be a whole number ≥ minBody (got ${options.maxBody})`);
}
