/**
 * An allowance kept in memory, shared by the captures of one process: the
 * {@link Allowance} of the memory spool, and of tests that need no books on disk. Same
 * rules as the root allowance: reservations together never pass `limit`, what a capture
 * kept keeps counting after it ends.
 *
 * @example
 * ```ts
 * import { createMemoryAllowance, createMemorySpool, withQuotas } from "@spool/sinks";
 * const allowance = createMemoryAllowance({ limit: 1024 * 1024 });
 * const factory = withQuotas(createMemorySpool().factory, { allowance: allowance.source });
 * allowance.used; // 0 until a capture spills and keeps bytes
 * ```
 */
import { SpoolError } from "@spool/core/runtime";
import type { Allowance, AllowanceSource } from "./quota.js";

/**
 * The memory allowance's name, as its errors name it.
 *
 * @category quotas
 * @example
 * ```ts
 * import { MEMORY_ALLOWANCE } from "@spool/sinks";
 * MEMORY_ALLOWANCE; // "memory-allowance"
 * ```
 */
export const MEMORY_ALLOWANCE = "memory-allowance";

/**
 * Options of {@link createMemoryAllowance}.
 *
 * @category quotas
 * @example
 * ```ts
 * import { createMemoryAllowance, type MemoryAllowanceOptions } from "@spool/sinks";
 * const options: MemoryAllowanceOptions = { limit: 64 * 1024 * 1024, stepBytes: 1024 * 1024 };
 * const allowance = createMemoryAllowance(options);
 * ```
 */
export interface MemoryAllowanceOptions {
  /** Bytes all captures together may hold. */
  readonly limit: number;
  /** Bytes reserved beyond what is asked (fewer calls). @default 0 */
  readonly stepBytes?: number;
}

/**
 * An allowance kept in memory ({@link createMemoryAllowance}): its `source` for
 * `withQuotas`, and what all captures hold now.
 *
 * @category quotas
 * @example
 * ```ts
 * import { createMemoryAllowance } from "@spool/sinks";
 * const allowance = createMemoryAllowance({ limit: 1024 * 1024 });
 * allowance.used; // 0 until a capture spills
 * ```
 */
export interface MemoryAllowance {
  /** Give to `withQuotas({ allowance })`. */
  readonly source: AllowanceSource;
  /** Bytes held by every capture together. */
  readonly used: number;
}

/**
 * An allowance of `limit` bytes kept in memory, shared by every capture that reserves from it.
 *
 * @category quotas
 * @example
 * ```ts
 * import { createMemoryAllowance, createMemorySpool, withQuotas } from "@spool/sinks";
 * const allowance = createMemoryAllowance({ limit: 64 * 1024 * 1024 });
 * const factory = withQuotas(createMemorySpool().factory, { maxBytes: 8 * 1024 * 1024, allowance: allowance.source });
 * ```
 */
export function createMemoryAllowance(options: MemoryAllowanceOptions): MemoryAllowance {
  const { limit } = options;
  const step = options.stepBytes ?? 0;
  for (const [name, value] of [
    ["limit", limit],
    ["stepBytes", step],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new SpoolError(
        "SPOOL_E_OPTIONS",
        MEMORY_ALLOWANCE,
        `${name} must be a whole number ≥ 0`,
      );
    }
  }
  let used = 0;
  const share = (): Allowance => {
    let reserved = 0;
    let released = false;
    return {
      get reserved() {
        return reserved;
      },
      reserve(total) {
        if (total <= reserved || released) return reserved;
        const available = limit - (used - reserved);
        const want = Math.min(available, total + step);
        if (want > reserved) {
          used += want - reserved;
          reserved = want;
        }
        return reserved;
      },
      release(kept) {
        if (released) return;
        released = true;
        const held = Math.min(kept, reserved);
        used -= reserved - held;
        reserved = held;
      },
    };
  };
  return {
    source: share,
    get used() {
      return used;
    },
  };
}
