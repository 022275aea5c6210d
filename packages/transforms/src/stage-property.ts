/**
 * The property runner for stages: random inputs, random chunkings (and byte at a time),
 * checked against a reference model after every write and at `end()`, with `held` checked
 * against what the stage really holds. A failure says why in its message and shows the
 * input and chunks as text, with the seed and path to replay it.
 *
 * @example
 * ```ts
 * import type { Stage } from "@spool/core";
 * import { checkStageProperty } from "@spool/transforms/testing";
 * const upper = (): Stage => ({
 *   name: "upper",
 *   held: 0,
 *   push: (batch) => batch.map((c) => Buffer.from(Buffer.from(c).toString("latin1").toUpperCase(), "latin1")),
 *   end: () => [],
 * });
 * checkStageProperty({
 *   stage: upper,
 *   model: (input) => Buffer.from(Buffer.from(input).toString("latin1").toUpperCase(), "latin1"),
 * });
 * ```
 */
import { namedCountersProblem, runStage, type Stage } from "@spool/core/runtime";
import type { Arbitrary, IProperty } from "fast-check";
import { fc } from "./fast-check-peer.js";

/**
 * Options of {@link checkStageProperty}: the stage, its reference model, inputs, and run
 * settings.
 *
 * @category testing
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { createAnsiStrip } from "@spool/transforms";
 * import { checkStageProperty, type StagePropertyOptions } from "@spool/transforms/testing";
 * const options: StagePropertyOptions = { stage: () => createAnsiStrip(), input: fc.string(), numRuns: 200 };
 * checkStageProperty(options);
 * ```
 */
export interface StagePropertyOptions extends PropertyRunOptions {
  /** A fresh stage; called once or more per run. */
  readonly stage: () => Stage;
  /**
   * The reference model: the whole output expected for the whole input. Without one, the
   * stage's own one-shot output is the reference (chunking invariance only).
   */
  readonly model?: (input: Uint8Array) => Uint8Array | string;
  /** Inputs. @default UTF-8 text (with some invalid bytes and ANSI escapes), up to 300 bytes */
  readonly input?: Arbitrary<Uint8Array | string>;
  /** Checks of "nothing held when `held` is 0" per run (each replays a prefix). @default 8 */
  readonly heldChecks?: number;
}

/**
 * Property-test a stage. Each run splits a random input into random chunks (or one byte per
 * chunk) and checks, after every write: the output so far is a prefix of the reference
 * output, `held` is a whole number within `window`, and when `held` is 0 the stage really
 * holds nothing (a fresh stage fed the same chunks and ended emits nothing more). After
 * `end()`: the output equals the reference and `held` is 0. Throws an `Error` whose message
 * gives the reason, the input and chunks as text, and the seed/path to replay.
 *
 * @category testing
 * @example
 * ```ts
 * import { createUtf8Decoder } from "@spool/transforms";
 * import { checkStageProperty } from "@spool/transforms/testing";
 * checkStageProperty({ stage: () => createUtf8Decoder(), numRuns: 50 });
 * ```
 */
export function checkStageProperty(options: StagePropertyOptions): void {
  const input = (options.input ?? arbStageInput()).map(toBytes);
  assertProperty(
    fc.property(arbBatched(input), ({ bytes, chunks, batches }) => {
      const expected = options.model
        ? toBytes(options.model(bytes))
        : runStage(options.stage(), [bytes]);
      checkStageRun(options.stage, bytes, chunks, expected, options.heldChecks ?? 8, batches);
      checkTwoInstances(options.stage, bytes, chunks, expected);
    }),
    options,
  );
}

/**
 * An input, split at random (or one byte at a time), and its chunks grouped into batches
 * of one or more (a capture hands a stage several chunks at once).
 *
 * @category testing
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbBatched, arbStageInput } from "@spool/transforms/testing";
 * for (const { chunks, batches } of fc.sample(arbBatched(arbStageInput()), 3))
 *   console.log(batches.reduce((a: number, b: number) => a + b, 0) === chunks.length); // true
 * ```
 */
export function arbBatched(
  input: Arbitrary<Uint8Array>,
): Arbitrary<{ bytes: Uint8Array; chunks: Uint8Array[]; batches: number[] }> {
  return input.chain((bytes) =>
    fc
      .oneof(
        { weight: 4, arbitrary: arbSplitOffsets(bytes.length).map((o) => splitAt(bytes, o)) },
        { weight: 1, arbitrary: fc.constant(byteAtATime(bytes)) },
      )
      .chain((chunks) =>
        fc
          .array(fc.integer({ min: 1, max: 4 }), {
            minLength: chunks.length,
            maxLength: chunks.length,
          })
          .map((sizes) => ({ bytes, chunks, batches: batchSizes(sizes, chunks.length) })),
      ),
  );
}

