/**
 * Where a capture stands, decided from its directory alone and the same way for every
 * reader (`ls`, `status`, `wait`, `read`, `tail --follow`, `kill`, `recover`). There is
 * one owner per capture: the process whose writer created the directory and published
 * `owner.json` first in it (the supervisor of a job, or the foreground `spool run`).
 * A capture directory is
 *
 * - **final** when it holds a valid `receipt.json` (published last, atomically);
 * - **live** when its owner is still running (pid and start time, {@link isOwnerAlive}),
 *   or it has no `owner.json` yet and is younger than the init grace: it is reported
 *   from `live.json`;
 * - **crashed** otherwise: reported `partial` with reason `crash` (never `complete`,
 *   even if its streams were already renamed), its committed bytes being the bytes in
 *   its stream files, readable where they lie. This is the receipt recovery publishes.
 *
 * The owner is probed **before** `receipt.json` is looked for: an owner that publishes
 * and exits between the two looks is then seen as live (it was), never as crashed.
 * Nothing here writes.
 *
 * @example
 * ```ts
 * import { readCaptureState } from "@spool/sinks";
 * const state = readCaptureState("/abs/root/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA");
 * if (state.condition === "crashed") console.log(state.receipt.capture.reasons); // ["crash"]
 * ```
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  assembleReceipt,
  type CaptureCondition,
  type Receipt,
  ReceiptSchema,
  receiptParts,
  SpoolError,
  STREAM_NAMES,
  type StreamName,
} from "@spool/core";
import { readJsonNoFollow } from "../file/json-file.js";
import { openPrivateFile } from "../file/private-file.js";
import { lstatIfAny, TOOL_OUTPUTS } from "../file/storage.js";
import { isOwnerAlive, type OwnerFile, readOwnerFile } from "../lock/owner.js";
import {
  crashedFrom,
  createDataScan,
  type StoredData,
  skeletonReceipt,
} from "../recovery/crash-receipt.js";
import { type ExitRecord, readExitRecord } from "./exit-record.js";

const COMPONENT = "capture-state";
const INIT_GRACE_MS = 5000;

/**
 * Where a capture directory stands ({@link readCaptureState}): its condition, the receipt
 * to report and its owner.
 *
 * @category storage
 * @example
 * ```ts
 * import { readCaptureState } from "@spool/sinks";
 * const status = readCaptureState("/home/me/.spool/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA");
 * console.log(status.condition, status.receipt.capture.state, status.owner?.pid);
 * ```
 */
export interface CaptureStatus {
  readonly captureId: string;
  readonly dir: string;
  readonly condition: CaptureCondition;
  /** The final receipt, the latest live one, or the crash receipt recovery would publish. */
  readonly receipt: Receipt;
  /** Who owns (or owned) the capture, from `owner.json`; null when there is none. */
  readonly owner: OwnerFile | null;
}

/**
 * Options of {@link readCaptureState}.
 *
 * @category storage
 * @example
 * ```ts
 * import { readCaptureState, type CaptureStateOptions } from "@spool/sinks";
 * const options: CaptureStateOptions = { initGraceMs: 0 }; // a directory without owner.json is crashed at once
 * readCaptureState("/home/me/.spool/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA", options);
 * ```
 */
export interface CaptureStateOptions {
  /**
   * A directory without a readable `owner.json` younger than this may still be being set
   * up (the writer publishes it right after creating the directory, and removes the
   * directory if it cannot). @default 5000
   */
  readonly initGraceMs?: number;
  /** Milliseconds since the epoch. @default Date.now */
  readonly now?: () => number;
}

/**
 * Read where the capture in `dir` stands, writing nothing: final (its receipt is
 * published), live (its owner runs) or crashed (its owner is gone; the receipt is the
 * crash receipt recovery would publish). Throws `SPOOL_E_REF_NOT_FOUND` for no capture,
 * `SPOOL_E_UNSAFE_PATH` for a link or non-directory.
 *
 * @category storage
 * @example
 * ```ts
 * import { readCaptureState } from "@spool/sinks";
 * const { condition, receipt } = readCaptureState("/home/me/.spool/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA");
 * ```
 */
