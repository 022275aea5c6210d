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
  rewriteReceipt,
  STREAM_NAMES,
  type StreamName,
  type StreamReceipt,
} from "@spool/core";
import { z } from "zod";
import { TOOL_OUTPUTS } from "../file/storage.js";
import { lineIndexName } from "../store/line-index.js";

/**
 * The bundle path of the manifest (the last entry of a tar bundle).
 *
 * @category bundles
 * @example
 * ```ts
 * import { join } from "node:path";
 * import { MANIFEST_FILE } from "@spool/sinks";
 * const manifestPath = join("/tmp/bundle-dir", MANIFEST_FILE);
 * ```
 */
export const MANIFEST_FILE = "manifest.json";
/**
 * The manifest's `format`: what marks a file as a spool bundle.
 *
 * @category bundles
 * @example
 * ```ts
 * import { BUNDLE_FORMAT, type BundleManifest } from "@spool/sinks";
 * declare const manifest: BundleManifest;
 * manifest.format === BUNDLE_FORMAT; // true
 * ```
 */
export const BUNDLE_FORMAT = "spool-bundle";
/**
 * The file name of a capture's receipt, in a root and in a bundle.
 *
 * @category bundles
 * @example
 * ```ts
 * import { bundlePath, RECEIPT_FILE } from "@spool/sinks";
 * bundlePath("AAAAAAAAAAAAAAAAAAAAAAAA", RECEIPT_FILE); // "tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/receipt.json"
 * ```
 */
export const RECEIPT_FILE = "receipt.json";
/**
 * Largest `receipt.json` a bundle may carry, in bytes (a receipt's preview is at most 16 KiB).
 *
 * @category bundles
 * @example
 * ```ts
 * import { MAX_BUNDLE_RECEIPT_BYTES } from "@spool/sinks";
 * MAX_BUNDLE_RECEIPT_BYTES; // 1048576
 * ```
 */
export const MAX_BUNDLE_RECEIPT_BYTES = 1024 * 1024;
/**
 * Largest `manifest.json` a bundle may carry, in bytes.
 *
 * @category bundles
 * @example
 * ```ts
 * import { MAX_MANIFEST_BYTES } from "@spool/sinks";
 * MAX_MANIFEST_BYTES; // 16777216
 * ```
 */
export const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

/**
 * Most captures one bundle holds: `spool export` refuses to write more, and `spool import`
 * refuses a bundle with more entries than that many captures can have.
 *
 * @category bundles
 * @example
 * ```ts
 * import { MAX_BUNDLE_CAPTURES } from "@spool/sinks";
 * MAX_BUNDLE_CAPTURES; // 10000
 * ```
 */
export const MAX_BUNDLE_CAPTURES = 10_000;

/**
 * Most entries a tar or directory bundle may have: five files per capture (the receipt,
 * each stream's data and line index) and the manifest. Counted before anything is staged.
 *
 * @category bundles
 * @example
 * ```ts
 * import { MAX_BUNDLE_ENTRIES } from "@spool/sinks";
 * MAX_BUNDLE_ENTRIES; // 50001
 * ```
 */
export const MAX_BUNDLE_ENTRIES = 5 * MAX_BUNDLE_CAPTURES + 1;

/**
 * Most bytes a tar bundle may hold after its end marker (a tar writer pads to its record
 * size, 10 KiB for GNU tar); they are never read. More refuses the bundle.
 *
 * @category bundles
 * @example
 * ```ts
 * import { MAX_TRAILING_BYTES } from "@spool/sinks";
 * MAX_TRAILING_BYTES; // 1048576
 * ```
 */
export const MAX_TRAILING_BYTES = 1024 * 1024;

/**
 * The files a capture may have in a bundle; anything else is refused on import.
 *
 * @category bundles
 * @example
 * ```ts
 * import { BUNDLE_FILE_NAMES } from "@spool/sinks";
 * BUNDLE_FILE_NAMES.includes("stdout.idx"); // true
 * ```
 */
export const BUNDLE_FILE_NAMES = [
  RECEIPT_FILE,
  "stdout.txt",
  "stdout.bin",
  "stdout.idx",
  "stderr.txt",
  "stderr.bin",
  "stderr.idx",
] as const;
/**
 * One of {@link BUNDLE_FILE_NAMES}.
 *
 * @category bundles
 * @example
 * ```ts
 * import { streamFileName, type BundleFileName } from "@spool/sinks";
 * import type { Receipt } from "@spool/core";
 * declare const receipt: Receipt;
 * const name: BundleFileName = streamFileName("stdout", receipt.streams.stdout); // "stdout.txt" or "stdout.bin"
 * ```
 */
export type BundleFileName = (typeof BUNDLE_FILE_NAMES)[number];