/** Sizes (each 1-4) cut down to cover exactly `count` chunks. */
function batchSizes(sizes: readonly number[], count: number): number[] {
  const out: number[] = [];
  let left = count;
  for (const size of sizes) {
    if (left === 0) break;
    out.push(Math.min(size, left));
    left -= out[out.length - 1]!;
  }
  return out;
}

/**
 * Two instances fed the same chunks in turn, as a capture's stdout and stderr are: each
 * must give the reference output. Fails a factory that hands out one shared instance, or
 * stages that share state outside the instance.
 */
function checkTwoInstances(
  makeStage: () => Stage,
  input: Uint8Array,
  chunks: readonly Uint8Array[],
  expected: Uint8Array,
): void {
  const a = makeStage();
  const b = makeStage();
  const name = JSON.stringify(a.name);
  if (a === b)
    throw new Error(
      `stage ${name}: the factory returned the same instance twice; a capture's stdout and stderr each need their own (a shared one mixes them)`,
    );
  const out = { a: [] as Uint8Array[], b: [] as Uint8Array[] };
  for (const chunk of chunks) {
    if (chunk.byteLength === 0) continue;
    out.a.push(...a.push([chunk]));
    out.b.push(...b.push([chunk]));
  }
  out.a.push(...a.end());
  out.b.push(...b.end());
  for (const side of ["a", "b"] as const) {
    const got = Buffer.concat(out[side]);
    if (!got.equals(Buffer.from(expected)))
      throw new Error(
        `stage ${name}: two instances fed in turn (as stdout and stderr are) affect each other: one gave ${showBytes(got)}, expected ${showBytes(expected)} (state shared outside the instance?)\n  input  ${showBytes(input)}`,
      );
  }
}

/**
 * How many runs, and the seed and path that replay a failure (a failure's message prints
 * both).
 *
 * @category testing
 * @example
 * ```ts
 * import { createUtf8Decoder } from "@spool/transforms";
 * import { checkStageProperty } from "@spool/transforms/testing";
 * checkStageProperty({ stage: () => createUtf8Decoder(), seed: 1_234_567, path: "3:1" }); // replay one failure
 * ```
 */
export interface PropertyRunOptions {
  /** fast-check runs. @default 100 */
  readonly numRuns?: number;
  /** fast-check seed, to replay a failure. @default random */
  readonly seed?: number;
  /** fast-check path, to replay a failure (printed with the seed). */
  readonly path?: string;
}

/**
 * `fc.assert` with a readable failure: the message is the (shrunk) counterexample's own
 * error message, followed by the seed and path that replay it; the error is its `cause`.
 *
 * @category testing
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { assertProperty } from "@spool/transforms/testing";
 * assertProperty(fc.property(fc.nat(), (n) => n >= 0), { numRuns: 20 });
 * ```
 */
export function assertProperty<T>(property: IProperty<T>, options: PropertyRunOptions = {}): void {
  const details = fc.check(property, {
    numRuns: options.numRuns ?? 100,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.path === undefined ? {} : { path: options.path }),
  });
  if (!details.failed) return;
  const error = details.errorInstance;
  const reason = error instanceof Error ? error.message : String(error);
  throw new Error(
    `${reason}\n(failed after ${details.numRuns} run(s) and ${details.numShrinks} shrink(s); replay with { seed: ${details.seed}, path: ${JSON.stringify(details.counterexamplePath)} })`,
    { cause: error },
  );
}

/**
 * One run of {@link checkStageProperty}'s checks on one input and one chunking, against
 * `expected` (the reference output for the whole input). Throws on the first violation.
 *
 * @category testing
 * @example
 * ```ts
 * import { createAnsiStrip } from "@spool/transforms";
 * import { checkStageRun, splitAt } from "@spool/transforms/testing";
 * const input = Buffer.from("a\x1b[31mred\x1b[0m b");
 * checkStageRun(() => createAnsiStrip(), input, splitAt(input, [3]), Buffer.from("ared b"));
 * ```
 */
