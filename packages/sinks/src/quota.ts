/**
 * Retention limits of one capture (SPEC §7): the per-capture ceiling (`--max-bytes`,
 * both streams together) and the per-root allowance (`--root-quota`). The writer asks
 * before each write how much of it may be kept; the answer cuts the write at the exact
 * byte where a limit is reached, so persistence stops at a known boundary and the
 * receipt can say how much was kept (`committed`) and dropped (`produced - committed`).
 *
 * @example
 * ```ts
 * import { createRetentionLimit } from "@spool/sinks";
 * const limit = createRetentionLimit({ maxBytes: 10, allowance: null });
 * limit.admit(8, 5); // { allow: 2, reason: "quota" }
 * ```
 */
import type { CaptureReason } from "@spool/core/runtime";
import type { RootAllowance } from "./root-quota.js";

export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;
export const DEFAULT_ROOT_QUOTA = 128 * 1024 * 1024;

export interface RetentionLimitOptions {
  /** Bytes one capture may keep over both streams, or null for no ceiling. @default 32 MiB (the CLI's) */
  readonly maxBytes: number | null;
  /** The root's shared allowance, or null for none. */
  readonly allowance: RootAllowance | null;
}

/** How much of a write may be kept, and which limit cut it. */
export interface Admission {
  allow: number;
  reason: Extract<CaptureReason, "quota" | "root-quota"> | null;
}

export interface RetentionLimit {
  /** With `kept` bytes already kept by the capture, how much of `want` more may be kept. */
  admit(kept: number, want: number): Admission;
  /** The capture ended holding `kept` bytes (releases unused reservation). */
  settle(kept: number): void;
}

export function createRetentionLimit(options: RetentionLimitOptions): RetentionLimit {
  return {
    admit(kept, want) {
      let allow = want;
      let reason: Admission["reason"] = null;
      if (options.maxBytes !== null && kept + allow > options.maxBytes) {
        allow = Math.max(0, options.maxBytes - kept);
        reason = "quota";
      }
      if (options.allowance && allow > 0) {
        let granted: number;
        try {
          granted = options.allowance.ensure(kept + allow);
        } catch {
          granted = options.allowance.reserved; // the books cannot be read: fail closed
        }
        if (granted < kept + allow) {
          allow = Math.max(0, granted - kept);
          reason = "root-quota";
        }
      }
      return { allow, reason };
    },
    settle(kept) {
      options.allowance?.settle(kept);
    },
  };
}
