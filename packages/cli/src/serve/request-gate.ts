/**
 * What every request passes before any route (and so before the store is asked anything):
 *
 * 1. a URL of at most {@link MAX_URL} bytes (414);
 * 2. a `Host` header naming this server (`allowedHosts`): a page on another origin that
 *    rebinds its DNS name to 127.0.0.1 sends its own name and is refused (421);
 * 3. a path of plain characters only: no percent-escapes, backslashes, NUL, `.`/`..` or
 *    empty segments (400): captureIds and stream names never need any, so an encoded
 *    traversal is refused as it is written, before anything decodes it;
 * 4. a query without NUL once decoded.
 *
 * There are no CORS headers: another origin's script cannot read any answer.
 */
/** Longest request URL accepted (path and query). */
export const MAX_URL = 8192;

/** Why a request is refused before routing. */
export interface Refusal {
  readonly status: number;
  readonly code:
    | "SPOOL_E_USAGE"
    | "SPOOL_E_AUTH"
    | "SPOOL_E_REF_INVALID"
    | "SPOOL_E_REF_OUTSIDE_ROOT";
  readonly message: string;
}

/**
 * Judge a request by its raw target (`/path?query` exactly as sent, before any URL parser
 * normalises `..` or decodes escapes) and its `Host` header.
 */
export function gateRequest(
  target: string,
  host: string | undefined,
  allowedHosts: ReadonlySet<string>,
): Refusal | null {
  if (target.length > MAX_URL) return refuse(414, "SPOOL_E_USAGE", "URL too long");
  if (!allowedHosts.has((host ?? "").toLowerCase())) {
    return refuse(421, "SPOOL_E_AUTH", "unexpected Host header");
  }
  const q = target.indexOf("?");
  const rawPath = q === -1 ? target : target.slice(0, q);
  if (!/^\/[A-Za-z0-9._~/-]*$/.test(rawPath)) {
    return refuse(400, "SPOOL_E_REF_INVALID", "path has characters no route uses");
  }
  const segments = rawPath.split("/").slice(1);
  if (segments.some((s, i) => s === "." || s === ".." || (s === "" && i < segments.length - 1))) {
    return refuse(400, "SPOOL_E_REF_OUTSIDE_ROOT", "path has empty, . or .. segments");
  }
  if (q !== -1) {
    try {
      for (const [k, v] of new URLSearchParams(target.slice(q + 1))) {
        if (k.includes("\0") || v.includes("\0"))
          return refuse(400, "SPOOL_E_REF_INVALID", "NUL in query");
      }
    } catch {
      return refuse(400, "SPOOL_E_REF_INVALID", "bad query");
    }
  }
  return null;
}

const refuse = (status: number, code: Refusal["code"], message: string): Refusal => ({
  status,
  code,
  message,
});