export function checkStageRun(
  makeStage: () => Stage,
  input: Uint8Array,
  chunks: readonly Uint8Array[],
  expected: Uint8Array,
  heldChecks = 8,
  batches: readonly number[] = chunks.map(() => 1),
): void {
  const stage = makeStage();
  const want = Buffer.from(expected);
  const window = stage.window ?? Number.POSITIVE_INFINITY;
  const context = () => `\n  input  ${showBytes(input)}\n  chunks ${showChunks(chunks)}`;
  const fail = (why: string): never => {
    throw new Error(`stage ${JSON.stringify(stage.name)}: ${why}${context()}`);
  };
  const got: Uint8Array[] = [];
  let checksLeft = heldChecks;
  const verify = (what: string, pushed: number) => {
    const so = Buffer.concat(got);
    if (!want.subarray(0, so.length).equals(so))
      fail(
        `after ${what} the output ${showBytes(so)} is not a prefix of the expected ${showBytes(want)}`,
      );
    const held = stage.held;
    if (!Number.isInteger(held) || held < 0) fail(`after ${what} held is ${held}, not a count`);
    if (held > window) fail(`after ${what} held ${held} > window ${window}`);
    if (held === 0 && pushed < chunks.length && checksLeft-- > 0) {
      const replay = makeStage();
      const again = runStage(replay, chunks.slice(0, pushed));
      if (again.length > so.length) {
        fail(
          `after ${what} held is 0, but ending there releases ${again.length - so.length} more byte(s): ${showBytes(again.subarray(so.length))}`,
        );
      }
    }
  };
  let at = 0;
  for (const size of batches) {
    const batch = chunks.slice(at, at + size).filter((c) => c.byteLength > 0);
    at += size;
    if (batch.length === 0) continue;
    const before = batch.map((c) => Buffer.from(c));
    got.push(...stage.push(batch));
    const changed = batch.findIndex((c, k) => !before[k]!.equals(c));
    if (changed >= 0)
      fail(
        `push changed its input: chunk ${showBytes(before[changed]!)} became ${showBytes(batch[changed]!)} (a stage must not write into the chunks it is given)`,
      );
    const what = batch.length === 1 ? showBytes(batch[0]!) : `a batch of ${batch.length} chunks`;
    verify(`write ${at}/${chunks.length} (${what})`, at);
  }
  got.push(...stage.end());
  verify("end()", chunks.length);
  if (stage.held !== 0) fail(`held is ${stage.held} after end(), expected 0`);
  const counted = countersProblem(stage);
  if (counted !== null) fail(counted);
  const all = Buffer.concat(got);
  if (!all.equals(want))
    fail(
      `end() left the output at ${showBytes(all)}, expected ${showBytes(want)} (bytes were lost at end())`,
    );
}

/**
 * Why a stage's own counters (`namedCounters`) would not fit in a receipt, or null: they
 * break a bound (see `stage-counters.ts` in `@spool/core`) or reading them throws.
 *
 * @category testing
 * @example
 * ```ts
 * import type { Stage } from "@spool/core";
 * import { countersProblem } from "@spool/transforms/testing";
 * const stage: Stage = { name: "s", held: 0, push: (b) => [...b], end: () => [], namedCounters: { ratio: 0.5 } };
 * countersProblem(stage); // "namedCounters: counter values must be non-negative safe integers"
 * ```
 */
export function countersProblem(stage: Stage): string | null {
  let problem: string | null;
  try {
    if (stage.namedCounters === undefined) return null;
    problem = namedCountersProblem(stage.namedCounters);
  } catch (error) {
    problem = `reading them threw ${String((error as Error)?.message ?? error)}`;
  }
  return problem === null ? null : `namedCounters: ${problem}`;
}

/**
 * Default inputs of {@link checkStageProperty}: short UTF-8 text with newlines, a few
 * invalid bytes and ANSI escapes, at most `maxLength` bytes.
 *
 * @category testing
 * @example
 * ```ts
 * import { arbStageInput, checkStageProperty } from "@spool/transforms/testing";
 * import { createUtf8Decoder } from "@spool/transforms";
 * checkStageProperty({ stage: () => createUtf8Decoder(), input: arbStageInput(2000) });
 * ```
 */
export function arbStageInput(maxLength = 300): Arbitrary<Uint8Array> {
  const piece = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.string({ unit: "grapheme", maxLength: 12 }).map((s) => Buffer.from(s)),
    },
    { weight: 2, arbitrary: fc.constantFrom("\n", "\r\n", "\t", "  ").map((s) => Buffer.from(s)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom("\x1b[31m", "\x1b[0m", "\x1b]0;t\x07").map((s) => Buffer.from(s)),
    },
    { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 3 }) },
  );
  return fc
    .array(piece, { maxLength: 40 })
    .map((pieces) => Buffer.concat(pieces).subarray(0, maxLength));
}

