/**
 * How the server answers a refusal: a status and a JSON body `{ error: { code, message } }`
 * with a stable `SpoolError` code, `no-store`, and nothing from the request echoed back
 * beyond a bounded, plain message.
 */
import { isSpoolError, type SpoolErrorCode } from "@spool/core";

/** The status a `SpoolError` code is answered with. */
const STATUS: Partial<Record<SpoolErrorCode, number>> = {
  SPOOL_E_USAGE: 400,
  SPOOL_E_OPTIONS: 400,
  SPOOL_E_REF_INVALID: 400,
  SPOOL_E_REF_OUTSIDE_ROOT: 400,
  SPOOL_E_REF_NOT_FOUND: 404,
  SPOOL_E_UNSAFE_PATH: 403,
  SPOOL_E_AUTH: 401,
  SPOOL_E_STATE: 409,
};

export function errorResponse(
  status: number,
  code: SpoolErrorCode,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ error: { code, message } }), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...headers },
  });
}

/** The answer to an error thrown while serving: its code's status, or 500 with no detail. */
export function responseOfError(error: unknown): Response {
  if (isSpoolError(error)) {
    const status = STATUS[error.code] ?? 500;
    // Messages of the store name files and codes, never contents; a 500 says nothing.
    return errorResponse(status, error.code, status === 500 ? "internal error" : error.message);
  }
  return errorResponse(500, "SPOOL_E_STORAGE", "internal error");
}
