/**
 * `spool rm REF… | --older-than D | --all [--kill] [--root DIR] [--json]`: delete
 * captures under an explicit policy, and print a receipt of what was removed.
 *
 * - The policy is the caller's: the REFs named, every capture that ended (or, if still
 *   running, started) more than D ago, or all of them. Nothing is removed implicitly.
 * - A running job is refused (listed under `refused`, exit 75) unless `--kill`: then it
 *   is cancelled like `spool kill` and removed once it has ended. The store removes only
 *   captures that are not live, so a job racing `rm` keeps its live files.
 * - Removal never goes through a link (`CaptureStore.remove`), and it settles the root's
 *   allowance, so the bytes are free for new captures at once.
 */
import type { CaptureStore, StoredCapture } from "@spool/core";
import { isSpoolError, producerOf } from "@spool/core";
import { parseDuration } from "./age.js";
import { type CommandInput, usageError } from "./args.js";
import type { RM } from "./commands.js";
import type { Io } from "./io.js";
import { jsonText } from "./json-text.js";
import { locateStore } from "./locate-capture.js";
import { KILL_WAIT_MS, signalJob } from "./ops/kill-capture.js";
import { WAIT_TIMED_OUT, waitForEnd } from "./ops/wait-capture.js";

/** What `rm` did. */
export interface RemovalReceipt {
  readonly removed: Array<{
    captureId: string;
    bytes: number;
    condition: StoredCapture["condition"];
    label: string | null;
  }>;
  readonly refused: Array<{ captureId: string; reason: "running" | "error"; message: string }>;
  readonly freedBytes: number;
}

export async function rmCommand(parsed: CommandInput<typeof RM>, io: Io): Promise<number> {
  const o = parsed.options;
  if (parsed.rest !== null) throw usageError(`unexpected argument "--"`);
  const refs = parsed.positionals;
  const olderThan =
    o["older-than"] === undefined ? null : parseDuration(o["older-than"], "--older-than");
  const policies = [refs.length > 0, o.all, olderThan !== null].filter(Boolean).length;
  if (policies !== 1) throw usageError("give REF…, --older-than D or --all (exactly one)");
  const store = locateStore({ ...parsed, positionals: [] }, io);
  const chosen =
    refs.length > 0
      ? await Promise.all(refs.map(async (ref) => (await store.resolve(ref)).captureId))
      : selectByAge(await store.list(), olderThan, Date.now());
  const receipt = await removeAll(store, [...new Set(chosen)], o.kill);
  if (o.json) io.stdout(`${jsonText(receipt, 2)}\n`);
  else {
    for (const r of receipt.removed)
      io.stdout(`removed ${r.captureId} (${r.bytes} B, ${r.condition})\n`);
    for (const r of receipt.refused) io.stderr(`spool rm: ${r.captureId}: ${r.message}\n`);
    io.stdout(`freed ${receipt.freedBytes} B in ${receipt.removed.length} capture(s)\n`);
  }
  return receipt.refused.length > 0 ? WAIT_TIMED_OUT : 0;
}

/**
 * The captures a policy picks: all of them (`olderThan` null), or those whose end (their
 * start, while running) is more than `olderThan` ms before `now`.
 */
export function selectByAge(
  captures: readonly StoredCapture[],
  olderThan: number | null,
  now: number,
): string[] {
  return captures
    .filter((c) => {
      if (olderThan === null) return true;
      const p = producerOf(c.receipt);
      return Date.parse(p.endedAt ?? p.startedAt) < now - olderThan;
    })
    .map((c) => c.captureId);
}

async function removeAll(
  store: CaptureStore,
  ids: readonly string[],
  kill: boolean,
): Promise<RemovalReceipt> {
  const removed: RemovalReceipt["removed"] = [];
  const refused: RemovalReceipt["refused"] = [];
  for (const captureId of ids) {
    try {
      let state = await store.state(captureId);
      if (state.condition === "live") {
        if (!kill) {
          refused.push({
            captureId,
            reason: "running",
            message: "still running; not removed (use --kill)",
          });
          continue;
        }
        if (producerOf(state.receipt).running) signalJob(state, "SIGTERM");
        state = await waitForEnd(store, captureId, KILL_WAIT_MS);
        if (state.condition === "live") {
          refused.push({
            captureId,
            reason: "running",
            message: `did not end within ${KILL_WAIT_MS / 1000} s`,
          });
          continue;
        }
      }
      const { bytes } = await store.usage(captureId);
      await store.remove(captureId);
      removed.push({ captureId, bytes, condition: state.condition, label: state.receipt.label });
    } catch (error) {
      if (isSpoolError(error, "SPOOL_E_REF_NOT_FOUND")) continue; // removed meanwhile
      if (isSpoolError(error, "SPOOL_E_STATE")) {
        refused.push({
          captureId,
          reason: "running",
          message: "started running again; not removed",
        });
        continue;
      }
      if (!isSpoolError(error)) throw error;
      refused.push({ captureId, reason: "error", message: error.message });
    }
  }
  return { removed, refused, freedBytes: removed.reduce((sum, r) => sum + r.bytes, 0) };
}
