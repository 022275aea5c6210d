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
import fc from "fast-check";
import type { CompiledRedaction, RedactionOptions } from "./compile-redaction.js";
import { createRedactor, type TraceSegment } from "./redactor.js";

/** Every split of `input` into non-empty chunks (2^(n-1) of them): exhaustive for short inputs. */
export function* allChunkings(input: Uint8Array): Generator<Uint8Array[]> {
  const n = input.length;
  if (n <= 1) {
    yield [input];
    return;
  }
  for (let mask = 0; mask < 2 ** (n - 1); mask++) {
    const chunks: Uint8Array[] = [];
    let start = 0;
    for (let i = 1; i < n; i++) {
      if ((mask >> (i - 1)) & 1) {
        chunks.push(input.subarray(start, i));
        start = i;
      }
    }
    chunks.push(input.subarray(start));
    yield chunks;
  }
}

/** `input` one byte per chunk. */
export function byteAtATime(input: Uint8Array): Uint8Array[] {
  return Array.from(input, (_, i) => input.subarray(i, i + 1));
}

/** `input` split at the given offsets (out-of-range and repeated offsets ignored). */
export function splitAt(input: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const cuts = [...new Set(offsets.filter((o) => o > 0 && o < input.length))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const cut of cuts) {
    chunks.push(input.subarray(start, cut));
    start = cut;
  }
  chunks.push(input.subarray(start));
  return chunks;
}

/** Random split offsets for an input of `length` bytes (use with {@link splitAt}). */
export function arbSplitOffsets(length: number, maxCuts = 32): fc.Arbitrary<number[]> {
  if (length < 2) return fc.constant([]);
  return fc.array(fc.integer({ min: 1, max: length - 1 }), { maxLength: maxCuts });
}

/** An input and a random chunking of it. */
export function arbChunked(
  input: fc.Arbitrary<Uint8Array>,
): fc.Arbitrary<{ input: Uint8Array; chunks: Uint8Array[] }> {
  return input.chain((bytes) =>
    arbSplitOffsets(bytes.length).map((offsets) => ({
      input: bytes,
      chunks: splitAt(bytes, offsets),
    })),
  );
}

/** A secret in its context: `text` is embedded, `secret` (a part of it) must not survive. */
export interface SecretSample {
  readonly text: string;
  readonly secret: string;
}

export interface EmbeddingOptions {
  /**
   * Secrets to embed (each at least once, in random order, maybe repeated): a bare secret,
   * or one that needs its context (`{ text: "DB_PASSWORD=hunter22", secret: "hunter22" }`).
   */
  readonly secrets: readonly (string | SecretSample)[];
  /** Filler text between them. @default log-like words */
  readonly filler?: fc.Arbitrary<string>;
}

/** Log-like filler text: words, numbers, punctuation, newlines (and a little UTF-8). */
export function arbLogText(maxLength = 80): fc.Arbitrary<string> {
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

/** Text with the given secrets embedded between whitespace-delimited filler. */
export function arbSecretEmbedding(
  options: EmbeddingOptions,
): fc.Arbitrary<{ text: string; secrets: readonly string[] }> {
  const filler = options.filler ?? arbLogText();
  const sep = fc.constantFrom(" ", "\n", "\t", "\r\n");
  const samples = options.secrets.map((s) => (typeof s === "string" ? { text: s, secret: s } : s));
  const piece = fc.tuple(filler, sep, fc.constantFrom(...samples), sep);
  return fc.array(piece, { minLength: 1, maxLength: 4 }).chain((pieces) =>
    filler.map((tail) => ({
      text: pieces.map(([f, a, s, b]) => f + a + s.text + b).join("") + tail,
      secrets: samples.map((s) => s.secret),
    })),
  );
}

/**
 * Chunking invariance, no retraction and hold ≤ window for any stage: after every push the
 * output so far is a prefix of the one-shot output, `held` never exceeds `window`, and the
 * final output equals the one-shot output.
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
        `${stage.name}: after ${what} the output is not a prefix of the one-shot output\n${describe(input, chunks)}`,
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
  const all = Buffer.concat(got);
  if (!all.equals(expected)) {
    throw new Error(
      `${stage.name}: chunked output differs from one-shot output\n${describe(input, chunks)}\n got ${JSON.stringify(all.toString("latin1"))}\nwant ${JSON.stringify(expected.toString("latin1"))}`,
    );
  }
  // The chunks as one batch, equal ones as one shared object: a stage must not tell pieces
  // apart by identity (a decoder emits one U+FFFD buffer for every invalid byte).
  const batched = makeStage();
  const pieces = [...batched.push(sharedEqualChunks(chunks)), ...batched.end()];
  const all2 = Buffer.concat(pieces);
  if (!all2.equals(expected)) {
    throw new Error(
      `${stage.name}: one batch with shared equal pieces differs from one-shot output\n${describe(input, chunks)}\n got ${JSON.stringify(all2.toString("latin1"))}\nwant ${JSON.stringify(expected.toString("latin1"))}`,
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

/** Redacted and omitted input ranges of the one-shot redaction of `input`. */
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
 * output redacts or omits.
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
            `redactor: after ${what}, input bytes [${seg.start}, ${seg.end}) were emitted but the one-shot output ${r.kind} [${r.start}, ${r.end})\n${describe(input, chunks)}`,
          );
        }
      }
    }
    raw.length = 0;
  };
  chunks.forEach((chunk, i) => {
    if (chunk.length === 0) return;
    redactor.push([chunk]);
    verify(`write ${i + 1}/${chunks.length}`);
  });
  redactor.end();
  verify("end");
}

/** Throw if the redaction of `text` still contains any `piece`-byte substring of `secret`. */
export function checkNoSecretPiece(output: string, secret: string, piece = 8): void {
  const bytes = Buffer.from(secret, "utf8");
  const out = Buffer.from(output, "utf8");
  for (let i = 0; i + piece <= bytes.length; i++) {
    if (out.includes(bytes.subarray(i, i + piece))) {
      throw new Error(
        `a ${piece}-byte piece of a secret at offset ${i} survived redaction: ${JSON.stringify(output)}`,
      );
    }
  }
}

export interface CheckRedactionOptions extends EmbeddingOptions {
  /** fast-check runs. @default 100 */
  readonly numRuns?: number;
  /** fast-check seed, for replay. */
  readonly seed?: number;
}

/**
 * A property test for rules: embed `secrets` in random log text, split it randomly (and
 * byte at a time), check {@link checkRedactor} and that no 8-byte piece of any secret
 * survives. Run it on your own rule in one line.
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
  fc.assert(
    fc.property(embedding, fc.boolean(), ({ input, secrets, chunks }, oneByOne) => {
      checkRedactor(source, input, oneByOne ? byteAtATime(input) : chunks);
      const redactor = createRedactor(source);
      const output = Buffer.concat([...redactor.push([input]), ...redactor.end()]).toString("utf8");
      for (const secret of secrets) checkNoSecretPiece(output, secret);
    }),
    {
      numRuns: options.numRuns ?? 100,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
    },
  );
}

function describe(input: Uint8Array, chunks: readonly Uint8Array[]): string {
  const text = (b: Uint8Array) => JSON.stringify(Buffer.from(b).toString("latin1"));
  if (input.length > 400) return `input of ${input.length} bytes in ${chunks.length} chunks`;
  return `input ${text(input)} in chunks [${chunks.map(text).join(", ")}]`;
}
