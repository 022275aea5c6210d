/**
 * The one receipt rewriter: a receipt read somewhere other than the root that wrote it.
 * A receipt names two things that only hold in that root: its `root` and each stream's
 * `path` (and, in a bundle, its `ref`). Export (a bundle's receipts: root `.`, paths
 * relative to the bundle), import and share (the receiving root's own paths) and remote
 * readers (`spool status --for-remote`, the server: paths become routes) all rewrite
 * them here, so a new field that names a place is rewritten in one function.
 *
 * @example
 * ```ts
 * import { rewriteReceipt, type Receipt } from "@spool/core";
 * declare const receipt: Receipt;
 * const elsewhere = rewriteReceipt(receipt, {
 *   root: "/mnt/copy",
 *   locate: (_name, stream) => (stream.ref === null ? null : { ref: stream.ref, path: `/mnt/copy/${stream.ref}` }),
 * });
 * ```
 */
import type { Receipt, StreamReceipt } from "./receipt.js";
import { STREAM_NAMES, type StreamName } from "./receipt-vocabulary.js";

/**
 * Where a stream's bytes are read in the new place: its ref and its path there.
 *
 * @category receipts
 * @example
 * ```ts
 * import type { StreamPlace } from "@spool/core";
 * const inBundle: StreamPlace = { ref: "tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/stdout.txt", path: "tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/stdout.txt" };
 * ```
 */
export interface StreamPlace {
  /** The stream's ref there (root-relative), or null. */
  readonly ref: string | null;
  /** Where a reader there opens or fetches it (a path, a URL), or null if nowhere. */
  readonly path: string | null;
}

/**
 * The place a receipt is rewritten for ({@link rewriteReceipt}).
 *
 * @category receipts
 * @example
 * ```ts
 * import type { ReceiptPlace } from "@spool/core";
 * const remote: ReceiptPlace = { root: "remote", locate: (_name, stream) => ({ ref: stream.ref, path: null }) };
 * ```
 */
export interface ReceiptPlace {
  /** The `root` readers there see: a directory, `.` for a bundle, a server's base URL, or `remote`. */
  readonly root: string;
  /** Where a stream's bytes are there; null when they are not there (ref and path become null). */
  readonly locate: (name: StreamName, stream: StreamReceipt) => StreamPlace | null;
}

/**
 * `receipt` as read in `place`: its root and each stream's ref and path rewritten, every
 * other field (and the key order) as it was. Pure; no check: a caller that writes the
 * receipt down validates it.
 *
 * @category receipts
 * @example
 * ```ts
 * import { rewriteReceipt, type Receipt } from "@spool/core";
 * declare const receipt: Receipt;
 * const bundled = rewriteReceipt(receipt, { root: ".", locate: (_name, stream) => ({ ref: stream.ref, path: stream.ref }) });
 * bundled.root; // "."
 * ```
 */
export function rewriteReceipt(receipt: Receipt, place: ReceiptPlace): Receipt {
  const streams = {} as Record<StreamName, StreamReceipt>;
  for (const name of STREAM_NAMES) {
    const stream = receipt.streams[name];
    const at = place.locate(name, stream);
    streams[name] = { ...stream, ref: at?.ref ?? null, path: at?.path ?? null };
  }
  return { ...receipt, root: place.root, streams };
}
