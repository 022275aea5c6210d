/**
 * Known secret values (`--redact-env NAME`, `--redact-file F`, the library API) and the
 * encoded forms in which a program may print them: base64 at each of the three byte
 * alignments (standard and URL alphabets, padding trimmed, edge characters that depend on
 * neighbouring bytes left out), URL-encoded, JSON-escaped, and shell-quoted. Every form
 * joins the redactor's one automaton, whitespace runs included (a multi-line value matches
 * whatever whitespace run stands for its line breaks).
 *
 * A value too short to redact safely (under {@link MIN_KNOWN_VALUE_BYTES} bytes) is refused
 * with `SPOOL_E_REDACT_VALUE`: redacting it would blank common words, and ignoring it would
 * leave the user believing it is covered. Messages name where the value came from, never
 * the value.
 *
 * @example
 * ```ts
 * import { knownValuesFromEnv, createRedactor } from "@spool/transforms";
 * const knownValues = knownValuesFromEnv(["GITHUB_TOKEN"], process.env); // throws SPOOL_E_REDACT_VALUE if unset or short
 * const redactor = createRedactor({ knownValues });
 * ```
 */
import { readFile } from "node:fs/promises";
import { SpoolError } from "@spool/core/runtime";

/**
 * Known values shorter than this many bytes (after trimming) are refused with
 * `SPOOL_E_REDACT_VALUE`: redacting them would blank ordinary words.
 *
 * @category redaction
 * @example
 * ```ts
 * import { MIN_KNOWN_VALUE_BYTES } from "@spool/transforms";
 * MIN_KNOWN_VALUE_BYTES; // 8
 * ```
 */
export const MIN_KNOWN_VALUE_BYTES = 8;

/**
 * A secret value to redact wherever it appears, in any of its encoded forms (base64, URL,
 * JSON, shell quoting). Pass them as a redactor's `knownValues`.
 *
 * @category redaction
 * @example
 * ```ts
 * import { createRedactor, type KnownValue } from "@spool/transforms";
 * const password: KnownValue = { value: process.env.DB_PASSWORD ?? "", name: "db-password", source: "$DB_PASSWORD" };
 * const redactor = createRedactor({ knownValues: [password] }); // throws SPOOL_E_REDACT_VALUE if it is too short
 * ```
 */
export interface KnownValue {
  /** The secret itself (surrounding whitespace is trimmed). */
  readonly value: string;
  /** Rule name shown in `[REDACTED:<name>]`. @default "known-value" */
  readonly name?: string;
  /** Where the value came from, for error messages (never the value). @default "a known value" */
  readonly source?: string;
}

/**
 * The byte forms to look for when redacting `value`, each once (the raw value first):
 *
 * - base64 at each of the three byte alignments, standard and URL alphabets;
 * - hex of its UTF-8 bytes, lower and upper case;
 * - percent-encoded as each common encoder does: lax (`encodeURIComponent`: `!'()*~` kept),
 *   strict (RFC 3986 unreserved only: Go's `url.QueryEscape`/`PathEscape`, `curl
 *   --data-urlencode`, Python's `quote(safe="")`/`quote_plus`, PHP's `rawurlencode`),
 *   Python's default `quote` (`/` kept) and PHP's `urlencode` (`~` escaped too); each with
 *   upper- and lower-case hex digits, and with `+` for space where the value has one;
 * - JSON-escaped: as `JSON.stringify`, with `/` as `\/` (PHP's `json_encode`), and with
 *   every non-ASCII character as `\uXXXX` (Python's `ensure_ascii`, surrogate pairs above
 *   U+FFFF), lower- and upper-case hex, with and without `\/`;
 * - shell-quoted: inside `'…'`, inside `"…"`, and backslash-escaped.
 *
 * A value made only of bytes no encoder changes (`A-Za-z0-9-_.`) has only the raw, base64
 * and hex forms: the others are the same bytes. With `longest`, forms that are surely longer
 * than that many bytes may be left out (the raw value never is); with `hex` false, the hex
 * forms are (the redactor finds most values in hex by decoding hex runs: `hex-runs.ts`).
 *
 * @category redaction
 * @example
 * ```ts
 * import { knownValueForms } from "@spool/transforms";
 * knownValueForms("pa ss/word").includes("pa%20ss%2Fword"); // true
 * knownValueForms("pa ss/word").includes("pa+ss%2fword"); // true
 * ```
 */
