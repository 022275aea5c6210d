/**
 * Opening a capture's storage, once: `CaptureSpool.spill()` either opens it (the writer
 * queues' held bytes flow first) or fails, and the capture goes on without it. The spill
 * policy decides when; this module only does it and remembers how it went.
 *
 * @example
 * ```ts
 * import { createStorageOpener } from "./storage-opener.js"; // internal to @spool/core
 * declare const spool: import("@spool/core").CaptureSpool;
 * const storage = createStorageOpener(spool, { opened: () => {}, failed: () => {} });
 * await storage.open();
 * storage.status; // "open" or "unavailable"
 * ```
 */
import type { CaptureSpool, SpillInfo } from "./spool.js";

/** "none": the small-result path so far; "opening": `spill()` is under way. */
export type StorageStatus = "none" | "opening" | "open" | "unavailable";

export interface StorageHooks {
  opened(info: SpillInfo): void;
  failed(error: unknown): void;
}

export interface StorageOpener {
  readonly status: StorageStatus;
  /** Live refs and paths, once open. */
  readonly info: SpillInfo | null;
  /** Open storage if not yet asked; resolves once it is open or has failed. */
  open(): Promise<void>;
  /** Resolves once a requested opening has settled (at once if none was requested). */
  settled(): Promise<void>;
}

export function createStorageOpener(spool: CaptureSpool, hooks: StorageHooks): StorageOpener {
  let status: StorageStatus = "none";
  let info: SpillInfo | null = null;
  let opening: Promise<void> | null = null;
  const open = (): Promise<void> => {
    if (opening) return opening;
    status = "opening";
    opening = spool.spill().then(
      (spilled) => {
        status = "open";
        info = spilled;
        hooks.opened(spilled);
      },
      (error: unknown) => {
        status = "unavailable";
        hooks.failed(error);
      },
    );
    return opening;
  };
  return {
    get status() {
      return status;
    },
    get info() {
      return info;
    },
    open,
    settled: () => opening ?? Promise.resolve(),
  };
}
