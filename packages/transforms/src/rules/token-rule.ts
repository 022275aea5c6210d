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
import { type AnchorMatch, type Candidate, type MatcherRule, Verdict } from "../rule.js";
import { ALNUM, byteSet, classBodyProblem, DIGIT, HEX_VALUE } from "./byte-classes.js";
import { keepShape } from "./kept-shapes.js";
import { withNotAfter, withNotBefore } from "./not-before.js";

/**
 * What {@link tokenRule} takes: the shape of a prefix + alphabet credential.
 *
 * @category redaction
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
  /**
   * Body bytes needed before the token counts as a credential: at least 1, or 0 with a
   * `lead` (a token that ends at its anchor, such as New Relic's `<36>NRAL`).
   */
  readonly minBody: number;
  /**
   * Most body bytes a credential has: a longer run is not this token (it is kept). Keep it
   * well above the documented length. @default 1024 (at least `minBody`)
   */
  readonly maxBody?: number;
  /** Match prefixes ignoring ASCII case. @default false */
  readonly ignoreCase?: boolean;
  /**
   * In an alphabet with `=` and `+` or `/` (base64), `=` is padding: the token ends after
   * its `=` run. `false` where `=` stands inside the token (PHC's `$v=19$m=…`). @default true
   */
  readonly padding?: boolean;
  /** Require a non-alphanumeric byte (or the start) before the prefix. @default true */
  readonly boundary?: boolean;
  /** Extra bytes that may not precede the prefix, as a character-class body. @default "" */
  readonly notAfter?: string;
  /**
   * Require an ASCII digit or capital letter in the body before it counts (random keys have
   * one; kebab-case words do not); `"digit"`: require a digit (a capital is not enough where
   * the prefix also starts camelCase code, as `s.` does); `"capital"`: require a capital
   * (lowercase hex, as in a fingerprinted file name, is not the token). @default false
   */
  readonly mixed?: boolean | "digit" | "capital";
  /**
   * Require one of these bytes in the body, as a character-class body, instead of what
   * `mixed` says (Salesforce's session id holds a `!` after its org id). @default none
   */
  readonly needs?: string;
  /**
   * Keep the prefix readable and redact only the body (`AccountKey=[REDACTED:…]`); with a
   * `lead` and no body (`maxBody: 0`), the prefix ends the token and stays
   * (`/api/v1/[REDACTED:…]/telemetry`). @default false
   */
  readonly keepPrefix?: boolean;
  /**
   * The token starts exactly `length` bytes of `A-Za-z0-9` before its prefix (Terraform's
   * `<14>.atlasv1.<body>`); they are redacted with it, and `boundary` applies before them.
   * @default none
   */
  readonly lead?: number;
  /**
   * The alphabet of the `lead` bytes, as a character-class body (Firebase's legacy server
   * keys, `AAAA<7>:APA91b…`, have `_` and `-` in theirs). @default "A-Za-z0-9"
   */
  readonly leadBody?: string;
  /**
   * The prefix stands in a URL's host: the token starts at the URL's scheme (`https://`)
   * or, without one, at its host, at most `lead` bytes before the prefix (a webhook from its
   * scheme, `https://<tenant>.webhook.office.com/…`); what stands before them (a string's
   * escape, `\n` or `\u0022`, a `%20`) is not the token's. `leadBody` must hold the
   * scheme's and the host's bytes. @default false
   */
  readonly leadHost?: boolean;
  /**
   * The body holds `%` as written, and a `%XX` escape of a byte other than `+`, `/` or `=`
   * (`%0A`, `%20`, `%7B`) makes the run form-encoded text, not this token (a URL query's key
   * or code is base64 or base64url; a playground link's `?code=` is source code). @default false
   */
  readonly formText?: boolean;
}

