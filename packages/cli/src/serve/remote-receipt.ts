/**
 * A receipt for a reader elsewhere (`spool status --for-remote`, the server's receipt
 * route): local paths mean nothing there, so each stored stream's `path` is replaced by
 * the URL of its route on a `spool serve` (absolute with a base URL, else root-relative to
 * the server), `root` by the base URL (or `remote`), and each stream says whether it can
 * be fetched: `remote: { state: "available", url }`, or `{ state: "unavailable", reason }`
 * when no route exists (nothing was stored: the bytes are only in the preview; or the
 * capture retained nothing). `ref` stays: it is root-relative and names the same stream.
 *
 * @example
 * ```ts
 * import { receiptForRemote } from "./remote-receipt.js";
 * declare const receipt: import("@spool/core").Receipt;
 * receiptForRemote(receipt, "https://host:8443").streams.stdout.path; // https://host:8443/api/v1/captures/…/streams/stdout
 * ```
 */
import { type Receipt, rewriteReceipt, STREAM_NAMES, type StreamName } from "@spool/core/runtime";

export type RemoteAvailability =
  | { readonly state: "available"; readonly url: string }
  | { readonly state: "unavailable"; readonly reason: "not-stored" | "nothing-retained" };

export type RemoteReceipt = Receipt & {
  readonly streams: Record<
    StreamName,
    Receipt["streams"]["stdout"] & { remote: RemoteAvailability }
  >;
};

/** The route of a stream's bytes, relative to the server. */
export function streamRoute(captureId: string, stream: StreamName): string {
  return `/api/v1/captures/${captureId}/streams/${stream}`;
}

/**
 * `receipt` with local paths replaced by routes of a server at `baseUrl` (no trailing
 * slash), or relative ones: rewritten by `rewriteReceipt`, then each stream says whether
 * it can be fetched.
 */
export function receiptForRemote(receipt: Receipt, baseUrl: string | null): RemoteReceipt {
  const base = baseUrl === null ? "" : baseUrl.replace(/\/+$/, "");
  const remote = {} as Record<StreamName, RemoteAvailability>;
  for (const name of STREAM_NAMES) remote[name] = availability(receipt, name, base);
  const rewritten = rewriteReceipt(receipt, {
    root: baseUrl === null ? "remote" : base,
    locate: (name, s) => {
      const at = remote[name];
      return { ref: s.ref, path: at.state === "available" ? at.url : null };
    },
  });
  const stream = (name: StreamName) => ({ ...rewritten.streams[name], remote: remote[name] });
  return { ...rewritten, streams: { stdout: stream("stdout"), stderr: stream("stderr") } };
}

function availability(receipt: Receipt, name: StreamName, base: string): RemoteAvailability {
  const s = receipt.streams[name];
  if (s.ref === null) return { state: "unavailable", reason: "not-stored" };
  if (s.retained === null) return { state: "unavailable", reason: "nothing-retained" };
  return { state: "available", url: `${base}${streamRoute(receipt.captureId, name)}` };
}