export function knownValueForms(
  value: string,
  longest = Number.POSITIVE_INFINITY,
  hex = true,
): string[] {
  const raw = value.trim();
  const bytes = Buffer.from(raw, "utf8");
  const forms = new Set<string>([raw]);
  // Every form is at least as long as the raw value, base64 ones at least (4n - 4) / 3 and
  // hex ones 2n: families that cannot fit `longest` are not made (labels, at start-up).
  if ((4 * bytes.length - 4) / 3 <= longest) {
    for (let shift = 0; shift < 3; shift++) {
      const b64 = shiftedBase64(bytes, shift);
      forms.add(b64);
      forms.add(b64.replaceAll("+", "-").replaceAll("/", "_"));
    }
  }
  if (hex && 2 * bytes.length <= longest) {
    const digits = bytes.toString("hex");
    forms.add(digits);
    forms.add(digits.toUpperCase());
  }
  if (!UNCHANGED.test(raw) && bytes.length <= longest) {
    for (const keep of PERCENT_KEEP) addPercentForms(forms, bytes, keep);
    addJsonForms(forms, raw);
    forms.add(raw.replaceAll("'", "'\\''"));
    forms.add(raw.replace(/[\\"$`]/g, "\\$&"));
    forms.add(raw.replace(/[^A-Za-z0-9_./:=@%+,\s-]/gu, "\\$&"));
  }
  forms.delete("");
  return [...forms];
}

/**
 * Check a known value and return its trimmed form. Throws `SPOOL_E_REDACT_VALUE` when it is
 * shorter than {@link MIN_KNOWN_VALUE_BYTES} or an encoded form does not fit `window`
 * bytes; the message names its `source`, never the value.
 *
 * @category redaction
 * @example
 * ```ts
 * import { checkKnownValue, DEFAULT_REDACTION_WINDOW } from "@spool/transforms";
 * checkKnownValue({ value: "  s3cr3t-value  " }, DEFAULT_REDACTION_WINDOW); // "s3cr3t-value"
 * ```
 */
export function checkKnownValue(known: KnownValue, window: number): string {
  const source = known.source ?? "a known value";
  const trimmed = known.value.trim();
  const length = Buffer.byteLength(trimmed);
  if (length < MIN_KNOWN_VALUE_BYTES) {
    throw new SpoolError(
      "SPOOL_E_REDACT_VALUE",
      "redactor",
      `${source} is ${length === 0 ? "empty" : `only ${length} bytes`}; values shorter than ${MIN_KNOWN_VALUE_BYTES} bytes cannot be redacted safely (they would blank ordinary text), so it was refused`,
    );
  }
  // No form is longer than 6 bytes per byte of the value (a control byte as `\u001b`) plus
  // base64's rounding: below that bound the forms need not be made (start-up with a large
  // --redact-file).
  if (length * MAX_FORM_BYTES_PER_BYTE + 4 < window) return trimmed;
  let longest = 0;
  for (const form of knownValueForms(trimmed)) longest = Math.max(longest, Buffer.byteLength(form));
  if (longest >= window) {
    throw new SpoolError(
      "SPOOL_E_REDACT_VALUE",
      "redactor",
      `${source} is ${length} bytes; its encoded forms (up to ${longest} bytes) do not fit the ${window}-byte redaction window, so it was refused`,
    );
  }
  return trimmed;
}

/**
 * Known values from environment variables (`--redact-env NAME`, repeatable). Each becomes
 * rule `env:NAME`. Throws `SPOOL_E_REDACT_VALUE` for a variable that is unset or too short.
 *
 * @category redaction
 * @example
 * ```ts
 * import { createRedactor, knownValuesFromEnv } from "@spool/transforms";
 * const redactor = createRedactor({ knownValues: knownValuesFromEnv(["API_TOKEN"], { API_TOKEN: "tok-0123456789" }) });
 * ```
 */
export function knownValuesFromEnv(
  names: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): KnownValue[] {
  return names.map((name) => {
    const value = env[name];
    const source = `environment variable ${name} (--redact-env)`;
    if (value === undefined) {
      throw new SpoolError(
        "SPOOL_E_REDACT_VALUE",
        "redactor",
        `${source} is not set; nothing to redact`,
      );
    }
    const known: KnownValue = {
      value,
      name: `env:${name.replace(/[^A-Za-z0-9._:-]/g, "_")}`,
      source,
    };
    checkKnownValue(known, Number.POSITIVE_INFINITY);
    return known;
  });
}

/**
 * The values of the environment's credentials: every variable whose name says it holds one
 * (a word of it `TOKEN`, `SECRET`, `PASSWORD`, `PASSWD`, `PASSPHRASE`, `PASS`, `APIKEY`,
 * `CREDENTIAL(S)`, `CREDS`, or one ending in `TOKEN`, `PASSWORD`, `PASSWD` or `SECRET`;
 * `PWD` after another word; two words `API KEY`, `ACCESS KEY`, `PRIVATE KEY`, `AUTH KEY`,
 * `MASTER KEY`, `SIGNING KEY`, `ENCRYPTION KEY`; words split at `_`, `-` and `.`, any case:
 * `GITHUB_TOKEN`, `OPENAI_API_KEY`, `DB_PASSWORD`, `PGPASSWORD`, `MYSQL_PWD`,
 * `npm_config__authtoken`; and `SSHPASS`, `BW_SESSION`, `REDISCLI_AUTH`) and whose value
 * looks like one: 8+ bytes without a blank, not letters alone nor digits alone, not a path,
 * nor a URL without a password, nor a placeholder (`$X`, `${X}`, `<X>`, `%X%`, `***`). A name whose last word says what else it
 * holds (`…_TOKEN_FILE`, `_PATH`, `_URL`, `_ENDPOINT`, `_ID`, `_TYPE`, `_TTL`…) is none.
 * Each becomes rule `env:NAME`, as with `--redact-env` (its values found in every encoded
 * form, wherever they appear); a value whose forms do not fit the window is left to the
 * rules. At most {@link MAX_ENV_VALUES} values, the variables in name order.
 *
 * @category redaction
 * @example
 * ```ts
 * import { knownValuesOfEnvSecrets } from "@spool/transforms";
 * knownValuesOfEnvSecrets({ DB_PASSWORD: "Hunt3r2-prod", HOME: "/home/me", CI: "true" });
 * // [{ value: "Hunt3r2-prod", name: "env:DB_PASSWORD", source: "environment variable DB_PASSWORD" }]
 * ```
 */
export function knownValuesOfEnvSecrets(
  env: Readonly<Record<string, string | undefined>>,
  window: number = Number.POSITIVE_INFINITY,
): KnownValue[] {
  const known: KnownValue[] = [];
  for (const name of Object.keys(env).sort()) {
    const value = env[name];
    if (value === undefined || !namesCredential(name) || !looksLikeCredential(value)) continue;
    const candidate: KnownValue = {
      value,
      name: `env:${name.replace(/[^A-Za-z0-9._:-]/g, "_")}`,
      source: `environment variable ${name}`,
    };
    try {
      checkKnownValue(candidate, window);
    } catch {
      continue; // too long for the window: the rules still read it
    }
    known.push(candidate);
    if (known.length >= MAX_ENV_VALUES) break;
  }
  return known;
}

/** Most values {@link knownValuesOfEnvSecrets} takes from one environment. */
export const MAX_ENV_VALUES = 256;

const SECRET_WORDS = new Set(
  "TOKEN TOKENS SECRET SECRETS PASSWORD PASSWORDS PASSWD PASSPHRASE PASS APIKEY CREDENTIAL CREDENTIALS CREDS".split(
    " ",
  ),
);
const KEY_QUALIFIERS = new Set("API ACCESS PRIVATE AUTH MASTER SIGNING ENCRYPTION".split(" "));
/** A word that ends in one of these names a credential too (`PGPASSWORD`, `GHTOKEN`). */
const SECRET_ENDINGS = ["TOKEN", "PASSWORD", "PASSWD", "SECRET"];
/** Tools' variables of their own (sshpass's, the Bitwarden CLI's session key, redis-cli's). */
const CREDENTIAL_NAMES = new Set(["SSHPASS", "BW_SESSION", "REDISCLI_AUTH"]);
/** Last words of a name that say it holds something else than the credential. */
const NOT_THE_VALUE = new Set(
  "FILE PATH DIR DIRECTORY URL URI ENDPOINT HOST ID NAME TYPE KIND TTL EXPIRY EXPIRES EXPIRATION LENGTH SIZE HEADER PREFIX ENABLED DISABLED MODE VERSION COMMAND CMD HELPER PROGRAM".split(
    " ",
  ),
);

/** True when an environment variable's name says it holds a credential (see above). */
export function namesCredential(name: string): boolean {
  const words = name
    .toUpperCase()
    .split(/[_.-]+/)
    .filter(Boolean);
  if (words.length === 0 || NOT_THE_VALUE.has(words[words.length - 1]!)) return false;
  if (CREDENTIAL_NAMES.has(words.join("_"))) return true;
  return words.some(
    (word, i) =>
      SECRET_WORDS.has(word) ||
      SECRET_ENDINGS.some((end) => word.length > end.length && word.endsWith(end)) ||
      (word === "PWD" && i > 0) ||
      (word === "KEY" && i > 0 && KEY_QUALIFIERS.has(words[i - 1]!)),
  );
}

/** True when a value may be a credential (see {@link knownValuesOfEnvSecrets}). */
function looksLikeCredential(value: string): boolean {
  const v = value.trim();
  if (Buffer.byteLength(v) < MIN_KNOWN_VALUE_BYTES || /\s/.test(v)) return false;
  if (/^[A-Za-z]+$/.test(v) || /^[0-9]+$/.test(v)) return false;
  // A path, a URL without a password, a placeholder.
  if (/^(?:[/~.]|[A-Za-z]:\\)/.test(v) || /^[a-z][a-z0-9+.-]*:\/\/[^@]*$/i.test(v)) return false;
  return !/^(?:\$|<.*>$|%.*%$|\*+$)/.test(v);
}

/**
 * Known values from a file's text, one value per line (`--redact-file F`). Blank lines are
 * skipped; a line too short to redact safely is refused with its line number.
 *
 * @category redaction
 * @example
 * ```ts
 * import { parseKnownValues } from "@spool/transforms";
 * parseKnownValues("first-secret-1\n\nsecond-secret-2\n", "secrets.txt").length; // 2
 * ```
 */
export function parseKnownValues(text: string, source: string): KnownValue[] {
  const values: KnownValue[] = [];
  let line = 0;
  for (let at = 0; at < text.length; ) {
    const newline = text.indexOf("\n", at);
    const end = newline < 0 ? text.length : newline;
    line++;
    const value = text.slice(at, text.charCodeAt(end - 1) === 0x0d ? end - 1 : end);
    at = end + 1;
    if (value.trim() === "") continue;
    const known = new FileValue(value, line, source);
    checkKnownValue(known, Number.POSITIVE_INFINITY);
    values.push(known);
  }
  return values;
}

/**
 * A value read from a file: its source (`line N of F`) is made only for an error message,
 * not kept for each of a hundred thousand values.
 */
class FileValue implements KnownValue {
  constructor(
    readonly value: string,
    private readonly line: number,
    private readonly file: string,
  ) {}

  get source(): string {
    return `line ${this.line} of ${this.file}`;
  }
}

/**
 * {@link parseKnownValues} on a file's contents. Read errors become `SPOOL_E_REDACT_VALUE`.
 *
 * @category redaction
 * @example
 * ```ts
 * import { createRedactor, knownValuesFromFile } from "@spool/transforms";
 * const redactor = createRedactor({ knownValues: await knownValuesFromFile("/run/secrets/values") });
 * ```
 */
export async function knownValuesFromFile(path: string): Promise<KnownValue[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (cause) {
    throw new SpoolError("SPOOL_E_REDACT_VALUE", "redactor", `cannot read --redact-file ${path}`, {
      cause,
    });
  }
  return parseKnownValues(text, path);
}

/**
 * Base64 of `bytes` as it appears inside a longer base64 text where it starts `shift`
 * bytes into a 3-byte group: characters that also depend on the unknown neighbouring bytes
 * are left out, and so is padding.
 */
function shiftedBase64(bytes: Buffer, shift: number): string {
  const encoded = Buffer.concat([Buffer.alloc(shift), bytes])
    .toString("base64")
    .replace(/=+$/, "");
  const skip = shift === 0 ? 0 : shift + 1;
  const drop = (shift + bytes.length) % 3 === 0 ? 0 : 1;
  return encoded.slice(skip, encoded.length - drop);
}

/** Most bytes of any form per byte of the value (JSON's `\u001b` for one control byte). */
const MAX_FORM_BYTES_PER_BYTE = 6;

/** Values every encoder below leaves as they are. */
const UNCHANGED = /^[A-Za-z0-9_.-]*$/;

/**
 * Bytes each common percent-encoder leaves unescaped (beside `A-Za-z0-9`): JavaScript's
 * `encodeURIComponent` (lax); RFC 3986's unreserved set (strict: Go, curl, Python's
 * `quote(safe="")` and `quote_plus`, PHP's `rawurlencode`); Python's default `quote`;
 * PHP's `urlencode` and Java's `URLEncoder` (`~` escaped; Java keeps `*` too).
 */
const PERCENT_KEEP: readonly string[] = ["-_.!~*'()", "-_.~", "-_.~/", "-_.", "-_.*"];

/** `bytes` percent-encoded keeping `keep`: upper- and lower-case hex, space as `%20` and as `+`. */
function addPercentForms(forms: Set<string>, bytes: Uint8Array, keep: string): void {
  let upper = "";
  let hasSpace = false;
  for (const byte of bytes) {
    const ch = String.fromCharCode(byte);
    if (byte < 0x80 && (ALNUM.test(ch) || keep.includes(ch))) upper += ch;
    else {
      upper += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
      hasSpace ||= byte === 0x20;
    }
  }
  const lower = upper.replace(/%[0-9A-F]{2}/g, (sequence) => sequence.toLowerCase());
  for (const form of [upper, lower]) {
    forms.add(form);
    if (hasSpace) forms.add(form.replaceAll("%20", "+"));
  }
}

const ALNUM = /^[A-Za-z0-9]$/;

/** JSON string bodies: as `JSON.stringify` writes them, with `\/`, and ASCII-only (`\uXXXX`, both cases). */
function addJsonForms(forms: Set<string>, raw: string): void {
  const json = JSON.stringify(raw).slice(1, -1);
  // Without the `u` flag each UTF-16 unit matches alone: astral characters become the
  // surrogate pairs `ensure_ascii` writes.
  const lower = json.replace(
    /[\u0080-\uffff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  const upper = lower.replace(
    /\\u[0-9a-f]{4}/g,
    (sequence) => `\\u${sequence.slice(2).toUpperCase()}`,
  );
  for (const form of [json, lower, upper]) {
    forms.add(form);
    forms.add(form.replaceAll("/", "\\/"));
  }
}
