/**
 * `@spool/sinks/runtime`: what a capture needs from `@spool/sinks` (file and memory spools,
 * the writer queue, storage primitives, root resolution) without the modules that import
 * zod (locks, owners, root quota, recovery, the options schema as a value), so `spool run`
 * starts without loading zod. `@spool/sinks` re-exports all of it.
 *
 * @example
 * ```ts
 * import { createFileSpool } from "@spool/sinks/runtime";
 * const files = createFileSpool({});
 * await files.destroy();
 * ```
 */
export * from "./bounded-stream.js";
export * from "./file-spool.js";
export * from "./fs-layer.js";
export * from "./line-index.js";
export * from "./memory-allowance.js";
export * from "./memory-spool.js";
export * from "./quota.js";
export * from "./quota-spool.js";
export * from "./refs.js";
export * from "./root.js";
export * from "./storage.js";
export * from "./writer-queue.js";
export * from "./writer-queue-options.js";
