/**
 * Where a capture stands now, the one function behind `spool status` and the MCP
 * `status` tool: its state (final, live or crashed) with its receipt, the exit status
 * `spool run` would have had (null while its process runs), and, for a capture that
 * ended or crashed, its process group if something of it still runs (the receipt says
 * what was observed; `/proc` says what runs now).
 *
 * @example
 * ```ts
 * import { captureStatus } from "./capture-status.js";
 * declare const store: import("@spool/core").CaptureStore;
 * const { state, exitStatus } = await captureStatus(store, captureId);
 * ```
 */
import { type CaptureStore, producerOf, receiptExitStatus, type StoredCapture } from "@spool/core";
import type { ProcessGroup } from "@spool/core/process-group";
import { groupLeft } from "../job-group.js";

/** A capture's status. */
export interface CaptureStatus {
  readonly state: StoredCapture;
  /** The exit status `spool run` would have had; null while the process (or source) runs. */
  readonly exitStatus: number | null;
  /** Ended (or crashed) with its process group still running: that group; else null. */
  readonly groupRunning: ProcessGroup | null;
}

/** The current state of a capture, writing nothing. */
export async function captureStatus(
  store: CaptureStore,
  captureId: string,
): Promise<CaptureStatus> {
  const state = await store.state(captureId);
  const { receipt } = state;
  return {
    state,
    exitStatus: producerOf(receipt).running ? null : receiptExitStatus(receipt),
    groupRunning: state.condition === "live" ? null : groupLeft(receipt),
  };
}