/**
 * A {@link MatcherRule} for prefix + alphabet tokens, redacting the whole run once the
 * body reaches `minBody` bytes. Throws `SPOOL_E_OPTIONS` at once for options that would
 * silently match nothing: an empty, reversed (`"z-a"`) or escaped (`"\\w"`) `body`, no
 * prefixes, or a `minBody` below 1.
 *
 * @category redaction
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
  const signal = signalOf(options);
  const keepPrefix = options.keepPrefix ?? false;
  const longestPrefix = Math.max(...options.prefixes.map((p) => Buffer.byteLength(p)));
  const lead = options.lead ?? 0;
  // A body with bytes a URL encoder escapes (`+/=:`…) is also read percent-encoded.
  const encoded = [...options.body].some((c) => !UNRESERVED.has(c) && c !== "-");
  // Base64's `=` is padding: in an alphabet with `+` or `/`, the token ends after its `=` run.
  const padded =
    (options.padding ?? true) && body[0x3d] === 1 && (body[0x2b] === 1 || body[0x2f] === 1);
  const rule: MatcherRule = {
    kind: "matcher",
    name: options.name,
    anchors: options.prefixes,
    ...(options.ignoreCase === undefined ? {} : { ignoreCase: options.ignoreCase }),
    // One more lead byte than the token has, to see the boundary before it.
    ...(lead > 0
      ? { lookbehind: { length: lead + 1, body: options.leadBody ?? "A-Za-z0-9" } }
      : {}),
    // The byte after the longest run decides; percent-encoded, see ESCAPE_HOLD.
    maxLength: lead + longestPrefix + maxBody + 1 + (encoded ? ESCAPE_HOLD : 0),
    start(match): Candidate | undefined {
      const before = lead > 0 ? leadBoundary(match, lead, options.leadHost === true) : match.before;
      if (
        before === undefined ||
        (before >= 0 && ((boundary && ALNUM[before] === 1) || notAfter[before] === 1))
      ) {
        return undefined;
      }
      // A token is a whole run: a prefix inside a run of its alphabet (`xoxb-xoxb-…`) starts
      // none, so one candidate holds a run however often the prefix repeats in it (linear
      // time). After `=` it may (`KEY=<token>` where the alphabet has `=`): in base64 `=`
      // ends a run (padding), elsewhere a repeated `X=` holds at most maxBody / 2 candidates.
      // (A prefix that names a place, `keepPrefix`, is a URL's or a key's, not the run's.)
      if (
        boundary &&
        !keepPrefix &&
        lead === 0 &&
        before >= 0 &&
        body[before] === 1 &&
        !AFTER_SEPARATOR[before]
      )
        return undefined;
      // Nor does one joined to a word by `-`: a name's or a digest's part (`sha256=qaN-fw_…`
      // in a wheel's RECORD), not a token's start (`MY_tskey-…` still starts one).
      if (boundary && !keepPrefix && lead === 0 && match.joined === true) return undefined;
      const candidate = new TokenCandidate(
        tokenFrom(match, lead, keepPrefix, options.leadHost === true),
        match.length,
        body,
        minBody,
        maxBody,
        signal,
        encoded,
        padded,
        options.formText === true && body[0x25] === 1 ? new FormEscapes() : null,
      );
      // A kept prefix after a lead ends the token: only the lead is redacted.
      if (keepPrefix && lead > 0) candidate.to = 0;
      return candidate;
    },
  };
  if (lead > 0) return rule;
  // The bytes before a prefix that `start` declines on, tested before a candidate is started.
  const ruledOut = notAfter.slice();
  for (let b = 0; b < 256; b++) {
    const inRun = !keepPrefix && body[b] === 1 && !AFTER_SEPARATOR[b];
    if (boundary && (ALNUM[b] === 1 || inRun)) ruledOut[b] = 1;
  }
  // The bytes after a prefix that end the token at once, too short (no body byte, no `%XX`).
  const firstOut = Uint8Array.from(body, (b, i) => (b === 1 || (encoded && i === 0x25) ? 0 : 1));
  return withNotAfter(withNotBefore(rule, ruledOut), firstOut);
}

/** The bytes one of which the body must hold (`needs`, `mixed`), or null. */
function signalOf(options: TokenRuleOptions): Uint8Array | null {
  if (options.needs !== undefined) return byteSet(options.needs);
  if (options.mixed === "digit") return DIGIT;
  if (options.mixed === "capital") return CAPITAL;
  return options.mixed ? DIGIT_OR_CAPITAL : null;
}

