/**
 * The kit's check for a stage of your own that redacts: inputs that hold your secrets and
 * others of the same shape, embedded in log-like text, split at random and pushed in
 * batches; no 8-byte piece of any of them may reach the output, whatever the split, and
 * the stage passes the chunking checks of `checkStageRun` against its own one-shot output.
 *
 * @example
 * ```ts
 * import type { Stage } from "@spool/core";
 * import { checkRedactingStage } from "@spool/transforms/testing";
 * declare const maskPins: () => Stage;
 * checkRedactingStage({ stage: maskPins, secrets: ["PIN-12345678"], numRuns: 50 });
 * ```
 */
import { runStage, type Stage } from "@spool/core/runtime";
import type { Arbitrary } from "fast-check";
import { fc } from "./fast-check-peer.js";
import {
  arbSecretEmbedding,
  type EmbeddingOptions,
  type SecretSample,
} from "./secret-embedding.js";
import {
  arbBatched,
  assertProperty,
  checkStageRun,
  type PropertyRunOptions,
} from "./stage-property.js";

/**
 * What {@link checkRedactingStage} takes: the stage, example secrets, and run settings.
 *
 * @category testing
 * @example
 * ```ts
 * import type { RedactingStageOptions } from "@spool/transforms/testing";
 * declare const maskPins: RedactingStageOptions["stage"];
 * const options: RedactingStageOptions = { stage: maskPins, secrets: ["PIN-12345678"] };
 * ```
 */
export interface RedactingStageOptions
  extends Omit<EmbeddingOptions, "secrets">,
    PropertyRunOptions {
  /** A fresh stage; called more than once per run. */
  readonly stage: () => Stage;
  /**
   * Example secrets (bare, or `{ text, secret }` with their context). Each run embeds them
   * and others of the same shape: the prefix (up to the first `_`, `-`, `:` or `.` in the
   * first 8 characters) kept, every other letter, digit or capital replaced by a random
   * one of its kind (`acme_Ab3…` gives `acme_Qz7…`, `PIN-1234` gives `PIN-8071`).
   */
  readonly secrets: readonly (string | SecretSample)[];
  /** Embed secrets of the same shape too (false for a stage that knows exact values only). @default true */
  readonly alike?: boolean;
}

/**
 * Property-test a stage that redacts: no 8-byte piece of an embedded secret (yours, or one
 * of the same shape) survives, whatever the split and batching, and the output does not
 * depend on them. A failure names the secret and shows the input and chunks.
 *
 * @category testing
 * @example
 * ```ts
 * import type { Stage } from "@spool/core";
 * import { checkRedactingStage } from "@spool/transforms/testing";
 * declare const maskPins: () => Stage;
 * checkRedactingStage({ stage: maskPins, secrets: ["PIN-12345678"], numRuns: 100 });
 * ```
 */
export function checkRedactingStage(options: RedactingStageOptions): void {
  const samples = options.secrets.map((s) => (typeof s === "string" ? { text: s, secret: s } : s));
  const shaped = fc
    .array(fc.constantFrom(...samples).chain(sameShape), {
      minLength: options.alike === false ? 0 : 1,
      maxLength: options.alike === false ? 0 : 2,
    })
    .chain((alike) => arbSecretEmbedding({ ...options, secrets: [...samples, ...alike] }));
  const cases = shaped.chain(({ text, secrets }) =>
    arbBatched(fc.constant(Buffer.from(text))).map((c) => ({ ...c, secrets })),
  );
  assertProperty(
    fc.property(cases, ({ bytes, chunks, batches, secrets }) => {
      const output = runBatched(options.stage(), chunks, batches).toString("latin1");
      for (const secret of secrets) {
        const piece = survivingPiece(output, Buffer.from(secret).toString("latin1"));
        if (piece !== null) {
          throw new Error(
            `stage ${JSON.stringify(options.stage().name)}: ${JSON.stringify(piece)} of the secret ${JSON.stringify(secret)} survives in its output\n  input  ${JSON.stringify(bytes.toString())}\n  output ${JSON.stringify(Buffer.from(output, "latin1").toString())}`,
          );
        }
      }
      // Then the output must not depend on the split: the one-shot output is the model.
      checkStageRun(options.stage, bytes, chunks, runStage(options.stage(), [bytes]), 4, batches);
    }),
    options,
  );
}

/** A secret of the same shape as `sample`'s: letters, digits and capitals replaced by others of their kind. */
function sameShape(sample: SecretSample): Arbitrary<SecretSample> {
  const prefix = /^[^_\-:.]{0,7}[_\-:.]/.exec(sample.secret)?.[0].length ?? 0;
  const kinds = [...sample.secret].map((ch, i) =>
    i < prefix
      ? null
      : /[0-9]/.test(ch)
        ? DIGITS
        : /[a-z]/.test(ch)
          ? LOWER
          : /[A-Z]/.test(ch)
            ? UPPER
            : null,
  );
  const picks = kinds.map((kind, i) =>
    kind === null ? fc.constant([...sample.secret][i]!) : fc.constantFrom(...kind),
  );
  return fc.tuple(...picks).map((chars) => {
    const secret = chars.join("");
    return { text: sample.text.replace(sample.secret, secret), secret };
  });
}

function runBatched(
  stage: Stage,
  chunks: readonly Uint8Array[],
  batches: readonly number[],
): Buffer {
  const out: Uint8Array[] = [];
  let at = 0;
  for (const size of batches) {
    const batch = chunks.slice(at, at + size).filter((c) => c.byteLength > 0);
    at += size;
    if (batch.length > 0) out.push(...stage.push(batch));
  }
  out.push(...stage.end());
  return Buffer.concat(out);
}

/** The first 8-character piece of `secret` found in `output`, or null (a secret shorter than 8: itself). */
function survivingPiece(output: string, secret: string, piece = 8): string | null {
  const n = Math.min(piece, secret.length);
  for (let i = 0; i + n <= secret.length; i++) {
    const part = secret.slice(i, i + n);
    if (output.includes(part)) return part;
  }
  return null;
}

const DIGITS = [..."0123456789"];
const LOWER = [..."abcdefghijklmnopqrstuvwxyz"];
const UPPER = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"];
