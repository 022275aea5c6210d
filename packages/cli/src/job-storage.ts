/**
 * A `spool start` job's storage, made ready before its command starts: the capture's spool
 * is created and spilled (its directory, `owner.json`, the receipt's reserve, the live
 * files and its place in the root's allowance) while nothing runs yet. If that fails (a
 * full disk, a read-only root), the command is never started: the supervisor says why
 * and the launcher exits 70, so a retry cannot run the command twice.
 *
 * @example
 * ```ts
 * import { openJobStorage } from "./job-storage.js"; // internal to @spool/cli
 * declare const setup: import("./capture-setup.js").CaptureSetup;
 * const ready = await openJobStorage(setup, "AAAAAAAAAAAAAAAAAAAAAAAA");
 * if (!ready.ok) console.error(ready.message);
 * ```
 */
import type { CaptureSpool } from "@spool/core";
import { isSpoolError } from "@spool/core/runtime";
import type { CaptureSetup } from "./capture-setup.js";

/** The opened spool, or why the job's output cannot be stored (the command was not run). */
export type JobStorage =
  | { readonly ok: true; readonly spool: CaptureSpool }
  | { readonly ok: false; readonly message: string };

/** Create and spill the capture's spool before the job's command starts. */
export async function openJobStorage(setup: CaptureSetup, captureId: string): Promise<JobStorage> {
  const root = setup.options.root;
  const spool = setup.files.factory({ captureId, root, startedAt: Date.now() });
  try {
    await spool.spill();
    return { ok: true, spool };
  } catch (error) {
    await spool.close().catch(() => {});
    const failure = isSpoolError(error) ? error.storage : undefined;
    const why = failure
      ? `${failure.errno} on ${failure.operation}${failure.path === null ? "" : ` of ${failure.path}`}`
      : error instanceof Error
        ? error.message
        : String(error);
    return {
      ok: false,
      message: `cannot store the job's output in ${root} (${why}); the command was not run`,
    };
  }
}
