/**
 * Every catalogue entry's example in every context the redactor reads through (contexts are
 * views, not special cases): as written, alone on a line, after a keyword with `=`, `:` or
 * a space, inside a JSON or C string after each escape (a terminal colour's too), after a
 * terminal colour, percent-encoded (lax and strict)
 * and base64-wrapped; each split at every chunk boundary. And each entry's near misses: it
 * does not fire on a body one byte short of `minBody` or one past `maxBody`.
 */
import { describe, expect, it } from "vitest";
import { compileRedaction } from "../src/compile-redaction.js";
import { PROVIDER_FORMATS, type ProviderFormat } from "../src/provider-catalogue.js";
import { fillShape, providerSamples, seededRandom } from "../src/provider-samples.js";
import { createRedactor } from "../src/redactor.js";
import { DEFAULT_MAX_BODY } from "../src/rules/token-rule.js";
import { checkNoSecretPiece } from "../src/testing.js";

const compiled = compileRedaction();
const random = seededRandom(11);

/** Percent-encoding as Python's `quote(safe="")`, Go's `QueryEscape` and curl do it. */
const strict = (text: string) =>
  encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
const jsonEscaped = (text: string) => JSON.stringify(text).slice(1, -1);
// A terminal's colour, escaped as JSON writes its ESC, ends at a letter (`\u001b[32m`).
const ESCAPES = ["\\n", "\\t", "\\r", '\\"', "\\\\", "\\/", "\\u0022", "\\u001b[1;32m"];

interface Context {
  readonly name: string;
  /** The line around the token. */
  readonly wrap: (token: string) => string;
  /** How the secret reads inside that line. */
  readonly encode: (secret: string) => string;
  /** Whether the entry can be found in this context at all. */
  readonly applies?: (format: ProviderFormat, prefix: string) => boolean;
}

const same = (s: string) => s;
const CONTEXTS: readonly Context[] = [
  { name: "alone", wrap: (t) => `${t}\n`, encode: same },
  { name: "in prose", wrap: (t) => `note: ${t} was rotated\n`, encode: same },
  { name: "after KEY=", wrap: (t) => `export API_TOKEN=${t}\n`, encode: same },
  { name: "after key:", wrap: (t) => `token: ${t}\n`, encode: same },
  { name: "after a keyword and a space", wrap: (t) => `password ${t}\n`, encode: same },
  ...ESCAPES.map(
    (esc): Context => ({
      name: `in a JSON string after ${esc}`,
      wrap: (t) => `{"log":"start${esc}${jsonEscaped(t)}${esc}end","n":1}\n`,
      encode: jsonEscaped,
    }),
  ),
  { name: "in a C string", wrap: (t) => `printf("x\\n${t}\\n");\n`, encode: same },
  { name: "after a terminal colour", wrap: (t) => `\x1b[32m${t}\x1b[0m done\n`, encode: same },
  {
    name: "percent-encoded (lax)",
    wrap: (t) => `GET /cb?code=1&t=${encodeURI(t)}&x=2 HTTP/1.1\n`,
    encode: encodeURI,
    applies: (_format, prefix) => encodeURI(prefix) === prefix,
  },
  {
    name: "percent-encoded (strict)",
    wrap: (t) => `GET /cb?code=1&t=${strict(t)}&x=2 HTTP/1.1\n`,
    encode: strict,
    // A prefix an encoder escapes (`hooks.slack.com/…`, `$2b$`) is not read through it, nor
    // is a lead (the bytes before the prefix) whose alphabet has such bytes (`+` and `/`).
    applies: (format, prefix) =>
      strict(prefix) === prefix && !(format.lead && /[+/]/.test(format.leadBody ?? "")),
  },
];

/** One example per prefix of every entry. */
const EXAMPLES = PROVIDER_FORMATS.flatMap((format) =>
  providerSamples(format, random).map((sample, i) => ({
    format,
    prefix: format.prefixes[i]!,
    ...sample,
  })),
);

/** The redactor's output of `text` in one chunk, and split in two at every offset. */
function redactEverySplit(text: string): string {
  const input = Buffer.from(text, "utf8");
  const run = (chunks: Buffer[]) => {
    const redactor = createRedactor(compiled);
    const out = chunks.flatMap((chunk) => redactor.push([chunk]));
    return Buffer.concat([...out, ...redactor.end()]).toString("utf8");
  };
  const whole = run([input]);
  for (let cut = 1; cut < input.length; cut++) {
    const split = run([input.subarray(0, cut), input.subarray(cut)]);
    if (split !== whole)
      throw new Error(`split at ${cut} of ${JSON.stringify(text)}: ${split} != ${whole}`);
  }
  return whole;
}

describe("catalogue entries in every context, split at every boundary", () => {
  it.each(EXAMPLES.map((e) => [e.format.rule, e.prefix, e] as const))(
    "%s (%s)",
    (_rule, prefix, { format, text, secret }) => {
      for (const context of CONTEXTS) {
        if (context.applies && !context.applies(format, prefix)) continue;
        const output = redactEverySplit(context.wrap(text));
        // A marker may spell the vendor's name, which the prefix also holds.
        const bare = output.replace(/\[REDACTED:[^\]]*\]/g, "\0");
        try {
          expect(output).toContain("[REDACTED:");
          checkNoSecretPiece(bare, context.encode(secret));
        } catch (error) {
          throw new Error(`${context.name}: ${(error as Error).message}`);
        }
      }
      // Base64-wrapped (`echo … | base64`): the run that encodes it is redacted whole.
      const wrapped = Buffer.from(`token=${text}\n`).toString("base64");
      expect(redactEverySplit(`data: ${wrapped}\n`)).not.toContain(wrapped.slice(0, 16));
    },
  );

  it.each(
    PROVIDER_FORMATS.filter((f) => !f.keepPrefix && f.lead === undefined).map(
      (f) => [f.rule, f] as const,
    ),
  )("%s: a body one short of minBody or one past maxBody is not this token", (_rule, format) => {
    const prefix = format.prefixes[0]!;
    // Base64's `=` ends a token (padding): a near miss is a run without it.
    const alphabet = format.innerEquals ? format.body : format.body.replace("=", "");
    const body = (n: number) => fillShape(`%{${n}:${alphabet}}`, random, prefix);
    const near = [body(format.minBody - 1), body((format.maxBody ?? DEFAULT_MAX_BODY) + 1)];
    for (const miss of near) {
      if (miss.length === prefix.length) continue;
      // This entry does not fire at its prefix (another entry may rightly claim the same
      // bytes, as `sk-` does a short `sk-ant-` key, and other rules a piece of a random run).
      const output = redactEverySplit(`near miss ${miss} end\n`);
      expect(output).not.toContain(`near miss [REDACTED:${format.rule}]`);
    }
  });
});
