/**
 * The writer queue's options: the zod schema (built by {@link writerQueueOptionsSchema} on
 * whichever zod instance the caller passes), its defaults, and
 * {@link resolveWriterQueueOptions}, which applies the schema without loading zod when
 * every given value is plainly valid. `spool run` creates a queue on every start, and
 * importing zod costs ~50 ms there.
 *
 * @example
 * ```ts
 * import { resolveWriterQueueOptions } from "@spool/sinks";
 * resolveWriterQueueOptions({ stallMs: 500 }).budgetBytes; // 4194304
 * ```
 */
import { createRequire } from "node:module";
import type { z as Zod, input as ZodInput, output as ZodOutput } from "zod";

/**
 * The defaults the schema applies: a 4 MiB budget, a 2 s stall timeout, a 1 MiB credit
 * window and 256 KiB messages, sent to an idle writer at once (`gatherMs` 0; the file spool
 * gathers for {@link FILE_SPOOL_GATHER_MS}).
 *
 * @category storage
 * @example
 * ```ts
 * import { createFileSpool, WRITER_QUEUE_DEFAULTS } from "@spool/sinks";
 * const files = createFileSpool({ queue: { budgetBytes: 4 * WRITER_QUEUE_DEFAULTS.budgetBytes } });
 * ```
 */
export const WRITER_QUEUE_DEFAULTS = {
  budgetBytes: 4 * 1024 * 1024,
  stallMs: 2000,
  creditBytes: 1024 * 1024,
  messageBytes: 256 * 1024,
  gatherMs: 0,
} as const;

/**
 * How long a file spool's queues gather bytes short of a message for an idle writer,
 * unless its `queue` option says otherwise: a pipe gives a read (≤ 64 KiB) at a time, and
 * each message costs the capturing thread ~40 µs, whatever its size.
 *
 * @category storage
 * @example
 * ```ts
 * import { createFileSpool, FILE_SPOOL_GATHER_MS } from "@spool/sinks";
 * const files = createFileSpool({ queue: { gatherMs: 4 * FILE_SPOOL_GATHER_MS } });
 * ```
 */
export const FILE_SPOOL_GATHER_MS = 2;

/**
 * The smallest `budgetBytes` accepted (64 KiB).
 *
 * @category storage
 * @example
 * ```ts
 * import { MIN_WRITER_QUEUE_BUDGET, resolveWriterQueueOptions } from "@spool/sinks";
 * resolveWriterQueueOptions({ budgetBytes: MIN_WRITER_QUEUE_BUDGET }).budgetBytes; // 65536
 * ```
 */
export const MIN_WRITER_QUEUE_BUDGET = 64 * 1024;

/**
 * The writer queue's options schema, built on the zod namespace given (`z` from "zod"),
 * so the caller decides when zod is loaded.
 *
 * @category storage
 * @example
 * ```ts
 * import { z } from "zod";
 * import { writerQueueOptionsSchema } from "@spool/sinks";
 * writerQueueOptionsSchema(z).parse({ stallMs: 500 }).creditBytes; // 1048576
 * ```
 */
export function writerQueueOptionsSchema(z: typeof Zod) {
  return z.object({
    /** Most bytes held, queued plus in flight. @default 4 MiB */
    budgetBytes: z
      .number()
      .int()
      .min(MIN_WRITER_QUEUE_BUDGET)
      .default(WRITER_QUEUE_DEFAULTS.budgetBytes),
    /** How long the reader may wait on a writer that makes no progress. @default 2000 */
    stallMs: z.number().int().nonnegative().default(WRITER_QUEUE_DEFAULTS.stallMs),
    /** Bytes in flight to the writer before waiting for acks (the credit window). @default 1 MiB */
    creditBytes: z.number().int().positive().default(WRITER_QUEUE_DEFAULTS.creditBytes),
    /** Largest message sent to the writer. @default 256 KiB */
    messageBytes: z.number().int().positive().default(WRITER_QUEUE_DEFAULTS.messageBytes),
    /**
     * How long bytes short of a message wait for more before an idle writer gets them (0:
     * at once; a file spool's default is {@link FILE_SPOOL_GATHER_MS}). @default 0
     */
    gatherMs: z.number().int().nonnegative().default(WRITER_QUEUE_DEFAULTS.gatherMs),
  });
}