/**
 * Where a token starts, from its anchor's first byte: after a kept prefix, at a URL's
 * scheme or host (`leadHost`), or `lead` bytes before the anchor.
 */
function tokenFrom(match: AnchorMatch, lead: number, keepPrefix: boolean, host: boolean): number {
  if (keepPrefix && lead === 0) return match.length;
  return host ? -hostRun(match, lead) : -lead;
}

/** Bytes no URL encoder escapes (RFC 3986 unreserved). */
const UNRESERVED = new Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~");

const DOT = 0x2e;
/**
 * A percent-encoded token's extra hold: 16 escaped body bytes (base64's `+` and `/` in a
 * query, `%2B`: three bytes for one) and an escape started at the run's end, read whole. A
 * token with more is held past its `maxLength` and fails closed, still redacted.
 */
const ESCAPE_HOLD = 2 * 16 + 2;
const SKIP_TABLES = [0, 1, 2, 3].map(() => new WeakMap<Uint8Array, Uint8Array>());
/**
 * The bytes the fast path runs over: `body` without `.` (the token may end before one), in
 * a padded alphabet without `=`, and for form text without `%`: those go through `next`.
 * Made once per alphabet.
 */
function skipTable(body: Uint8Array, padded: boolean, formText = false): Uint8Array {
  const tables = SKIP_TABLES[(padded ? 1 : 0) + (formText ? 2 : 0)]!;
  let table = tables.get(body);
  if (table === undefined) {
    table = body.slice();
    table[DOT] = 0;
    if (padded) table[0x3d] = 0;
    if (formText) table[0x25] = 0;
    tables.set(body, table);
  }
  return table;
}

/** What a base64 key's characters are escaped as in a URL: `+`, `/`, `=`. */
const BASE64_ESCAPES = new Set([0x2b, 0x2f, 0x3d]);

/**
 * The `%XX` escapes written in a body that holds `%` (`TokenRuleOptions.formText`): one of
 * a byte other than `+`, `/` or `=` (`%0A`, `%20`) says the run is form-encoded text.
 */
class FormEscapes {
  /** An escape of text was read. */
  text = false;
  /** Hex digits still to read of the escape being read, and its value so far. */
  private digits = 0;
  private code = 0;

  /** An escape is being read: its digits go through `next`. */
  get open(): boolean {
    return this.digits > 0;
  }

  note(byte: number): void {
    if (this.digits === 0) {
      if (byte === 0x25) {
        this.digits = 2;
        this.code = 0;
      }
      return;
    }
    const digit = HEX_VALUE[byte]!;
    if (digit < 0) {
      this.digits = 0;
      return;
    }
    this.code = this.code * 16 + digit;
    if (--this.digits === 0 && !BASE64_ESCAPES.has(this.code)) this.text = true;
  }
}

/** Bytes a token may follow even where its alphabet has them (`=` of an assignment). */
const AFTER_SEPARATOR = byteSet("=");

/** Separators inside a body, left out of the placeholder test. */
const SEPARATOR = byteSet("-_.");

/** Most body bytes of a token unless its rule says otherwise. */
export const DEFAULT_MAX_BODY = 1024;

const DIGIT_OR_CAPITAL = byteSet("0-9A-Z");
const CAPITAL = byteSet("A-Z");

/**
 * Shortest body that one repeated character marks as a placeholder (`XXXXXXXX`); a shorter
 * one is a real token's (Mailchimp's data centre `-us11`).
 */
const PLACEHOLDER_MIN = 8;

/**
 * One token candidate: counts its run, decides when the run ends. Given the bytes one of
 * which the body must hold (`signal`, `mixed`'s; null: none), whether `%XX` escapes of body
 * bytes read as those bytes (`encoded`, strict URL encoding), whether `=` is padding
 * (`padded`: a body byte after it ends the token), and the `%XX` escapes written in a body
 * that holds `%` (`escapes`, `formText`'s: one of text makes the run no token).
 */