export function readCaptureState(dir: string, options: CaptureStateOptions = {}): CaptureStatus {
  const captureId = path.basename(dir);
  const st = lstatIfAny(dir);
  if (st === null) throw new SpoolError("SPOOL_E_REF_NOT_FOUND", COMPONENT, `no capture at ${dir}`);
  if (st.isSymbolicLink() || !st.isDirectory()) {
    throw new SpoolError("SPOOL_E_UNSAFE_PATH", COMPONENT, `${dir} is not a real directory`);
  }
  const root = path.dirname(path.dirname(dir));
  // Liveness first, then receipt.json (see above).
  const owner = readOwnerFile(dir);
  const now = options.now ?? Date.now;
  const alive = owner
    ? isOwnerAlive(owner)
    : now() - st.mtimeMs < (options.initGraceMs ?? INIT_GRACE_MS);
  const final = readReceipt(path.join(dir, "receipt.json"));
  if (final) return { captureId, dir, condition: "final", receipt: final, owner };
  const live = readReceipt(path.join(dir, "live.json"));
  if (alive) {
    return {
      captureId,
      dir,
      condition: "live",
      receipt:
        live ??
        skeletonReceipt(
          captureId,
          path.dirname(path.dirname(dir)),
          owner?.startedAt ?? mtimeIso(dir),
        ),
      owner,
    };
  }
  return {
    captureId,
    dir,
    condition: "crashed",
    receipt: withExitRecord(crashReceipt(dir, live, owner?.startedAt), readExitRecord(root, dir)),
    owner,
  };
}

/** What a crashed capture's receipt says: partial, `crash`, committed = bytes on disk. */
function crashReceipt(dir: string, live: Receipt | null, startedAt: string | undefined): Receipt {
  const base =
    live ??
    skeletonReceipt(
      path.basename(dir),
      path.dirname(path.dirname(dir)),
      startedAt ?? mtimeIso(dir),
    );
  const stored = {} as Record<StreamName, StoredData | null>;
  for (const name of STREAM_NAMES) stored[name] = storedStream(dir, name);
  return ReceiptSchema.parse(crashedFrom(base, stored));
}

/**
 * A capture without `receipt.json` whose owner observed the child's fate (its exit
 * record): that fate, not an unknown one. If the owner finished but could not publish,
 * the owner did not crash: the reasons are its final ones plus `storage-unavailable`,
 * as its own report (`run`'s output) said.
 */
function withExitRecord(receipt: Receipt, record: ExitRecord | null): Receipt {
  if (record === null || receipt.process === undefined) return receipt;
  const published = record.receiptError === null || record.reasons === null;
  return ReceiptSchema.parse(
    assembleReceipt({
      ...receiptParts(receipt),
      producer: { process: record.process },
      state: "partial",
      reasons: published
        ? receipt.capture.reasons
        : [...record.reasons!, "storage-unavailable" as const],
    }),
  );
}

/** The stream file a crashed capture left, scanned, or null. */
function storedStream(dir: string, name: StreamName): StoredData | null {
  const found = ["live", "txt", "bin"]
    .map((ext) => `${name}.${ext}`)
    .find((file) => lstatIfAny(path.join(dir, file))?.isFile() === true);
  if (found === undefined) return null;
  const file = path.join(dir, found);
  return {
    ...scanFile(file),
    binary: found.endsWith(".bin"),
    ref: `${TOOL_OUTPUTS}/${path.basename(dir)}/${found}`,
    path: file,
  };
}

function scanFile(file: string) {
  const fd = openPrivateFile(file);
  if (fd === null) throw new SpoolError("SPOOL_E_STORAGE", COMPONENT, `${file} went away`);
  const scan = createDataScan();
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  try {
    for (;;) {
      const n = fs.readSync(fd, buffer, 0, buffer.byteLength, null);
      if (n === 0) break;
      scan.update(buffer.subarray(0, n));
    }
  } finally {
    fs.closeSync(fd);
  }
  return scan.result();
}

function mtimeIso(dir: string): string {
  return new Date(lstatIfAny(dir)?.mtimeMs ?? 0).toISOString();
}

function readReceipt(file: string): Receipt | null {
  const parsed = ReceiptSchema.safeParse(readJsonNoFollow(file));
  return parsed.success ? parsed.data : null;
}
