/**
 * The testing kit for stages and redaction rules (`@spool/transforms/testing`): fast-check
 * arbitraries for chunkings and secret embeddings, and the invariant checks every built-in
 * stage and rule passes (SPEC §5): chunking invariance, provenance of every emitted byte
 * after every write (no byte inside a span the one-shot output redacts), and hold ≤ window.
 * Checks throw an `Error` describing the first violation, so they work in any test runner.
 *
 * @example
 * ```ts
 * import { expect, test } from "vitest";
 * import { tokenRule } from "@spool/transforms";
 * import { checkRedaction } from "@spool/transforms/testing";
 * test("my rule keeps SPEC §5", () => {
 *   const acme = tokenRule({ name: "acme-key", prefixes: ["acme_"], body: "a-z0-9", minBody: 20 });
 *   checkRedaction({ rules: [acme] }, { secrets: ["acme_0123456789abcdefghijk"] }); // 100 random runs
 * });
 * ```
 */
import { runStage, type Stage } from "@spool/core/runtime";
import type { CompiledRedaction, RedactionOptions } from "./compile-redaction.js";
import { fc } from "./fast-check-peer.js";
import { createRedactor, type TraceSegment } from "./redactor.js";
import { arbSecretEmbedding, type EmbeddingOptions } from "./secret-embedding.js";
import {
  arbSplitOffsets,
  assertProperty,
  byteAtATime,
  countersProblem,
  type PropertyRunOptions,
  showBytes,
  splitAt,
} from "./stage-property.js";

export {
  checkLedger,
  createMemoryWriter,
  type LedgerExpectation,
  type MemoryWriter,
  type MemoryWriterOptions,
  type PipelineRun,
  runThroughPipeline,
} from "@spool/core/testing";
export {
  checkRedactingStage,
  type RedactingStageOptions,
} from "./redacting-stage-check.js";
export {
  arbLogText,
  arbSecretEmbedding,
  type EmbeddingOptions,
  SECRET_CONTEXTS,
  type SecretContext,
  type SecretSample,
} from "./secret-embedding.js";
export {
  allChunkings,
  arbBatched,
  arbChunked,
  arbSplitOffsets,
  arbStageInput,
  assertProperty,
  byteAtATime,
  checkStageProperty,
  checkStageRun,
  countersProblem,
  type PropertyRunOptions,
  type StagePropertyOptions,
  showBytes,
  splitAt,
} from "./stage-property.js";

/**
 * Chunking invariance, no retraction and hold ≤ window for any stage, on one input and one
 * chunking: after every push the output so far is a prefix of the one-shot output, `held`
 * never exceeds `window`, and the final output equals the one-shot output. Throws an
 * `Error` describing the first violation. {@link checkStageProperty} runs it on random
 * inputs and chunkings.
 *
 * @category testing
 * @example
 * ```ts
 * import { createUtf8Decoder } from "@spool/transforms";
 * import { checkStage } from "@spool/transforms/testing";
 * const input = Buffer.from("héllo");
 * checkStage(() => createUtf8Decoder(), input, [input.subarray(0, 2), input.subarray(2)]);
 * ```
 */
export function checkStage(
  makeStage: () => Stage,
  input: Uint8Array,
  chunks: readonly Uint8Array[],
): void {
  const expected = runStage(makeStage(), [input]);
  const stage = makeStage();
  const window = stage.window ?? Number.POSITIVE_INFINITY;
  const got: Uint8Array[] = [];
  let length = 0;
  const verify = (what: string) => {
    const so = Buffer.concat(got);
    if (so.length < length || !so.equals(expected.subarray(0, so.length))) {
      throw new Error(
        `${stage.name}: after ${what} the output is not a prefix of the one-shot output\n${describeChunking(input, chunks)}`,
      );
    }
    length = so.length;
    if (stage.held > window)
      throw new Error(`${stage.name}: held ${stage.held} > window ${window} after ${what}`);
  };
  chunks.forEach((chunk, i) => {
    if (chunk.length === 0) return;
    got.push(...stage.push([chunk]));
    verify(`write ${i + 1}/${chunks.length}`);
  });
  got.push(...stage.end());
  verify("end");
  const counted = countersProblem(stage);
  if (counted !== null) throw new Error(`${stage.name}: ${counted}`);
  const all = Buffer.concat(got);
  if (!all.equals(expected)) {
    throw new Error(
      `${stage.name}: chunked output differs from one-shot output\n${describeChunking(input, chunks)}\n got ${showBytes(all)}\nwant ${showBytes(expected)}`,
    );
  }
  // The chunks as one batch, equal ones as one shared object: a stage must not tell pieces
  // apart by identity (a decoder emits one U+FFFD buffer for every invalid byte).
  const batched = makeStage();
  const pieces = [...batched.push(sharedEqualChunks(chunks)), ...batched.end()];
  const all2 = Buffer.concat(pieces);
  if (!all2.equals(expected)) {
    throw new Error(
      `${stage.name}: one batch with shared equal pieces differs from one-shot output\n${describeChunking(input, chunks)}\n got ${showBytes(all2)}\nwant ${showBytes(expected)}`,
    );
  }
}

