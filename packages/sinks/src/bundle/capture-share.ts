/**
 * `spool share REF --to ROOT`: hand a capture to a child root on the same machine, before
 * its owner (the parent conversation) may be deleted. It is an export into a staging
 * directory of the child root followed by the import's verify-and-publish: every file is
 * copied (a live capture as a `partial` snapshot), never hard-linked, because readers
 * refuse a stream file with a second link (a link planted to a file elsewhere must never
 * be served), and a shared file would have one in each root. The child keeps the bytes
 * whatever happens to the parent. The child's receipt records the parent root
 * (`provenance: { kind: "shared", from }`).
 *
 * @example
 * ```ts
 * import { createFileStore, shareCapture } from "@spool/sinks";
 * const store = createFileStore({ root: "/abs/parent" });
 * await shareCapture({ store, root: "/abs/parent", captureId: "AAAAAAAAAAAAAAAAAAAAAAAA", to: "/abs/child", quotaBytes: 128 * 1024 * 1024 });
 * ```
 */
import type { CaptureStore } from "@spool/core";
import { writeBundle } from "./bundle-export.js";
import { createStager, type ImportReport, publishStaged, type Stager } from "./bundle-import.js";
import type { BundleWriter } from "./bundle-writer.js";

/**
 * What {@link shareCapture} takes (`spool share`): the parent root and its store, the
 * capture, and the child root it goes to.
 *
 * @category bundles
 * @example
 * ```ts
 * import { createFileStore, type ShareCaptureOptions } from "@spool/sinks";
 * const options: ShareCaptureOptions = {
 *   store: createFileStore({ root: "/srv/parent" }), root: "/srv/parent",
 *   captureId: "AAAAAAAAAAAAAAAAAAAAAAAA", to: "/srv/child", quotaBytes: 128 * 1024 * 1024,
 * };
 * ```
 */
export interface ShareCaptureOptions {
  /** The parent root's store. */
  readonly store: CaptureStore;
  /** The parent root (absolute), recorded as the child's provenance. */
  readonly root: string;
  /** The capture to share. */
  readonly captureId: string;
  /** The child root (absolute; created if missing). */
  readonly to: string;
  /** The child root's allowance. */
  readonly quotaBytes: number;
  /** Clock of the provenance's `at`. @default () => new Date() */
  readonly now?: () => Date;
}

/**
 * What {@link shareCapture} did: an {@link ImportReport} of the child root.
 *
 * @category bundles
 * @example
 * ```ts
 * import type { ShareReport } from "@spool/sinks";
 * declare const report: ShareReport;
 * report.imported; // the capture ids now in the child root
 * ```
 */
export interface ShareReport extends ImportReport {
  /** Files hard-linked rather than copied: always 0 now (see above), kept for callers. */
  readonly linked: number;
}

/**
 * Give a child root its own copy of a parent root's capture, recorded as `shared` from
 * the parent: staged, verified and reserved in the child's allowance like an import.
 *
 * @category bundles
 * @example
 * ```ts
 * import { createFileStore, shareCapture } from "@spool/sinks";
 * const report = await shareCapture({
 *   store: createFileStore({ root: "/srv/parent" }), root: "/srv/parent",
 *   captureId: "AAAAAAAAAAAAAAAAAAAAAAAA", to: "/srv/child", quotaBytes: 128 * 1024 * 1024,
 * });
 * ```
 */
export async function shareCapture(options: ShareCaptureOptions): Promise<ShareReport> {
  const now = options.now ?? (() => new Date());
  const stager = createStager(options.to, options.quotaBytes);
  let linked = 0;
  try {
    const writer = stagerWriter(stager, () => linked++);
    await writeBundle(options.store, [options.captureId], writer, { omitted: [], now });
    const report = await publishStaged(stager, {
      root: options.to,
      quotaBytes: options.quotaBytes,
      provenance: { kind: "shared", from: options.root },
      now,
    });
    return { ...report, linked };
  } finally {
    stager.discard();
  }
}

/** A bundle writer that stages straight into the child root. */
function stagerWriter(stager: Stager, onLink: () => void): BundleWriter {
  return {
    async add(name, size, data) {
      const sink = stager.open(name, size);
      for await (const chunk of data) {
        sink.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      }
      sink.end();
    },
    link(name, file) {
      const done = stager.link(name, file);
      if (done) onLink();
      return done;
    },
    async finish() {},
    async abort() {},
  };
}