/**
 * Every split of `input` into non-empty chunks (2^(n-1) of them): exhaustive for short
 * inputs (keep them under ~16 bytes).
 *
 * @category testing
 * @example
 * ```ts
 * import { createUtf8Decoder } from "@spool/transforms";
 * import { allChunkings, checkStage } from "@spool/transforms/testing";
 * const input = Buffer.from("é€");
 * for (const chunks of allChunkings(input)) checkStage(() => createUtf8Decoder(), input, chunks);
 * ```
 */
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

/**
 * `input` one byte per chunk: the chunking that splits every character and token.
 *
 * @category testing
 * @example
 * ```ts
 * import { createAnsiStrip } from "@spool/transforms";
 * import { byteAtATime, checkStage } from "@spool/transforms/testing";
 * const input = Buffer.from("\x1b[1mbold\x1b[0m");
 * checkStage(() => createAnsiStrip(), input, byteAtATime(input));
 * ```
 */
export function byteAtATime(input: Uint8Array): Uint8Array[] {
  return Array.from(input, (_, i) => input.subarray(i, i + 1));
}

/**
 * `input` split at the given offsets (out-of-range and repeated offsets ignored).
 *
 * @category testing
 * @example
 * ```ts
 * import { splitAt } from "@spool/transforms/testing";
 * splitAt(Buffer.from("abcdef"), [2, 4]).map((c) => Buffer.from(c).toString()); // ["ab", "cd", "ef"]
 * ```
 */
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

/**
 * Random split offsets for an input of `length` bytes, at most `maxCuts` of them (use
 * with {@link splitAt}).
 *
 * @category testing
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { arbSplitOffsets, splitAt } from "@spool/transforms/testing";
 * const input = Buffer.from("hello world");
 * const [offsets] = fc.sample(arbSplitOffsets(input.length), 1);
 * splitAt(input, offsets ?? []);
 * ```
 */
export function arbSplitOffsets(length: number, maxCuts = 32): Arbitrary<number[]> {
  if (length < 2) return fc.constant([]);
  return fc.array(fc.integer({ min: 1, max: length - 1 }), { maxLength: maxCuts });
}

/**
 * An input and a random chunking of it, for your own fast-check properties.
 *
 * @category testing
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { createUtf8Decoder } from "@spool/transforms";
 * import { arbChunked, arbStageInput, checkStage } from "@spool/transforms/testing";
 * fc.assert(fc.property(arbChunked(arbStageInput()), ({ input, chunks }) => checkStage(() => createUtf8Decoder(), input, chunks)));
 * ```
 */
export function arbChunked(
  input: Arbitrary<Uint8Array>,
): Arbitrary<{ input: Uint8Array; chunks: Uint8Array[] }> {
  return input.chain((bytes) =>
    arbSplitOffsets(bytes.length).map((offsets) => ({
      input: bytes,
      chunks: splitAt(bytes, offsets),
    })),
  );
}

/**
 * Bytes as readable text for failure messages: a JSON string when they are printable
 * UTF-8, else with each byte outside printable ASCII as `\xNN`. Long runs are cut.
 *
 * @category testing
 * @example
 * ```ts
 * import { showBytes } from "@spool/transforms/testing";
 * showBytes(Buffer.from("a\xffb", "latin1")); // '"a\\xffb"'
 * ```
 */
export function showBytes(bytes: Uint8Array, limit = 200): string {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const cut = b.length > limit ? b.subarray(0, limit) : b;
  const more = b.length > limit ? `…(${b.length} bytes)` : "";
  let text: string;
  try {
    text = JSON.stringify(new TextDecoder("utf-8", { fatal: true }).decode(cut));
  } catch {
    text = `"${Array.from(cut, (x) =>
      x >= 0x20 && x < 0x7f && x !== 0x22 && x !== 0x5c
        ? String.fromCharCode(x)
        : `\\x${x.toString(16).padStart(2, "0")}`,
    ).join("")}"`;
  }
  return text + more;
}

function showChunks(chunks: readonly Uint8Array[]): string {
  if (chunks.length > 40) return `${chunks.length} chunks`;
  return `[${chunks.map((c) => showBytes(c, 60)).join(", ")}]`;
}

function toBytes(value: Uint8Array | string): Buffer {
  return typeof value === "string" ? Buffer.from(value, "utf8") : Buffer.from(value);
}