/** The non-empty chunks, each equal run of bytes as the same object wherever it occurs. */
function sharedEqualChunks(chunks: readonly Uint8Array[]): Uint8Array[] {
  const seen = new Map<string, Uint8Array>();
  const shared: Uint8Array[] = [];
  for (const chunk of chunks) {
    if (chunk.byteLength === 0) continue;
    const key = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("latin1");
    let piece = seen.get(key);
    if (piece === undefined) {
      piece = chunk;
      seen.set(key, piece);
    }
    shared.push(piece);
  }
  return shared;
}

/**
 * The redacted and omitted input ranges of the one-shot redaction of `input`: where a
 * rule fired, in input offsets.
 *
 * @category testing
 * @example
 * ```ts
 * import { redactedRanges } from "@spool/transforms/testing";
 * const ranges = redactedRanges({ knownValues: ["hunter2hunter2"] }, Buffer.from("pw hunter2hunter2"));
 * ranges.map((r) => [r.start, r.end]); // [[3, 17]]
 * ```
 */
export function redactedRanges(
  source: RedactionOptions | CompiledRedaction,
  input: Uint8Array,
): TraceSegment[] {
  const ranges: TraceSegment[] = [];
  const redactor = createRedactor(source, { trace: (s) => s.kind !== "raw" && ranges.push(s) });
  redactor.push([input]);
  redactor.end();
  return ranges;
}

/**
 * Everything {@link checkStage} checks for a redactor, plus provenance after every write:
 * each raw byte emitted so far comes from an input offset outside every span the one-shot
 * output redacts or omits; and byte accounting: output = input − `redactedBytes` +
 * `markerBytes`, with `redactedBytes` the one-shot output's redacted and omitted ranges.
 * Throws an `Error` naming the first violation.
 *
 * @category testing
 * @example
 * ```ts
 * import { byteAtATime, checkRedactor } from "@spool/transforms/testing";
 * const input = Buffer.from("token: hunter2hunter2\n");
 * checkRedactor({ knownValues: ["hunter2hunter2"] }, input, byteAtATime(input));
 * ```
 */
export function checkRedactor(
  source: RedactionOptions | CompiledRedaction,
  input: Uint8Array,
  chunks: readonly Uint8Array[],
): void {
  checkStage(() => createRedactor(source), input, chunks);
  const ranges = redactedRanges(source, input);
  const raw: TraceSegment[] = [];
  const redactor = createRedactor(source, { trace: (s) => s.kind === "raw" && raw.push(s) });
  const verify = (what: string) => {
    for (const seg of raw) {
      for (const r of ranges) {
        if (seg.start < r.end && r.start < seg.end) {
          throw new Error(
            `redactor: after ${what}, input bytes [${seg.start}, ${seg.end}) were emitted but the one-shot output ${r.kind} [${r.start}, ${r.end})\n${describeChunking(input, chunks)}`,
          );
        }
      }
    }
    raw.length = 0;
  };
  let produced = 0;
  chunks.forEach((chunk, i) => {
    if (chunk.length === 0) return;
    for (const piece of redactor.push([chunk])) produced += piece.byteLength;
    verify(`write ${i + 1}/${chunks.length}`);
  });
  for (const piece of redactor.end()) produced += piece.byteLength;
  verify("end");
  // Byte accounting: every input byte is handed on or counted as removed, and the markers
  // are what was added; what was removed is exactly what the one-shot output redacts.
  const { redactedBytes, markerBytes } = redactor.counters;
  const removed = ranges.reduce((sum, r) => sum + (r.end - r.start), 0);
  if (produced !== input.length - redactedBytes + markerBytes || redactedBytes !== removed) {
    throw new Error(
      `redactor: ${input.length} bytes in, ${produced} out, but counted ${redactedBytes} removed (ranges: ${removed}) and ${markerBytes} of markers\n${describeChunking(input, chunks)}`,
    );
  }
}

