/**
 * The export bundle (`spool export`, `spool import`, `spool share`): its layout, its
 * manifest and how receipts are rewritten on the way out and in.
 *
 *     manifest.json                              what is in it, what was left out and why
 *     tool-outputs/<captureId>/receipt.json      the receipt, refs relative to the bundle
 *     tool-outputs/<captureId>/stdout.txt|.bin   the committed bytes, final names only
 *     tool-outputs/<captureId>/stdout.idx        the sparse line index of those bytes
 *     tool-outputs/<captureId>/stderr.…          the same for stderr
 *
 * Nothing else is ever in a bundle: no supervisor or ownership file (`owner.json`,
 * `job.json`), no cursor, no completion marker, no live file. A bundle's receipts say
 * `root: "."` and give each stream's `path` relative to the bundle; the importing root
 * rewrites both to its own place and records where the capture came from
 * (`provenance`). The manifest is the last entry of a tar bundle, because the sha256 of
 * every file is computed while the file is copied.
 *
 * @example
 * ```ts
 * import { bundleFileOf } from "@spool/sinks";
 * bundleFileOf("tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/stdout.txt"); // { captureId: "AAAA…", name: "stdout.txt" }
 * bundleFileOf("../etc/passwd"); // null
 * ```
 */
import {
  CAPTURE_ID_PATTERN,
  type Provenance,
  producerOf,
  type Receipt,
  ReceiptSchema,
  STREAM_NAMES,
  type StreamName,
  type StreamReceipt,
} from "@spool/core";
import { z } from "zod";
import { lineIndexName } from "./line-index.js";
import { TOOL_OUTPUTS } from "./storage.js";

export const MANIFEST_FILE = "manifest.json";
export const BUNDLE_FORMAT = "spool-bundle";
export const RECEIPT_FILE = "receipt.json";
/** Largest `receipt.json` a bundle may carry (a receipt's preview is at most 16 KiB). */
export const MAX_BUNDLE_RECEIPT_BYTES = 1024 * 1024;
/** Largest `manifest.json` a bundle may carry. */
export const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

/** The files a capture may have in a bundle. */
export const BUNDLE_FILE_NAMES = [
  RECEIPT_FILE,
  "stdout.txt",
  "stdout.bin",
  "stdout.idx",
  "stderr.txt",
  "stderr.bin",
  "stderr.idx",
] as const;
export type BundleFileName = (typeof BUNDLE_FILE_NAMES)[number];

/**
 * Why something was left out of a bundle:
 * - `running`: the capture was live; bytes past its committed boundary are not in it;
 * - `crashed`: its owner died; bytes it had not stored are lost;
 * - `not-permitted`: supervisor and ownership records never leave a root, and a capture
 *   the store refused to look into is not exported;
 * - `binary-not-retained`: the stream was kept as replaced text, its raw bytes never were.
 */
export const OMISSION_REASONS = [
  "running",
  "crashed",
  "not-permitted",
  "binary-not-retained",
] as const;
export type OmissionReason = (typeof OMISSION_REASONS)[number];

const count = z.number().int().nonnegative();
const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const BundleFileSchema = z.object({
  name: z.enum(BUNDLE_FILE_NAMES),
  bytes: count,
  sha256,
});

export const BundleCaptureSchema = z.object({
  captureId: z.string().regex(CAPTURE_ID_PATTERN),
  /** Where the capture stood when it was exported. */
  condition: z.enum(["final", "live", "crashed"]),
  /** A live capture exported at its committed boundary: `partial`, never final. */
  snapshot: z.boolean(),
  files: z.array(BundleFileSchema),
  omitted: z.array(z.object({ what: z.string(), reason: z.enum(OMISSION_REASONS) })),
});

export const BundleManifestSchema = z.object({
  format: z.literal(BUNDLE_FORMAT),
  version: z.literal(1),
  createdAt: z.iso.datetime({ offset: true }),
  captures: z.array(BundleCaptureSchema),
  /** Captures that were chosen but are not in the bundle, and why. */
  omitted: z.array(
    z.object({ captureId: z.string(), reason: z.enum(OMISSION_REASONS), detail: z.string() }),
  ),
});

