/**
 * The writer queue's options schema as a value, for callers who validate or introspect it.
 * Kept apart from `writer-queue.ts` so that creating a queue does not import zod.
 *
 * @example
 * ```ts
 * import { WriterQueueOptionsSchema } from "@spool/sinks";
 * WriterQueueOptionsSchema.parse({}).stallMs; // 2000
 * ```
 */
import { z } from "zod";
import { writerQueueOptionsSchema } from "./writer-queue-options.js";

/**
 * The writer queue's options schema as a value, for callers who validate or introspect
 * it (importing it loads zod; `resolveWriterQueueOptions` does not).
 *
 * @category storage
 * @example
 * ```ts
 * import { WriterQueueOptionsSchema } from "@spool/sinks";
 * WriterQueueOptionsSchema.parse({}).stallMs; // 2000
 * ```
 */
export const WriterQueueOptionsSchema = writerQueueOptionsSchema(z);