/**
 * Throw if `output` still contains any `piece`-byte substring of `secret` (8 bytes by
 * default): a partial leak counts as a leak.
 *
 * @category testing
 * @example
 * ```ts
 * import { redactText } from "@spool/transforms";
 * import { checkNoSecretPiece } from "@spool/transforms/testing";
 * checkNoSecretPiece(redactText("pw=hunter2hunter2", { knownValues: ["hunter2hunter2"] }), "hunter2hunter2");
 * ```
 */
export function checkNoSecretPiece(output: string, secret: string, piece = 8): void {
  const bytes = Buffer.from(secret, "utf8");
  const out = Buffer.from(output, "utf8");
  for (let i = 0; i + piece <= bytes.length; i++) {
    if (out.includes(bytes.subarray(i, i + piece))) {
      throw new Error(
        `a ${piece}-byte piece of a secret (${JSON.stringify(secret.slice(0, 4))}…, offset ${i}) survived redaction: ${JSON.stringify(output)}`,
      );
    }
  }
}

/**
 * Options of {@link checkRedaction}: what to embed (see {@link EmbeddingOptions}) and how
 * many runs (see {@link PropertyRunOptions}).
 *
 * @category testing
 * @example
 * ```ts
 * import { checkRedaction, type CheckRedactionOptions } from "@spool/transforms/testing";
 * const options: CheckRedactionOptions = { secrets: ["hunter2hunter2"], contexts: ["json", "flag-equals"], numRuns: 30 };
 * checkRedaction({ knownValues: ["hunter2hunter2"] }, options);
 * ```
 */
export interface CheckRedactionOptions extends EmbeddingOptions, PropertyRunOptions {}

/**
 * A property test for rules: embed `secrets` in random log text, each bare secret in a
 * random context (`KEY=value`, JSON, YAML, headers, flags… see `SECRET_CONTEXTS`), split it
 * randomly (and byte at a time), check {@link checkRedactor} and that no 8-byte piece of any
 * secret survives. Run it on your own rule in one line; a failure names the piece that
 * survived and the text it survived in.
 *
 * @category testing
 * @example
 * ```ts
 * import { tokenRule } from "@spool/transforms";
 * import { checkRedaction } from "@spool/transforms/testing";
 * const acme = tokenRule({ name: "acme-key", prefixes: ["acme_"], body: "a-z0-9", minBody: 20 });
 * checkRedaction({ rules: [acme] }, { secrets: ["acme_0123456789abcdefghijk"], numRuns: 50 });
 * ```
 */
export function checkRedaction(
  source: RedactionOptions | CompiledRedaction,
  options: CheckRedactionOptions,
): void {
  const embedding = arbSecretEmbedding(options).chain(({ text, secrets }) => {
    const input = Buffer.from(text, "utf8");
    return arbSplitOffsets(input.length).map((offsets) => ({
      input,
      secrets,
      chunks: splitAt(input, offsets),
    }));
  });
  assertProperty(
    fc.property(embedding, fc.boolean(), ({ input, secrets, chunks }, oneByOne) => {
      checkRedactor(source, input, oneByOne ? byteAtATime(input) : chunks);
      const redactor = createRedactor(source);
      const output = Buffer.concat([...redactor.push([input]), ...redactor.end()]).toString("utf8");
      for (const secret of secrets) checkNoSecretPiece(output, secret);
    }),
    options,
  );
}

function describeChunking(input: Uint8Array, chunks: readonly Uint8Array[]): string {
  if (chunks.length > 40) return `input ${showBytes(input)} in ${chunks.length} chunks`;
  return `input ${showBytes(input)} in chunks [${chunks.map((c) => showBytes(c, 60)).join(", ")}]`;
}