/**
 * Why something was left out of a bundle:
 * - `running`: the capture was live; bytes past its committed boundary are not in it;
 * - `crashed`: its owner died; bytes it had not stored are lost;
 * - `not-permitted`: supervisor and ownership records never leave a root, and a capture
 *   the store refused to look into is not exported;
 * - `binary-not-retained`: the stream was kept as replaced text, its raw bytes never were.
 *
 * @category bundles
 * @example
 * ```ts
 * import { OMISSION_REASONS } from "@spool/sinks";
 * OMISSION_REASONS.includes("crashed"); // true
 * ```
 */
export const OMISSION_REASONS = [
  "running",
  "crashed",
  "not-permitted",
  "binary-not-retained",
] as const;
/**
 * One of {@link OMISSION_REASONS}.
 *
 * @category bundles
 * @example
 * ```ts
 * import type { BundleManifest, OmissionReason } from "@spool/sinks";
 * declare const manifest: BundleManifest;
 * const reasons: OmissionReason[] = manifest.omitted.map((o) => o.reason);
 * ```
 */
export type OmissionReason = (typeof OMISSION_REASONS)[number];

const count = z.number().int().nonnegative();
const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * The zod schema of one file of a capture in a bundle manifest: its name, size and sha256.
 *
 * @category bundles
 * @example
 * ```ts
 * import { BundleFileSchema } from "@spool/sinks";
 * BundleFileSchema.safeParse({ name: "stdout.txt", bytes: 3, sha256: "0".repeat(64) }).success; // true
 * ```
 */
export const BundleFileSchema = z.object({
  name: z.enum(BUNDLE_FILE_NAMES),
  bytes: count,
  sha256,
});

/**
 * The zod schema of one capture in a bundle manifest: its condition when exported, its
 * files and what of it was left out.
 *
 * @category bundles
 * @example
 * ```ts
 * import { BundleCaptureSchema } from "@spool/sinks";
 * declare const json: unknown;
 * const capture = BundleCaptureSchema.parse(json);
 * if (capture.snapshot) console.log("exported while live: partial");
 * ```
 */
export const BundleCaptureSchema = z.object({
  captureId: z.string().regex(CAPTURE_ID_PATTERN),
  /** Where the capture stood when it was exported. */
  condition: z.enum(["final", "live", "crashed"]),
  /** A live capture exported at its committed boundary: `partial`, never final. */
  snapshot: z.boolean(),
  files: z.array(BundleFileSchema),
  omitted: z.array(z.object({ what: z.string(), reason: z.enum(OMISSION_REASONS) })),
});

/**
 * The zod schema of a bundle's `manifest.json`: format, version, creation time, the
 * captures and what was chosen but left out.
 *
 * @category bundles
 * @example
 * ```ts
 * import { readFileSync } from "node:fs";
 * import { BundleManifestSchema } from "@spool/sinks";
 * const manifest = BundleManifestSchema.parse(JSON.parse(readFileSync("/tmp/bundle-dir/manifest.json", "utf8")));
 * ```
 */
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

/**
 * One file of a capture in a bundle manifest.
 *
 * @category bundles
 * @example
 * ```ts
 * import type { BundleCapture, BundleFile } from "@spool/sinks";
 * declare const capture: BundleCapture;
 * const total = capture.files.reduce((sum: number, file: BundleFile) => sum + file.bytes, 0);
 * ```
 */
export type BundleFile = z.infer<typeof BundleFileSchema>;
/**
 * One capture in a bundle manifest.
 *
 * @category bundles
 * @example
 * ```ts
 * import type { BundleCapture, BundleManifest } from "@spool/sinks";
 * declare const manifest: BundleManifest;
 * const live: BundleCapture[] = manifest.captures.filter((c) => c.condition === "live");
 * ```
 */
export type BundleCapture = z.infer<typeof BundleCaptureSchema>;
/**
 * A bundle's manifest, as {@link exportBundle} returns it and {@link importBundle} reads it.
 *
 * @category bundles
 * @example
 * ```ts
 * import type { BundleManifest } from "@spool/sinks";
 * declare const manifest: BundleManifest;
 * for (const left of manifest.omitted) console.warn(`${left.captureId}: ${left.reason} (${left.detail})`);
 * ```
 */
export type BundleManifest = z.infer<typeof BundleManifestSchema>;

/**
 * The bundle path of a capture's file (`tool-outputs/<captureId>/<name>`).
 *
 * @category bundles
 * @example
 * ```ts
 * import { bundlePath } from "@spool/sinks";
 * bundlePath("AAAAAAAAAAAAAAAAAAAAAAAA", "stdout.txt"); // "tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/stdout.txt"
 * ```
 */
export function bundlePath(captureId: string, name: string): string {
  return `${TOOL_OUTPUTS}/${captureId}/${name}`;
}

