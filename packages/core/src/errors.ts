/**
 * Every error the framework raises: a stable `code`, the component that raised it,
 * and the original `cause` where there was one.
 *
 * @category errors
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

/**
 * One of {@link SPOOL_ERROR_CODES}: a stable code to match on (never match on messages).
 *
 * @category errors
 * @example
 * ```ts
 * import { isSpoolError, type SpoolErrorCode } from "@spool/core";
 * declare const error: unknown;
 * const code: SpoolErrorCode | null = isSpoolError(error) ? error.code : null;
 * ```
 */
export type SpoolErrorCode = (typeof SPOOL_ERROR_CODES)[number];

/**
 * What failed in storage: the errno (`ENOENT`, `ENOSPC`, `EACCES`…), the operation
 * (`open`, `mkdir`, `write`, `rename`…) and the path, with anything that looks like a
 * secret in the path redacted ({@link redactPath}). Carried by a storage
 * {@link SpoolError}, the `storage-error` event and the receipt's `capture.storageError`.
 *
 * @category errors
 * @example
 * ```ts
 * import { isSpoolError } from "@spool/core";
 * declare const error: unknown;
 * if (isSpoolError(error, "SPOOL_E_STORAGE") && error.storage?.errno === "ENOSPC") console.error("disk full");
 * ```
 */
export interface StorageFailure {
  /** The errno code (`ENOENT`, `ENOSPC`, `EACCES`…), or `EIO` when the error had none. */
  readonly errno: string;
  /** The system call or operation that failed (`open`, `mkdir`, `write`, `rename`…). */
  readonly operation: string;
  /** The path involved, secret-looking segments redacted; null when unknown. */
  readonly path: string | null;
}

/**
 * Options of a {@link SpoolError}: the cause, and for storage errors what failed.
 *
 * @category errors
 * @example
 * ```ts
 * import { SpoolError, storageFailureOf } from "@spool/core";
 * declare const cause: unknown;
 * throw new SpoolError("SPOOL_E_STORAGE", "my-spool", "cannot open the spool", {
 *   cause,
 *   storage: storageFailureOf(cause, "open", "/srv/spool"),
 * });
 * ```
 */
export interface SpoolErrorOptions {
  /** The error this one wraps, kept as the standard `cause`. @default none */
  readonly cause?: unknown;
  /** For storage errors: what failed; it is appended to the message and kept as `storage`. @default none */
  readonly storage?: StorageFailure;
}

/**
 * The error every part of spool throws: a stable `code` from {@link SPOOL_ERROR_CODES},
 * the `component` that raised it (also the message's prefix), the original `cause`, and
 * for storage errors the {@link StorageFailure}. Throw it from your own stages and spools
 * too, so callers handle one shape.
 *
 * @category errors
 * @example
 * ```ts
 * import { SpoolError } from "@spool/core";
 * const error = new SpoolError("SPOOL_E_STAGE", "my-stage", "cannot parse the header");
 * error.message; // "my-stage: cannot parse the header"
 * error.code; // "SPOOL_E_STAGE"
 * ```
 */
export class SpoolError extends Error {
  override readonly name = "SpoolError";
  readonly code: SpoolErrorCode;
  readonly component: string;
  /** For storage errors: errno, operation and (redacted) path; also in the message. */
  readonly storage: StorageFailure | null;

  constructor(
    code: SpoolErrorCode,
    component: string,
    message: string,
    options?: SpoolErrorOptions,
  ) {
    const storage = options?.storage ?? null;
    const where = storage
      ? ` (${storage.errno} on ${storage.operation}${storage.path === null ? "" : ` of ${storage.path}`})`
      : "";
    super(
      `${component}: ${message}${where}`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.code = code;
    this.component = component;
    this.storage = storage;
  }
}

/**
 * A {@link StorageFailure} from a Node system error (`error.code`, `error.syscall`,
 * `error.path`), with the operation given when the error does not name one.
 *
 * @category errors
 * @example
 * ```ts
 * import { storageFailureOf } from "@spool/core";
 * try {
 *   require("node:fs").mkdirSync("/nonexistent/x");
 * } catch (error) {
 *   storageFailureOf(error, "mkdir"); // { errno: "ENOENT", operation: "mkdir", path: "/nonexistent/x" }
 * }
 * ```
 */
export function storageFailureOf(error: unknown, operation: string, path?: string): StorageFailure {
  const e = (error ?? {}) as { code?: unknown; syscall?: unknown; path?: unknown };
  const where = typeof e.path === "string" ? e.path : (path ?? null);
  return {
    errno: typeof e.code === "string" ? e.code : "EIO",
    operation: typeof e.syscall === "string" ? e.syscall : operation,
    path: where === null ? null : redactPath(where),
  };
}

/**
 * A path fit for errors, logs and receipts: each path segment that looks like a credential
 * (a run of 20+ token characters with 4+ capitals and 4+ digits, as random keys have) is
 * replaced by `[REDACTED]`; ordinary names pass unchanged, and so does the capture id after
 * `tool-outputs/` (ids are not secrets). A heuristic, not a promise: a secret in lower case
 * only, or shorter than 20 characters, is kept.
 *
 * @category errors
 * @example
 * ```ts
 * import { redactPath } from "@spool/core";
 * redactPath("/tmp/ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6/out"); // "/tmp/[REDACTED]/out"
 * ```
 */
export function redactPath(path: string): string {
  const segments = path.split("/");
  return segments
    .map((segment, i) =>
      segments[i - 1] !== "tool-outputs" && looksLikeSecret(segment) ? "[REDACTED]" : segment,
    )
    .join("/");
}

/**
 * A run of 20+ token characters with at least 4 capitals, 4 digits and a lower-case letter,
 * as random keys have (a `mkdtemp` suffix or a dated name does not).
 */
function looksLikeSecret(segment: string): boolean {
  const run = /[A-Za-z0-9_+=.-]{20,}/.exec(segment)?.[0];
  if (run === undefined || !/[a-z]/.test(run)) return false;
  return (run.match(/[A-Z]/g)?.length ?? 0) >= 4 && (run.match(/[0-9]/g)?.length ?? 0) >= 4;
}

/**
 * True when `error` is a {@link SpoolError} with one of the given codes (with no codes,
 * any SpoolError); narrows the type.
 *
 * @category errors
 * @example
 * ```ts
 * import { isSpoolError } from "@spool/core";
 * declare const error: unknown;
 * if (isSpoolError(error, "SPOOL_E_REF_NOT_FOUND", "SPOOL_E_REF_INVALID")) console.error(error.message);
 * ```
 */
export function isSpoolError(error: unknown, ...codes: SpoolErrorCode[]): error is SpoolError {
  return error instanceof SpoolError && (codes.length === 0 || codes.includes(error.code));
}
