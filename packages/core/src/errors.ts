/**
 * Every error the framework raises: a stable `code`, the component that raised it,
 * and the original `cause` where there was one.
 *
 * @example
 * ```ts
 * import { SpoolError } from "@spool/core";
 * try {
 *   throw new SpoolError("SPOOL_E_USAGE", "cli", "unknown option --frob");
 * } catch (error) {
 *   if (error instanceof SpoolError && error.code === "SPOOL_E_USAGE") console.error(error.message);
 * }
 * ```
 */
export const SPOOL_ERROR_CODES = [
  "SPOOL_E_USAGE",
  "SPOOL_E_OPTIONS",
  "SPOOL_E_REF_INVALID",
  "SPOOL_E_REF_OUTSIDE_ROOT",
  "SPOOL_E_REF_NOT_FOUND",
  "SPOOL_E_UNSAFE_PATH",
  "SPOOL_E_EXISTS",
  "SPOOL_E_STORAGE",
  "SPOOL_E_SPAWN",
  "SPOOL_E_STAGE",
  "SPOOL_E_REDACT_VALUE",
  "SPOOL_E_WORKER",
  "SPOOL_E_STATE",
  /** A bundle that is malformed, hostile (links, devices, paths outside) or lies about itself. */
  "SPOOL_E_BUNDLE",
  /** Bytes that do not match the sha256 recorded for them. */
  "SPOOL_E_INTEGRITY",
  /** The root's allowance has no room for what was asked. */
  "SPOOL_E_QUOTA",
  "SPOOL_E_DENIED",
  "SPOOL_E_UPSTREAM",
  "SPOOL_E_CANCELLED",
  "SPOOL_E_PLAN",
  "SPOOL_E_AUTH",
] as const;

export type SpoolErrorCode = (typeof SPOOL_ERROR_CODES)[number];

export class SpoolError extends Error {
  override readonly name = "SpoolError";
  readonly code: SpoolErrorCode;
  readonly component: string;

  constructor(
    code: SpoolErrorCode,
    component: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${component}: ${message}`, options);
    this.code = code;
    this.component = component;
  }
}

/** True when `error` is a {@link SpoolError} with one of the given codes. */
export function isSpoolError(error: unknown, ...codes: SpoolErrorCode[]): error is SpoolError {
  return error instanceof SpoolError && (codes.length === 0 || codes.includes(error.code));
}
