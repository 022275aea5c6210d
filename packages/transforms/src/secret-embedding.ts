/**
 * Random text with secrets embedded in the contexts they meet in real output: between
 * words, as `KEY=value`, in JSON, in YAML, in an HTTP header, after a command-line flag,
 * in a query string, quoted. A rule that only catches a secret between spaces fails here.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbSecretEmbedding } from "@spool/transforms/testing";
 * const [sample] = fc.sample(arbSecretEmbedding({ secrets: ["acme_0123456789abcdefghijk"] }), 1);
 * sample?.text; // e.g. 'INFO ok {"token":"acme_0123456789abcdefghijk"}\n200 '
 * ```
 */
import type { Arbitrary } from "fast-check";
import { fc } from "./fast-check-peer.js";

/**
 * A secret in its context: `text` is embedded, `secret` (a part of it) must not survive.
 *
 * @category testing
 * @example
 * ```ts
 * import { checkRedaction, type SecretSample } from "@spool/transforms/testing";
 * const sample: SecretSample = { text: "DB_PASSWORD=hunter2hunter2", secret: "hunter2hunter2" };
 * checkRedaction({ knownValues: ["hunter2hunter2"] }, { secrets: [sample], numRuns: 20 });
 * ```
 */
export interface SecretSample {
  /** The text embedded as written (the secret with its own context). */
  readonly text: string;
  /** The part of `text` that must not survive redaction. */
  readonly secret: string;
}

/**
 * The name of a context a bare secret is embedded in; see {@link SECRET_CONTEXTS}.
 *
 * @category testing
 * @example
 * ```ts
 * import type { SecretContext } from "@spool/transforms/testing";
 * const structured: SecretContext[] = ["json", "yaml", "header"];
 * ```
 */
export type SecretContext = keyof typeof SECRET_CONTEXTS;

/**
 * The contexts a bare secret is embedded in, by name: each wraps the secret `s` in the text
 * around it. A {@link SecretSample} that brings its own context is embedded as written.
 *
 * @category testing
 * @example
 * ```ts
 * import { SECRET_CONTEXTS } from "@spool/transforms/testing";
 * SECRET_CONTEXTS.json("s3cret"); // '{"token":"s3cret","ok":true}'
 * ```
 */
export const SECRET_CONTEXTS = {
  words: (s: string) => s,
  assignment: (s: string) => `API_TOKEN=${s}`,
  export: (s: string) => `export SERVICE_KEY="${s}"`,
  json: (s: string) => `{"token":"${s}","ok":true}`,
  yaml: (s: string) => `credentials:\n  api_key: ${s}\n`,
  header: (s: string) => `X-Api-Key: ${s}\r\n`,
  bearer: (s: string) => `Authorization: Bearer ${s}\r\n`,
  "flag-equals": (s: string) => `--token=${s}`,
  "flag-space": (s: string) => `--api-key ${s}`,
  query: (s: string) => `GET /v1/items?key=${s}&page=2`,
  quoted: (s: string) => `'${s}'`,
} as const satisfies Record<string, (secret: string) => string>;

/**
 * Options of {@link arbSecretEmbedding}: the secrets, the filler and the contexts.
 *
 * @category testing
 * @example
 * ```ts
 * import { arbSecretEmbedding, type EmbeddingOptions } from "@spool/transforms/testing";
 * const options: EmbeddingOptions = { secrets: ["acme_0123456789abcdefghijk"], contexts: ["json", "assignment"] };
 * const texts = arbSecretEmbedding(options);
 * ```
 */
export interface EmbeddingOptions {
  /**
   * Secrets to embed (each at least once, in random order, maybe repeated): a bare secret,
   * or one that needs its context (`{ text: "DB_PASSWORD=hunter22", secret: "hunter22" }`).
   */
  readonly secrets: readonly (string | SecretSample)[];
  /** Filler text between them. @default log-like words ({@link arbLogText}) */
  readonly filler?: Arbitrary<string>;
  /** Contexts bare secrets are embedded in. @default every one of {@link SECRET_CONTEXTS} */
  readonly contexts?: readonly SecretContext[];
}

/**
 * Log-like filler text: words, numbers, punctuation, newlines (and a little UTF-8).
 *
 * @category testing
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbLogText } from "@spool/transforms/testing";
 * fc.sample(arbLogText(40), 1); // e.g. ["GET 200\tok, "]
 * ```
 */
export function arbLogText(maxLength = 80): Arbitrary<string> {
  const word = fc.constantFrom(
    "INFO",
    "warn",
    "GET",
    "/api/v1",
    "200",
    "ok",
    "id=42",
    "ms",
    "über",
    "日本",
    "->",
    "{",
    "}",
    ":",
  );
  const sep = fc.constantFrom(" ", " ", "\n", "\t", ", ");
  return fc
    .array(fc.tuple(word, sep), { maxLength: Math.max(1, Math.floor(maxLength / 6)) })
    .map((parts) => parts.map(([w, s]) => w + s).join(""));
}

/**
 * Text with the given secrets embedded in filler, each bare secret in a random context
 * (see {@link SECRET_CONTEXTS}). `secrets` lists what must not survive redaction.
 *
 * @category testing
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbSecretEmbedding } from "@spool/transforms/testing";
 * fc.sample(arbSecretEmbedding({ secrets: ["hunter22hunter22"], contexts: ["json"] }), 1);
 * ```
 */
export function arbSecretEmbedding(
  options: EmbeddingOptions,
): Arbitrary<{ text: string; secrets: readonly string[] }> {
  const filler = options.filler ?? arbLogText();
  const sep = fc.constantFrom(" ", "\n", "\t", "\r\n");
  const contexts = options.contexts ?? (Object.keys(SECRET_CONTEXTS) as SecretContext[]);
  if (contexts.length === 0) throw new Error("arbSecretEmbedding: contexts is empty");
  const samples = options.secrets.map((s) => (typeof s === "string" ? { text: s, secret: s } : s));
  const placed = fc
    .tuple(fc.constantFrom(...samples), fc.constantFrom(...contexts))
    .map(([sample, context]) =>
      sample.text === sample.secret ? SECRET_CONTEXTS[context](sample.text) : sample.text,
    );
  const piece = fc.tuple(filler, sep, placed, sep);
  return fc.array(piece, { minLength: 1, maxLength: 4 }).chain((pieces) =>
    filler.map((tail) => ({
      text: pieces.map(([f, a, s, b]) => f + a + s + b).join("") + tail,
      secrets: samples.map((s) => s.secret),
    })),
  );
}
