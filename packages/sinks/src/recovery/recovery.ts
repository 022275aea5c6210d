/**
 * Recovery of captures whose supervisor died (SPEC §7): {@link readCaptureState} says
 * which are crashed; {@link reconcileCapture} publishes a crashed capture's receipt
 * (`partial`, `crash`) as `receipt.json`, exclusively, so concurrent recoveries agree and
 * a second run changes nothing. Live and final captures are never touched.
 *
 * @example
 * ```ts
 * import { listCaptureStatuses, recoverRoot } from "@spool/sinks";
 * declare const root: string;
 * const report = recoverRoot(root); // what `spool recover` does
 * listCaptureStatuses(root);               // what `spool ls` lists
 * ```
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  CAPTURE_ID_PATTERN,
  producerOf,
  type Receipt,
  type RecoveryReport,
  SpoolError,
  STREAM_NAMES,
} from "@spool/core";
import { removeStaleStaging } from "../bundle/import-staging.js";
import { lstatIfAny, publishAtomic, TOOL_OUTPUTS, tryUnlink } from "../file/storage.js";
import { reconcileRootQuota } from "../quota/root-quota.js";
import {
  type CaptureStateOptions,
  type CaptureStatus,
  readCaptureState,
} from "../store/capture-dir-state.js";
import { RECEIPT_RESERVE } from "../writer/final-records.js";

const COMPONENT = "recovery";
const TEMP = /^\.[A-Za-z0-9._-]+\.tmp$/;

/**
 * Reconcile one capture: a crashed one gets its crash receipt published as
 * `receipt.json` and its leftover temp files removed; live and final ones are left
 * alone. Idempotent. Returns the state after reconciling.
 *
 * @category storage
 * @example
 * ```ts
 * import { reconcileCapture } from "@spool/sinks";
 * const after = reconcileCapture("/home/me/.spool/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA");
 * if (after.recovered) console.log("crash receipt published");
 * ```
 */
export function reconcileCapture(
  dir: string,
  options: CaptureStateOptions = {},
): CaptureStatus & { readonly recovered: boolean } {
  const status = readCaptureState(dir, options);
  if (status.condition !== "crashed") return { ...status, recovered: false };
  for (const name of fs.readdirSync(dir)) {
    if (!TEMP.test(name)) continue;
    const st = lstatIfAny(path.join(dir, name));
    if (st?.isFile()) fs.rmSync(path.join(dir, name), { force: true });
  }
  // What the crash receipt claims is made durable before it is claimed.
  syncStreamFiles(status.receipt);
  try {
    publishAtomic(dir, "receipt.json", Buffer.from(`${JSON.stringify(status.receipt, null, 2)}\n`));
  } catch (error) {
    // Another recovery won the race: what it published is the answer.
    if (error instanceof SpoolError && error.code === "SPOOL_E_EXISTS") {
      return { ...readCaptureState(dir, options), recovered: false };
    }
    throw error;
  }
  // The space held for the owner's receipt is no longer needed.
  tryUnlink(path.join(dir, RECEIPT_RESERVE));
  return { ...status, condition: "final", recovered: true };
}

/** fsync the stream files a crash receipt claims; throws (nothing is published) if one fails. */
function syncStreamFiles(receipt: Receipt): void {
  for (const name of STREAM_NAMES) {
    const file = receipt.streams[name].path;
    if (file === null || receipt.streams[name].committed === 0) continue;
    const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  }
}

/**
 * Reconcile every capture of the root, the root's quota books and stale import staging
 * (`spool recover`). A capture that cannot be looked at is reported, not thrown.
 *
 * @category storage
 * @example
 * ```ts
 * import { recoverRoot } from "@spool/sinks";
 * const { recovered } = recoverRoot("/home/me/.spool");
 * console.log(`${recovered.length} crashed captures settled`);
 * ```
 */
export function recoverRoot(root: string, options: CaptureStateOptions = {}): RecoveryReport {
  const report: RecoveryReport = { recovered: [], live: [], final: [], errors: [] };
  for (const dir of captureDirs(root)) {
    const captureId = path.basename(dir);
    try {
      const status = reconcileCapture(dir, options);
      if (status.recovered) report.recovered.push(captureId);
      else if (status.condition === "live") report.live.push(captureId);
      else report.final.push(captureId);
    } catch (error) {
      report.errors.push({ captureId, message: (error as Error).message });
    }
  }
  // The books and the staging leftovers are tidied when the root allows it; on a full or
  // read-only root that fails (a clear error naming the root), and the captures above
  // are still reported.
  const tidy = (what: string, fn: () => void) => {
    try {
      fn();
    } catch (error) {
      report.errors.push({ captureId: what, message: `${root}: ${(error as Error).message}` });
    }
  };
  if (lstatIfAny(path.join(root, TOOL_OUTPUTS)) !== null) {
    tidy("(root quota)", () => reconcileRootQuota(root));
  }
  // An import that died mid-way leaves its staging directory; its name says whose it was.
  tidy("(import staging)", () => removeStaleStaging(root));
  return report;
}

/**
 * Every capture of the root and where it stands, oldest first, writing nothing.
 *
 * @category storage
 * @example
 * ```ts
 * import { listCaptureStatuses } from "@spool/sinks";
 * for (const capture of listCaptureStatuses("/home/me/.spool")) console.log(capture.captureId, capture.condition);
 * ```
 */
export function listCaptureStatuses(
  root: string,
  options: CaptureStateOptions = {},
): CaptureStatus[] {
  const out: CaptureStatus[] = [];
  for (const dir of captureDirs(root)) {
    try {
      out.push(readCaptureState(dir, options));
    } catch {
      // removed meanwhile, or not a real directory: not a capture to list
    }
  }
  return out.sort((a, b) =>
    producerOf(a.receipt).startedAt < producerOf(b.receipt).startedAt
      ? -1
      : producerOf(a.receipt).startedAt > producerOf(b.receipt).startedAt
        ? 1
        : 0,
  );
}

function captureDirs(root: string): string[] {
  const outputs = path.join(root, TOOL_OUTPUTS);
  const st = lstatIfAny(outputs);
  if (st === null) return [];
  if (st.isSymbolicLink() || !st.isDirectory()) {
    throw new SpoolError("SPOOL_E_UNSAFE_PATH", COMPONENT, `${outputs} is not a real directory`);
  }
  return fs
    .readdirSync(outputs)
    .filter((name) => CAPTURE_ID_PATTERN.test(name))
    .map((name) => path.join(outputs, name))
    .filter((dir) => lstatIfAny(dir)?.isDirectory() === true);
}
