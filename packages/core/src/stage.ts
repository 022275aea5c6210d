/**
 * The one stage contract. Decoder, ANSI strip, redactor and preview tap implement it;
 * {@link composeStages} chains them. Stages are synchronous byte transformers over
 * batches: a batch is a non-empty array of chunks, end of input is signalled by
 * {@link Stage.end}, apart from failure (a throw).
 *
 * A stage may hold bytes back (a split UTF-8 character, an undecided redaction
 * candidate) and must report how many in {@link Stage.held}; what it holds must never
 * exceed its declared {@link Stage.window}.
 *
 * @category stages
 * @example
 * ```ts
 * import { composeStages, type Stage } from "@spool/core";
 * const upper: Stage = {
 *   name: "upper",
 *   held: 0,
 *   push: (batch) => batch.map((c) => Buffer.from(Buffer.from(c).toString("latin1").toUpperCase(), "latin1")),
 *   end: () => [],
 * };
 * const chain = composeStages([upper]);
 * chain.push([Buffer.from("abc")]); // [<Buffer 41 42 43>]
 * ```
 */
export type Batch = readonly Uint8Array[];

/**
 * Counters a stage contributes to its stream's receipt (summed over stages into
 * `streams.*.replacements`, `redactions`, `omissions`).
 *
 * @category stages
 * @example
 * ```ts
 * import type { Stage, StageCounters } from "@spool/core";
 * const counters: StageCounters = { redactions: 0 };
 * const stage: Stage = { name: "mask", held: 0, counters, push: (batch) => [...batch], end: () => [] };
 * ```
 */
export interface StageCounters {
  /** Invalid sequences replaced by U+FFFD. */
  replacements?: number;
  /** Spans replaced by a `[REDACTED:…]` marker. */
  redactions?: number;
  /** Spans dropped with an `[OMITTED:…]` marker. */
  omissions?: number;
  /** Input bytes replaced by a `[REDACTED:…]` or `[OMITTED:…]` marker (what redaction removed). */
  redactedBytes?: number;
  /** Bytes of the markers written in their place. */
  markerBytes?: number;
}

/**
 * A stage's own counters, by name: at most 32, names of 1–64 letters, digits, `.`, `_`,
 * `:` or `-`, values non-negative safe integers (see `stage-counters.ts`).
 *
 * @category stages
 * @example
 * ```ts
 * import type { NamedCounters, Stage } from "@spool/core";
 * let rows = 0;
 * const counted: Stage = {
 *   name: "rows",
 *   held: 0,
 *   push: (batch) => (rows += batch.length, [...batch]),
 *   end: () => [],
 *   get namedCounters(): NamedCounters {
 *     return { rows };
 *   },
 * };
 * ```
 */
export type NamedCounters = Readonly<Record<string, number>>;

/**
 * A synchronous byte transformer over batches (see the module comment for the rules).
 *
 * @category stages
 * @example
 * ```ts
 * import type { Stage } from "@spool/core";
 * const passThrough = (): Stage => ({ name: "pass", held: 0, push: (batch) => [...batch], end: () => [] });
 * ```
 */
export interface Stage {
  /** Stable name, used in logs and errors. */
  readonly name: string;
  /** When set, the receipt's `transforms` list names this stage by it. */
  readonly transform?: string;
  /** Transform one batch; returns what can be emitted now (possibly empty). */
  push(batch: Batch): Uint8Array[];
  /** End of input: settle everything held and return it. */
  end(): Uint8Array[];
  /** Bytes held back right now, in this stage's input units. */
  readonly held: number;
  /** The most this stage ever holds; `held <= window` at all times. */
  readonly window?: number;
  /** Counters merged into the stream receipt. */
  readonly counters?: Readonly<StageCounters>;
  /**
   * The stage's own counters, listed under its name in the stream receipt's
   * `stageCounters` (read whenever a receipt is built; bounded, see `stage-counters.ts`).
   */
  readonly namedCounters?: NamedCounters;
}

/**
 * Chain stages: each one's output is the next one's input.
 *
 * @category stages
 * @example
 * ```ts
 * import { composeStages, runStage } from "@spool/core";
 * import { createAnsiStrip, createUtf8Decoder } from "@spool/transforms";
 * const chain = composeStages([createUtf8Decoder(), createAnsiStrip()]);
 * runStage(chain, [Buffer.from("\x1b[1mbold\x1b[0m")]).toString(); // "bold"
 * ```
 */
export function composeStages(stages: readonly Stage[]): Stage {
  if (stages.length === 1) return stages[0]!;
  const run = (batch: Uint8Array[], from: number): Uint8Array[] => {
    let current = batch;
    for (let i = from; i < stages.length && current.length > 0; i++)
      current = stages[i]!.push(current);
    return current;
  };
  return {
    name: stages.map((s) => s.name).join("→"),
    push: (batch) => run(batch as Uint8Array[], 0),
    end() {
      let out: Uint8Array[] = [];
      for (let i = 0; i < stages.length; i++) {
        const stage = stages[i]!;
        out = [...(out.length > 0 ? stage.push(out) : []), ...stage.end()];
      }
      return out;
    },
    get held() {
      return stages.reduce((sum, s) => sum + s.held, 0);
    },
    get counters() {
      return sumCounters(stages);
    },
  };
}

/**
 * Sum of every stage's counters, as the receipt reports them.
 *
 * @category stages
 * @example
 * ```ts
 * import { sumCounters } from "@spool/core";
 * import { createUtf8Decoder } from "@spool/transforms";
 * sumCounters([createUtf8Decoder()]); // { replacements: 0, redactions: 0, omissions: 0, redactedBytes: 0, markerBytes: 0 }
 * ```
 */
export function sumCounters(stages: readonly Stage[]): Required<StageCounters> {
  const total = { replacements: 0, redactions: 0, omissions: 0, redactedBytes: 0, markerBytes: 0 };
  for (const s of stages) {
    total.replacements += s.counters?.replacements ?? 0;
    total.redactions += s.counters?.redactions ?? 0;
    total.omissions += s.counters?.omissions ?? 0;
    total.redactedBytes += s.counters?.redactedBytes ?? 0;
    total.markerBytes += s.counters?.markerBytes ?? 0;
  }
  return total;
}

/**
 * Total bytes in a batch.
 *
 * @category stages
 * @example
 * ```ts
 * import { batchBytes } from "@spool/core";
 * batchBytes([Buffer.from("ab"), Buffer.from("c")]); // 3
 * ```
 */
export function batchBytes(batch: Batch): number {
  let n = 0;
  for (const chunk of batch) n += chunk.byteLength;
  return n;
}

/**
 * Push `input` through a fresh stage in the given chunks and return the joined output.
 *
 * @category stages
 * @example
 * ```ts
 * import { runStage } from "@spool/core";
 * import { createUtf8Decoder } from "@spool/transforms";
 * runStage(createUtf8Decoder(), [Buffer.from([0xc3]), Buffer.from([0xa9])]).toString(); // "é"
 * ```
 */
export function runStage(stage: Stage, chunks: Batch): Buffer {
  const out: Uint8Array[] = [];
  for (const chunk of chunks) if (chunk.byteLength > 0) out.push(...stage.push([chunk]));
  out.push(...stage.end());
  return Buffer.concat(out);
}