type Schema = ReturnType<typeof writerQueueOptionsSchema>;
/**
 * The options of a writer queue as a caller gives them (each optional, with the defaults
 * of {@link WRITER_QUEUE_DEFAULTS}): `budgetBytes`, `stallMs`, `creditBytes`,
 * `messageBytes`, `gatherMs`. A file or memory spool's `queue` option.
 *
 * @category storage
 * @example
 * ```ts
 * import type { WriterQueueOptions } from "@spool/sinks";
 * const queue: WriterQueueOptions = { budgetBytes: 8 * 1024 * 1024, stallMs: 5000 };
 * ```
 */
export type WriterQueueOptions = ZodInput<Schema>;
/**
 * Writer queue options with every default applied ({@link resolveWriterQueueOptions}).
 *
 * @category storage
 * @example
 * ```ts
 * import { resolveWriterQueueOptions, type ResolvedWriterQueueOptions } from "@spool/sinks";
 * const resolved: ResolvedWriterQueueOptions = resolveWriterQueueOptions({});
 * resolved.stallMs; // 2000
 * ```
 */
export type ResolvedWriterQueueOptions = ZodOutput<Schema>;

/**
 * What `writerQueueOptionsSchema(z).parse(options)` returns (or throws). Values that are
 * absent or plainly valid (safe integers within the bounds) are resolved here; anything
 * else is handed to the schema itself, loaded on demand, so its verdict and its `ZodError`
 * stay the only ones.
 *
 * @category storage
 * @example
 * ```ts
 * import { resolveWriterQueueOptions } from "@spool/sinks";
 * resolveWriterQueueOptions({ stallMs: 500 }).budgetBytes; // 4194304
 * ```
 */
export function resolveWriterQueueOptions(options: WriterQueueOptions): ResolvedWriterQueueOptions {
  if (typeof options !== "object" || options === null) return schema().parse(options);
  const budgetBytes = plain(options.budgetBytes, MIN_WRITER_QUEUE_BUDGET);
  const stallMs = plain(options.stallMs, 0);
  const creditBytes = plain(options.creditBytes, 1);
  const messageBytes = plain(options.messageBytes, 1);
  const gatherMs = plain(options.gatherMs, 0);
  if (
    budgetBytes === INVALID ||
    stallMs === INVALID ||
    creditBytes === INVALID ||
    messageBytes === INVALID ||
    gatherMs === INVALID
  ) {
    return schema().parse(options);
  }
  return {
    budgetBytes: budgetBytes ?? WRITER_QUEUE_DEFAULTS.budgetBytes,
    stallMs: stallMs ?? WRITER_QUEUE_DEFAULTS.stallMs,
    creditBytes: creditBytes ?? WRITER_QUEUE_DEFAULTS.creditBytes,
    messageBytes: messageBytes ?? WRITER_QUEUE_DEFAULTS.messageBytes,
    gatherMs: gatherMs ?? WRITER_QUEUE_DEFAULTS.gatherMs,
  };
}

const INVALID = Symbol("invalid");

/** `undefined` if absent, the value if a safe integer ≥ `min`, else {@link INVALID}. */
function plain(value: unknown, min: number): number | undefined | typeof INVALID {
  if (value === undefined) return undefined;
  return Number.isSafeInteger(value) && (value as number) >= min ? (value as number) : INVALID;
}

let cached: Schema | null = null;

/** The schema on zod's CommonJS build: `require` is the synchronous way to load it late. */
function schema(): Schema {
  if (cached === null) {
    const { z } = createRequire(import.meta.url)("zod") as { z: typeof Zod };
    cached = writerQueueOptionsSchema(z);
  }
  return cached;
}