class TokenCandidate implements Candidate {
  /** Body bytes seen, decoded (an escape `%XX` counts 1: a token's length is its own). */
  count = 0;
  sawMixed: boolean;
  /** Offset (from the anchor's start) of the byte `next` reads. */
  here: number;
  /** Inside a `%XX` escape: the hex digits read so far (0: none yet), or -1 outside one. */
  escape = -1;
  /** The first digit's value, and where the escape's `%` was. */
  high = 0;
  escapeAt = 0;
  /** A `=` was read (padded alphabets). */
  padding = false;
  /** Where the token ended when it ends before the byte that decides (at a `%`, a last `.`). */
  to: number | undefined = undefined;
  /** Offset of the `.` just read, in an alphabet with `.`: the token may end before it. */
  dot = -1;

  constructor(
    readonly from: number,
    anchorLength: number,
    private readonly body: Uint8Array,
    private readonly minBody: number,
    private readonly maxBody: number,
    private readonly signal: Uint8Array | null,
    private readonly encoded: boolean,
    private readonly padded: boolean,
    private readonly escapes: FormEscapes | null = null,
  ) {
    this.sawMixed = signal === null;
    this.here = anchorLength;
  }

  private get credential(): boolean {
    return (
      this.escapes?.text !== true &&
      this.count >= this.minBody &&
      this.count <= this.maxBody &&
      this.sawMixed &&
      !(this.uniform && this.count >= PLACEHOLDER_MIN)
    );
  }

  /** The body so far is one character repeated, separators aside (`xxxx`, `XXXX-XXXX`). */
  uniform = true;
  /** The body's first character other than a separator, or -1. */
  first = -1;

  private note(byte: number): void {
    if (SEPARATOR[byte] === 1) return;
    if (this.first < 0) this.first = byte;
    else if (byte !== this.first) this.uniform = false;
  }

  next(byte: number): Verdict {
    const here = this.here++;
    if (this.escape >= 0) return this.escapeByte(byte);
    if (this.body[byte] !== 1) {
      if (byte === 0x25 && this.encoded) {
        this.escape = 0;
        this.escapeAt = here;
        return Verdict.Hold;
      }
      return this.ended();
    }
    if (byte === DOT) this.dot = here;
    else this.dot = -1;
    return this.bodyByte(byte);
  }

  /**
   * The run ended: a `.` just before the byte that ended it closes the sentence, not the
   * token (`… dt0c01.X.Y.` keeps its full stop), unless the token is too short without it
   * (a phpass hash, `$P$` and 31 characters of `./0-9A-Za-z`, may end in `.`).
   */
  private ended(): Verdict {
    if (this.dot >= 0 && this.dot === this.here - 2) {
      this.count--;
      if (this.credential) {
        this.to = this.dot;
        return Verdict.Close;
      }
      this.count++;
    }
    return this.credential ? Verdict.Close : Verdict.Reject;
  }

  private bodyByte(byte: number): Verdict {
    if (this.padded) {
      if (byte === 0x3d) this.padding = true;
      else if (this.padding) return this.credential ? Verdict.Close : Verdict.Reject;
    }
    if (++this.count > this.maxBody) return Verdict.Reject;
    this.escapes?.note(byte);
    if (this.uniform) this.note(byte);
    if (!this.sawMixed) this.sawMixed = this.signal![byte] === 1;
    return Verdict.Hold;
  }

  /** A hex digit of `%XX`: a body byte escaped goes on; anything else ended the token at `%`. */
  private escapeByte(byte: number): Verdict {
    const digit = HEX_VALUE[byte]!;
    if (digit >= 0 && this.escape === 0) {
      this.escape = 1;
      this.high = digit;
      return Verdict.Hold;
    }
    this.escape = -1;
    const decoded = this.high * 16 + digit;
    if (digit >= 0 && this.body[decoded] === 1) return this.bodyByte(decoded);
    if (!this.credential) return Verdict.Reject;
    this.to = this.escapeAt;
    return Verdict.Close;
  }

