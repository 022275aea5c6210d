/**
 * Retention limits of one capture (SPEC §7): the per-capture ceiling (`--max-bytes`,
 * both streams together) and the per-root allowance (`--root-quota`) a capture reserves
 * from through an {@link Allowance}. {@link createRetentionLimit} answers, before bytes
 * are kept, how many of them may be: the answer cuts at the exact byte where a limit is
 * reached, so persistence stops at a known boundary. `withQuotas` (quota-spool.ts)
 * applies it to any spool.
 *
 * @example
 * ```ts
 * import { createRetentionLimit } from "@spool/sinks";
 * const limit = createRetentionLimit({ maxBytes: 10, allowance: null });
 * limit.admit(8, 5); // { allow: 2, reason: "quota" }
 * ```
 */
import { type CaptureReason, type SpoolContext, SpoolError } from "@spool/core/runtime";
import { isLockBusy } from "../lock/lock-busy.js";
import type { Allowance } from "./allowance.js";

export type { Allowance } from "./allowance.js";

/**
 * The CLI's `--max-bytes`: 32 MiB per capture. The library applies it only through {@link withQuotas}.
 *
 * @category quotas
 * @example
 * ```ts
 * import { DEFAULT_MAX_BYTES } from "@spool/sinks";
 * DEFAULT_MAX_BYTES; // 33554432
 * ```
 */
export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;
/**
 * The CLI's `--root-quota`: 128 MiB for every capture of a root together. The library
 * applies it only through `withQuotas({ allowance: rootQuotaAllowance(…) })`.
 *
 * @category quotas
 * @example
 * ```ts
 * import { DEFAULT_ROOT_QUOTA, rootQuotaAllowance } from "@spool/sinks";
 * const allowance = rootQuotaAllowance(DEFAULT_ROOT_QUOTA);
 * ```
 */
export const DEFAULT_ROOT_QUOTA = 128 * 1024 * 1024;

/**
 * Where a capture gets its {@link Allowance}, asked once when the capture spills (a
 * small result that never spills reserves nothing and touches no books).
 *
 * @category quotas
 * @example
 * ```ts
 * import type { AllowanceSource } from "@spool/sinks";
 * let reserved = 0;
 * const unlimited: AllowanceSource = () => ({
 *   reserve: (total) => (reserved = Math.max(reserved, total)),
 *   release: (kept) => { reserved = kept; },
 *   get reserved() { return reserved; },
 * });
 * ```
 */
export type AllowanceSource = (context: SpoolContext) => Allowance | Promise<Allowance>;

/**
 * Options of {@link createRetentionLimit}.
 *
 * @category quotas
 * @example
 * ```ts
 * import { createRetentionLimit, type RetentionLimitOptions } from "@spool/sinks";
 * const options: RetentionLimitOptions = { maxBytes: 1024, allowance: null };
 * createRetentionLimit(options);
 * ```
 */
export interface RetentionLimitOptions {
  /** Bytes one capture may keep over both streams, or null for no ceiling. */
  readonly maxBytes: number | null;
  /** The capture's share of a shared allowance, or null for none. */
  readonly allowance: Allowance | null;
}

/**
 * How much of a write may be kept, and which limit cut it (null when none did).
 *
 * @category quotas
 * @example
 * ```ts
 * import { createRetentionLimit } from "@spool/sinks";
 * const { allow, reason } = createRetentionLimit({ maxBytes: 10, allowance: null }).admit(8, 5); // 2, "quota"
 * ```
 */
export interface Admission {
  /** Bytes of the write that may be kept (0 to all of it). */
  allow: number;
  /**
   * The limit that cut the write (`quota` or `root-quota`), or null when none did;
   * `storage-unavailable` when the allowance's books could not be used (a bogus lock).
   */
  reason: Extract<CaptureReason, "quota" | "root-quota" | "storage-unavailable"> | null;
  /** With `storage-unavailable`: what failed. */
  error?: SpoolError;
}

/**
 * The retention limits of one capture ({@link createRetentionLimit}), asked before bytes
 * are kept.
 *
 * @category quotas
 * @example
 * ```ts
 * import { createRetentionLimit, type RetentionLimit } from "@spool/sinks";
 * const limit: RetentionLimit = createRetentionLimit({ maxBytes: 10, allowance: null });
 * limit.admit(0, 4).allow; // 4
 * ```
 */
export interface RetentionLimit {
  /** With `kept` bytes already kept by the capture, how much of `want` more may be kept. */
  admit(kept: number, want: number): Admission;
}

/**
 * Retention limits of one capture: the answer to "how many of these bytes may be kept"
 * cuts at the exact byte where `maxBytes` or the allowance is reached, so persistence
 * stops at a known boundary. `withQuotas` applies it to any spool.
 *
 * @category quotas
 * @example
 * ```ts
 * import { createRetentionLimit } from "@spool/sinks";
 * const limit = createRetentionLimit({ maxBytes: 10, allowance: null });
 * limit.admit(8, 5); // { allow: 2, reason: "quota" }
 * ```
 */
export function createRetentionLimit(options: RetentionLimitOptions): RetentionLimit {
  return {
    admit(kept, want) {
      let allow = want;
      let reason: Admission["reason"] = null;
      if (options.maxBytes !== null && kept + allow > options.maxBytes) {
        allow = Math.max(0, options.maxBytes - kept);
        reason = "quota";
      }
      const allowance = options.allowance;
      if (allowance && allow > 0 && kept + allow > allowance.reserved) {
        let granted: number;
        try {
          granted = allowance.reserve(kept + allow);
        } catch (error) {
          // Busy books fail closed (root-quota); books that cannot be used at all (a bogus
          // lock) stop the stream for what they are.
          if (!isLockBusy(error) && error instanceof SpoolError) {
            return { allow: 0, reason: "storage-unavailable", error };
          }
          granted = allowance.reserved;
        }
        if (granted < kept + allow) {
          allow = Math.max(0, granted - kept);
          reason = "root-quota";
        }
      }
      return { allow, reason };
    },
  };
}

/**
 * The allowance of a file root (`--root-quota`): reservation files under a file lock in
 * `ROOT/.spool-quota/`, shared by every process (see root-quota.ts). Its module (and zod,
 * which validates the books) is loaded only when a capture spills.
 *
 * @category quotas
 * @example
 * ```ts
 * import { rootQuotaAllowance, withQuotas, createFileSpool } from "@spool/sinks";
 * const factory = withQuotas(createFileSpool({}).factory, { allowance: rootQuotaAllowance(1024 ** 3) });
 * ```
 */
export function rootQuotaAllowance(limit: number): AllowanceSource {
  return async ({ root, captureId }) => {
    const { createRootAllowance } = await import("./root-quota.js");
    return createRootAllowance({ root, limit, captureId });
  };
}
