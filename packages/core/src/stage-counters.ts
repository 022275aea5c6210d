/**
 * A stage's own named counters (the redactor's redactions per rule, the decoder's
 * replacements, a user stage's `rows` or `dropped`), carried into the stream receipt's
 * `stageCounters`, one entry per stage that reports any.
 *
 * They are bounded so no stage can bloat the receipt: at most
 * {@link MAX_STAGE_COUNTERS} counters per stage, names of 1–64 letters, digits, `.`, `_`,
 * `:` or `-`, values non-negative safe integers, at most {@link MAX_COUNTED_STAGES} stages
 * per stream. A stage that breaks a bound keeps its entry, with no counters and the bound
 * it broke in `invalid`. The check here is plain code (a capture loads no zod); the
 * receipt's zod schema (`StageCountersReceiptSchema`) states the same bounds, and a test
 * holds the two together.
 *
 * @example
 * ```ts
 * import { stageCountersOf, type Stage } from "@spool/core";
 * const rows: Stage = { name: "rows", held: 0, push: (b) => [...b], end: () => [], namedCounters: { rows: 3 } };
 * stageCountersOf([rows]); // [{ stage: "rows", counters: { rows: 3 } }]
 * ```
 */
import type { NamedCounters, Stage } from "./stage.js";

/**
 * Counters one stage may report.
 *
 * @category stages
 * @example
 * ```ts
 * import { COUNTER_NAME, MAX_COUNTED_STAGES, MAX_STAGE_COUNTERS, MAX_STAGE_NAME } from "@spool/core";
 * COUNTER_NAME.test("lines.empty"); // true
 * [MAX_STAGE_COUNTERS, MAX_COUNTED_STAGES, MAX_STAGE_NAME]; // [32, 16, 64]
 * ```
 */
export const MAX_STAGE_COUNTERS = 32;
/**
 * Stages with counters one stream receipt lists (later ones are left out).
 *
 * @category stages
 * @example
 * ```ts
 * import { COUNTER_NAME, MAX_COUNTED_STAGES, MAX_STAGE_COUNTERS, MAX_STAGE_NAME } from "@spool/core";
 * COUNTER_NAME.test("lines.empty"); // true
 * [MAX_STAGE_COUNTERS, MAX_COUNTED_STAGES, MAX_STAGE_NAME]; // [32, 16, 64]
 * ```
 */
export const MAX_COUNTED_STAGES = 16;
/**
 * Longest stage name in an entry (a longer one is cut).
 *
 * @category stages
 * @example
 * ```ts
 * import { COUNTER_NAME, MAX_COUNTED_STAGES, MAX_STAGE_COUNTERS, MAX_STAGE_NAME } from "@spool/core";
 * COUNTER_NAME.test("lines.empty"); // true
 * [MAX_STAGE_COUNTERS, MAX_COUNTED_STAGES, MAX_STAGE_NAME]; // [32, 16, 64]
 * ```
 */
export const MAX_STAGE_NAME = 64;
/**
 * What a counter's name may be: 1–64 letters, digits, `.`, `_`, `:` or `-`.
 *
 * @category stages
 * @example
 * ```ts
 * import { COUNTER_NAME, MAX_COUNTED_STAGES, MAX_STAGE_COUNTERS, MAX_STAGE_NAME } from "@spool/core";
 * COUNTER_NAME.test("lines.empty"); // true
 * [MAX_STAGE_COUNTERS, MAX_COUNTED_STAGES, MAX_STAGE_NAME]; // [32, 16, 64]
 * ```
 */
export const COUNTER_NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * One stage's entry in a stream receipt's `stageCounters`.
 *
 * @category stages
 * @example
 * ```ts
 * import type { StageCountersEntry } from "@spool/core";
 * const entry: StageCountersEntry = { stage: "redactor", counters: { "github-token": 2 } };
 * ```
 */
export interface StageCountersEntry {
  /** The stage's name (cut to {@link MAX_STAGE_NAME} characters). */
  readonly stage: string;
  readonly counters: NamedCounters;
  /** The bound the stage broke (then `counters` is empty). */
  readonly invalid?: string;
}

/**
 * Why `counters` breaks the bounds, or null when it keeps them.
 *
 * @category stages
 * @example
 * ```ts
 * import { namedCountersProblem } from "@spool/core";
 * namedCountersProblem({ rows: 3 }); // null
 * namedCountersProblem({ rows: -1 }); // "counter values must be non-negative safe integers"
 * ```
 */
export function namedCountersProblem(counters: unknown): string | null {
  if (counters === null || typeof counters !== "object" || Array.isArray(counters))
    return "counters must be an object of numbers";
  const names = counterNames(counters);
  if (names.length > MAX_STAGE_COUNTERS)
    return `${names.length} counters, at most ${MAX_STAGE_COUNTERS}`;
  for (const name of names) {
    if (!COUNTER_NAME.test(name))
      return "counter names must be 1-64 letters, digits, '.', '_', ':' or '-'";
    const value = (counters as Record<string, unknown>)[name];
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0)
      return "counter values must be non-negative safe integers";
  }
  return null;
}

/**
 * The `stageCounters` entries of a stream's stages: one per stage that reports named
 * counters (in plan order, at most {@link MAX_COUNTED_STAGES}), each checked against the
 * bounds and copied (a stage's later counting does not change a receipt already built).
 *
 * @category stages
 * @example
 * ```ts
 * import { stageCountersOf } from "@spool/core";
 * import { createUtf8Decoder } from "@spool/transforms";
 * const decoder = createUtf8Decoder();
 * decoder.push([Buffer.from([0xff])]);
 * stageCountersOf([decoder]); // [{ stage: "utf8-decoder", counters: { replacements: 1 } }]
 * ```
 */
export function stageCountersOf(stages: readonly Stage[]): StageCountersEntry[] {
  const entries: StageCountersEntry[] = [];
  for (const stage of stages) {
    if (entries.length === MAX_COUNTED_STAGES) break;
    let counters: NamedCounters | undefined;
    try {
      counters = stage.namedCounters;
    } catch {
      entries.push({ stage: nameOf(stage), counters: {}, invalid: "reading the counters threw" });
      continue;
    }
    if (counters === undefined) continue;
    const name = nameOf(stage);
    const invalid = namedCountersProblem(counters);
    const names = counterNames(counters);
    if (invalid !== null) entries.push({ stage: name, counters: {}, invalid });
    else if (names.length > 0)
      entries.push({
        stage: name,
        counters: Object.fromEntries(names.map((n) => [n, counters[n]!])),
      });
  }
  return entries;
}

/**
 * The names of `counters` but `__proto__`, which the receipt's schema (zod's records) skips
 * as it would set an object's prototype: it is neither checked nor kept.
 */
function counterNames(counters: object): string[] {
  return Object.keys(counters).filter((name) => name !== "__proto__");
}

function nameOf(stage: Stage): string {
  return String(stage.name).slice(0, MAX_STAGE_NAME);
}