  skip(input: Uint8Array, start: number, end: number): number {
    // Body bytes up to the longest run; the byte that ends it (or passes it) goes to `next`,
    // and so do the digits of a `%XX` escape.
    if (this.escape >= 0 || this.padding || this.escapes?.open === true) return start;
    const body = skipTable(this.body, this.padded, this.escapes !== null);
    const stop = Math.min(end, start + (this.maxBody - this.count));
    let i = start;
    // Until the body is known mixed and not one character repeated, each byte is looked at;
    // from then on only the alphabet is.
    for (; i < stop && !(this.sawMixed && !this.uniform); i++) {
      const byte = input[i]!;
      if (body[byte] !== 1) break;
      if (!this.sawMixed && this.signal![byte] === 1) this.sawMixed = true;
      if (this.uniform) this.note(byte);
    }
    while (i < stop && body[input[i]!] === 1) i++;
    this.count += i - start;
    this.here += i - start;
    return i;
  }

  end(): Verdict {
    // A `%` held at the end is not part of the token: it ends before it.
    if (this.escape >= 0) {
      this.to = this.escapeAt;
      return this.credential ? Verdict.Close : Verdict.Reject;
    }
    this.here++;
    return this.ended();
  }
}

/**
 * The byte before a token's `lead` bytes: -1 when the lead run is exactly `lead` long (a
 * boundary), a byte of the lead's class when it runs longer, `undefined` when it is too short.
 */
/**
 * For `leadHost`: how many of the bytes held before the prefix are the URL's scheme and
 * host (from the scheme's first letter, else from the host's first letter; a string's
 * escape letter there, the `n` of `\n`, excluded), or -1 when more than `lead` were held.
 */
function hostRun(match: AnchorMatch, lead: number): number {
  const held = match.lead ?? "";
  if (held.length > lead) return -1;
  const scheme = held.lastIndexOf("://");
  let start = scheme < 0 ? held.length : scheme;
  const part = scheme < 0 ? HOST_BYTE : SCHEME_LETTER;
  while (start > 0 && part[held.charCodeAt(start - 1)] === 1) start--;
  while (start < held.length && scheme < 0 && LETTER_OR_DOT[held.charCodeAt(start)] !== 1) start++;
  if (start === 0 && held.length > 0 && match.leadFirst !== held.charCodeAt(0)) start = 1;
  return held.length - start;
}

const SCHEME_LETTER = byteSet("a-z");
const HOST_BYTE = byteSet("a-z0-9.-");
const LETTER_OR_DOT = byteSet("a-z.");

function leadBoundary(match: AnchorMatch, lead: number, host: boolean): number | undefined {
  const held = match.lead ?? "";
  // A URL's scheme and host start at a boundary by construction.
  if (host) return hostRun(match, lead) < 0 ? undefined : -1;
  if (held.length < lead) return undefined;
  // One lead byte more: the byte before the token, seen through an escape (`\n` + token).
  return held.length > lead ? (match.leadFirst ?? held.charCodeAt(0)) : -1;
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
  const leadBody = options.leadBody ? classBodyProblem(options.leadBody) : null;
  if (leadBody !== null) fail(`leadBody ${JSON.stringify(options.leadBody)} ${leadBody}`);
  // A token that ends at its anchor (a suffix, `…NRAL`) has all its bytes in the lead.
  const leastBody = options.lead === undefined ? 1 : 0;
  if (!Number.isInteger(options.minBody) || options.minBody < leastBody)
    fail(`minBody must be a whole number ≥ ${leastBody} (got ${options.minBody})`);
  if (
    options.maxBody !== undefined &&
    (!Number.isInteger(options.maxBody) || options.maxBody < options.minBody)
  )
    fail(`maxBody must be a whole number ≥ minBody (got ${options.maxBody})`);
  if (options.keepPrefix && options.lead !== undefined && options.maxBody !== 0)
    fail("keepPrefix with a lead keeps the prefix that ends the token: maxBody must be 0");
}

keepShape(new TokenCandidate(0, 1, DIGIT, 1, 1, null, false, false));
