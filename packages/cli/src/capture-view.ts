/**
 * One consistent look at a capture directory from outside its supervisor: the final
 * receipt if published, else the live one; whether the job still runs; whether its
 * supervisor died (then the capture is reported `partial` with `crash`, SPEC §7).
 *
 * @example
 * ```ts
 * import { viewCapture } from "@spool/cli";
 * const view = viewCapture("/abs/root/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA");
 * view.running; view.receipt.streams.stdout.committed;
 * ```
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { type Receipt, SpoolError, type StreamName } from "@spool/core";
import { type JobRecord, readJobRecord, supervisorAlive } from "./job-record.js";

export interface CaptureView {
  readonly dir: string;
  /** Final (`receipt.json`) or live (`live.json`) receipt. */
  readonly receipt: Receipt;
  /** `receipt.json` is published. */
  readonly final: boolean;
  /** More bytes may still become readable. */
  readonly running: boolean;
  /** The supervisor died before publishing the final receipt. */
  readonly crashed: boolean;
  readonly job: JobRecord | null;
}

export function viewCapture(dir: string): CaptureView {
  const job = readJobRecord(dir);
  // Probe the supervisor before looking for receipt.json: a supervisor that publishes and
  // then exits between the two looks must not be mistaken for a crash.
  const alive = job ? supervisorAlive(job) : null;
  const final = readReceiptFile(dir, "receipt.json");
  if (final) return { dir, receipt: final, final: true, running: false, crashed: false, job };
  const live = readReceiptFile(dir, "live.json");
  if (!live) {
    throw new SpoolError(
      "SPOOL_E_REF_NOT_FOUND",
      "capture",
      `${path.basename(dir)} has no receipt yet`,
    );
  }
  if (alive === false) {
    const reasons = [...new Set([...live.capture.reasons, "crash" as const])].sort();
    return {
      dir,
      receipt: { ...live, capture: { state: "partial", reasons } },
      final: false,
      running: false,
      crashed: true,
      job,
    };
  }
  // Until receipt.json is published more bytes may still be committed, even after the
  // child exited (the drain window, the writer's last acknowledgements).
  return { dir, receipt: live, final: false, running: true, crashed: false, job };
}

/** The readable bound of a stream: committed bytes within what was retained. */
export function readableLength(view: CaptureView, stream: StreamName): number {
  const s = view.receipt.streams[stream];
  return s.retained ? Math.min(s.committed, s.retained.end) : 0;
}

function readReceiptFile(dir: string, name: string): Receipt | null {
  let text: string;
  try {
    const fd = fs.openSync(path.join(dir, name), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    try {
      text = fs.readFileSync(fd, "utf8");
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") {
      throw new SpoolError(
        "SPOOL_E_REF_OUTSIDE_ROOT",
        "capture",
        `${name} is a symlink; refusing it`,
      );
    }
    return null;
  }
  return JSON.parse(text) as Receipt;
}