export type BundleFile = z.infer<typeof BundleFileSchema>;
export type BundleCapture = z.infer<typeof BundleCaptureSchema>;
export type BundleManifest = z.infer<typeof BundleManifestSchema>;

/** The bundle path of a capture's file. */
export function bundlePath(captureId: string, name: string): string {
  return `${TOOL_OUTPUTS}/${captureId}/${name}`;
}

/**
 * What a bundle entry's path names, or null for anything a bundle may not hold (any
 * other name, `..`, absolute, a hidden file, a deeper path).
 */
export function bundleFileOf(
  entryPath: string,
): { readonly captureId: string; readonly name: BundleFileName } | null {
  const parts = entryPath.split("/");
  if (parts.length !== 3 || parts[0] !== TOOL_OUTPUTS) return null;
  const [, captureId, name] = parts as [string, string, string];
  if (!CAPTURE_ID_PATTERN.test(captureId)) return null;
  if (!(BUNDLE_FILE_NAMES as readonly string[]).includes(name)) return null;
  return { captureId, name: name as BundleFileName };
}

/** The bundle name of a stream's data: `.bin` for a binary representation, else `.txt`. */
export function streamFileName(stream: StreamName, info: StreamReceipt): BundleFileName {
  return `${stream}.${info.representation === "binary" ? "bin" : "txt"}` as BundleFileName;
}

export function indexFileName(stream: StreamName): BundleFileName {
  return lineIndexName(stream) as BundleFileName;
}

/** What was copied of one stream. */
export interface CopiedStream {
  readonly bytes: number;
  readonly sha256: string;
}

/**
 * The receipt as it goes into a bundle: root `.`, stream paths relative to the bundle,
 * refs to final names. A live capture becomes a snapshot: `partial` at the boundary that
 * was copied (never `complete`, never final); bytes it still held are counted as
 * discarded if its process had already ended (a receipt of an ended process has no
 * pending bytes).
 */
export function bundleReceipt(
  receipt: Receipt,
  condition: BundleCapture["condition"],
  copied: Readonly<Record<StreamName, CopiedStream | null>>,
): Receipt {
  const streams = {} as Record<StreamName, StreamReceipt>;
  const snapshot = condition === "live";
  const ended = !producerOf(receipt).running;
  for (const name of STREAM_NAMES) {
    const info = receipt.streams[name];
    const got = copied[name];
    if (got === null) {
      streams[name] = { ...info, ref: null, path: null };
      continue;
    }
    const ref = bundlePath(receipt.captureId, streamFileName(name, info));
    const moved = snapshot && ended ? info.raw.pending : 0;
    streams[name] = {
      ...info,
      raw: {
        ...info.raw,
        pending: info.raw.pending - moved,
        discarded: info.raw.discarded + moved,
      },
      committed: snapshot ? got.bytes : info.committed,
      retained: snapshot ? (got.bytes > 0 ? { start: 0, end: got.bytes } : null) : info.retained,
      ref,
      path: ref,
      sha256: got.sha256,
    };
  }
  const capture = snapshot ? { ...receipt.capture, state: "partial" as const } : receipt.capture;
  return ReceiptSchema.parse({ ...receipt, root: ".", capture, streams });
}

/** The receipt as a root keeps an imported or shared capture: its own root and paths, and where it came from. */
export function arrivedReceipt(receipt: Receipt, root: string, provenance: Provenance): Receipt {
  const streams = {} as Record<StreamName, StreamReceipt>;
  for (const name of STREAM_NAMES) {
    const info = receipt.streams[name];
    streams[name] = { ...info, path: info.ref === null ? null : `${root}/${info.ref}` };
  }
  return ReceiptSchema.parse({ ...receipt, root, streams, provenance });
}