/**
 * What a bundle entry's path names, or null for anything a bundle may not hold (any
 * other name, `..`, absolute, a hidden file, a deeper path).
 *
 * @category bundles
 * @example
 * ```ts
 * import { bundleFileOf } from "@spool/sinks";
 * bundleFileOf("tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/stdout.txt"); // { captureId: "AAAA…", name: "stdout.txt" }
 * bundleFileOf("../etc/passwd"); // null
 * ```
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

/**
 * The bundle name of a stream's data: `.bin` for a binary representation, else `.txt`.
 *
 * @category bundles
 * @example
 * ```ts
 * import { streamFileName } from "@spool/sinks";
 * import type { StreamReceipt } from "@spool/core";
 * declare const info: StreamReceipt;
 * streamFileName("stderr", info); // "stderr.txt" unless kept binary
 * ```
 */
export function streamFileName(stream: StreamName, info: StreamReceipt): BundleFileName {
  return `${stream}.${info.representation === "binary" ? "bin" : "txt"}` as BundleFileName;
}

/**
 * The bundle name of a stream's sparse line index (`stdout.idx`).
 *
 * @category bundles
 * @example
 * ```ts
 * import { indexFileName } from "@spool/sinks";
 * indexFileName("stdout"); // "stdout.idx"
 * ```
 */
export function indexFileName(stream: StreamName): BundleFileName {
  return lineIndexName(stream) as BundleFileName;
}

/**
 * What was copied of one stream into a bundle: its size and sha256.
 *
 * @category bundles
 * @example
 * ```ts
 * import type { CopiedStream } from "@spool/sinks";
 * const copied: CopiedStream = { bytes: 3, sha256: "0".repeat(64) };
 * ```
 */
export interface CopiedStream {
  readonly bytes: number;
  readonly sha256: string;
}

/**
 * The receipt as it goes into a bundle (rewritten by `rewriteReceipt`): root `.`, stream
 * paths relative to the bundle, refs to final names, digests of the copied bytes. A live capture becomes a snapshot: `partial` at the boundary that
 * was copied (never `complete`, never final); bytes it still held are counted as
 * discarded if its process had already ended.
 *
 * @category bundles
 * @example
 * ```ts
 * import { bundleReceipt } from "@spool/sinks";
 * import type { Receipt } from "@spool/core";
 * declare const receipt: Receipt;
 * const inBundle = bundleReceipt(receipt, "final", { stdout: { bytes: 3, sha256: "0".repeat(64) }, stderr: null });
 * inBundle.root; // "."
 * ```
 */
export function bundleReceipt(
  receipt: Receipt,
  condition: BundleCapture["condition"],
  copied: Readonly<Record<StreamName, CopiedStream | null>>,
): Receipt {
  const copy = atCopiedBoundary(receipt, condition === "live", copied);
  const bundled = rewriteReceipt(copy, {
    root: ".",
    locate: (name, info) => {
      if (copied[name] === null) return null;
      const ref = bundlePath(receipt.captureId, streamFileName(name, info));
      return { ref, path: ref };
    },
  });
  return ReceiptSchema.parse(bundled);
}

/**
 * What the copied streams hold: their digests and, for a live capture (a snapshot), the
 * boundary that was copied (`partial` at it); bytes it still held are counted as
 * discarded if its process had already ended.
 */
function atCopiedBoundary(
  receipt: Receipt,
  snapshot: boolean,
  copied: Readonly<Record<StreamName, CopiedStream | null>>,
): Receipt {
  const streams = { ...receipt.streams };
  const ended = !producerOf(receipt).running;
  for (const name of STREAM_NAMES) {
    const info = receipt.streams[name];
    const got = copied[name];
    if (got === null) continue;
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
      sha256: got.sha256,
    };
  }
  const capture = snapshot ? { ...receipt.capture, state: "partial" as const } : receipt.capture;
  return { ...receipt, capture, streams };
}

/**
 * The receipt as a root keeps an imported or shared capture (rewritten by
 * `rewriteReceipt`): its own root and paths, where it came from, and no live process
 * identity (no pid or start time; a process still running when exported is `unknown`).
 *
 * @category bundles
 * @example
 * ```ts
 * import { arrivedReceipt } from "@spool/sinks";
 * import type { Receipt } from "@spool/core";
 * declare const receipt: Receipt;
 * arrivedReceipt(receipt, "/home/me/.spool", { kind: "imported", from: "/tmp/b.tar", at: new Date().toISOString() }).provenance?.kind; // "imported"
 * ```
 */
export function arrivedReceipt(receipt: Receipt, root: string, provenance: Provenance): Receipt {
  const arrived = rewriteReceipt(receipt, {
    root,
    locate: (_name, info) =>
      info.ref === null ? null : { ref: info.ref, path: `${root}/${info.ref}` },
  });
  return ReceiptSchema.parse({ ...arrived, process: withoutIdentity(arrived.process), provenance });
}

/**
 * A process block with no live identity: an arrived capture is final and has no owner
 * here, so no pid or start time a `kill` could act on, and a process that was still
 * running when it was exported ended nobody here knows how (`unknown`).
 */
function withoutIdentity(process: Receipt["process"]): Receipt["process"] {
  if (process === undefined) return undefined;
  return {
    ...process,
    pid: null,
    pidStart: null,
    ...(process.state === "running" ? { state: "unknown" as const } : {}),
  };
}
