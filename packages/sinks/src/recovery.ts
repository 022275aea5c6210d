/**
 * Recovery of captures whose supervisor died (SPEC §7): state comes from the files
 * alone. A capture directory is
 *
 * - **final** when it holds a valid `receipt.json` (published last, atomically);
 * - **live** when its `owner.json` names a supervisor that is still running (pid and
 *   start time), or it is younger than the init grace and has no owner yet: it is
 *   reported from `live.json` and never touched;
 * - **crashed** otherwise: it is reported `partial` with reason `crash` (never
 *   `complete`, even if its streams were already renamed), its committed bytes are the
 *   bytes in its stream files, readable where they lie. {@link reconcileCapture}
 *   publishes that receipt as `receipt.json` (exclusively, so concurrent recoveries
 *   agree and a second run changes nothing).
 *
 * @example
 * ```ts
 * import { readCaptureState, recoverRoot } from "@spool/sinks";
 * declare const root: string;
 * const report = recoverRoot(root);            // what `spool recover` does
 * // readCaptureState(dir).receipt is what `spool status` prints
 * ```
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  DEFAULT_PREVIEW_BUDGET,
  type Receipt,
  ReceiptSchema,
  SpoolError,
  STREAM_NAMES,
  type StreamName,
  type StreamReceipt,
} from "@spool/core";
import { z } from "zod";
import { isOwnerAlive, OWNER_FILE, OwnerSchema } from "./owner.js";
import { reconcileRootQuota } from "./root-quota.js";
import { errnoOf, publishAtomic, TOOL_OUTPUTS } from "./storage.js";

const COMPONENT = "recovery";
const CAPTURE_ID = /^[A-Za-z0-9_-]{16,64}$/;
const TEMP = /^\.[A-Za-z0-9._-]+\.tmp$/;

/** How a capture directory stands. */
export type CaptureCondition = "final" | "live" | "crashed";

export interface CaptureStatus {
  readonly captureId: string;
  readonly dir: string;
  readonly condition: CaptureCondition;
  /** The final receipt, the latest live one, or the crash receipt recovery would publish. */
  readonly receipt: Receipt;
}

export interface RecoveryOptions {
  /** A directory without `owner.json` younger than this may still be being set up. @default 60000 */
  readonly initGraceMs?: number;
  /** Milliseconds since the epoch. @default Date.now */
  readonly now?: () => number;
}

const OwnerFileSchema = OwnerSchema.extend({ startedAt: z.string().optional() });

/** Read where the capture in `dir` stands, writing nothing. */
export function readCaptureState(dir: string, options: RecoveryOptions = {}): CaptureStatus {
  const captureId = path.basename(dir);
  const st = lstatIfAny(dir);
  if (st === null) throw new SpoolError("SPOOL_E_REF_NOT_FOUND", COMPONENT, `no capture at ${dir}`);
  if (st.isSymbolicLink() || !st.isDirectory()) {
    throw new SpoolError("SPOOL_E_UNSAFE_PATH", COMPONENT, `${dir} is not a real directory`);
  }
  const final = readReceipt(path.join(dir, "receipt.json"));
  if (final) return { captureId, dir, condition: "final", receipt: final };
  const live = readReceipt(path.join(dir, "live.json"));
  const owner = readOwner(dir);
  const now = options.now ?? Date.now;
  const alive = owner ? isOwnerAlive(owner) : now() - st.mtimeMs < (options.initGraceMs ?? 60_000);
  if (alive) {
    return { captureId, dir, condition: "live", receipt: live ?? skeleton(dir, owner?.startedAt) };
  }
  return {
    captureId,
    dir,
    condition: "crashed",
    receipt: crashReceipt(dir, live, owner?.startedAt),
  };
}

/**
 * Reconcile one capture: a crashed one gets its crash receipt published as
 * `receipt.json` and its leftover temp files removed; live and final ones are left
 * alone. Idempotent. Returns the state after reconciling.
 */
export function reconcileCapture(
  dir: string,
  options: RecoveryOptions = {},
): CaptureStatus & { readonly recovered: boolean } {
  const status = readCaptureState(dir, options);
  if (status.condition !== "crashed") return { ...status, recovered: false };
  for (const name of fs.readdirSync(dir)) {
    if (!TEMP.test(name)) continue;
    const st = lstatIfAny(path.join(dir, name));
    if (st?.isFile()) fs.rmSync(path.join(dir, name), { force: true });
  }
  try {
    publishAtomic(dir, "receipt.json", Buffer.from(`${JSON.stringify(status.receipt, null, 2)}\n`));
  } catch (error) {
    // Another recovery won the race: what it published is the answer.
    if (error instanceof SpoolError && error.code === "SPOOL_E_EXISTS") {
      return { ...readCaptureState(dir, options), recovered: false };
    }
    throw error;
  }
  return { ...status, condition: "final", recovered: true };
}

export interface RecoveryReport {
  readonly recovered: string[];
  readonly live: string[];
  readonly final: string[];
  readonly errors: Array<{ captureId: string; message: string }>;
}

/** Reconcile every capture of the root and the root's quota books (`spool recover`). */
export function recoverRoot(root: string, options: RecoveryOptions = {}): RecoveryReport {
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
  if (lstatIfAny(path.join(root, TOOL_OUTPUTS)) !== null) reconcileRootQuota(root);
  return report;
}

/** Every capture of the root and where it stands, oldest first, writing nothing. */
export function listCaptures(root: string, options: RecoveryOptions = {}): CaptureStatus[] {
  const out: CaptureStatus[] = [];
  for (const dir of captureDirs(root)) {
    try {
      out.push(readCaptureState(dir, options));
    } catch {
      // removed meanwhile, or not a real directory: not a capture to list
    }
  }
  return out.sort((a, b) =>
    a.receipt.process.startedAt < b.receipt.process.startedAt
      ? -1
      : a.receipt.process.startedAt > b.receipt.process.startedAt
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
    .filter((name) => CAPTURE_ID.test(name))
    .map((name) => path.join(outputs, name))
    .filter((dir) => lstatIfAny(dir)?.isDirectory() === true);
}

/** What a crashed capture's receipt says: partial, `crash`, committed = bytes on disk. */
function crashReceipt(dir: string, live: Receipt | null, startedAt: string | undefined): Receipt {
  const base = live ?? skeleton(dir, startedAt);
  const streams = {} as Record<StreamName, StreamReceipt>;
  for (const name of STREAM_NAMES) streams[name] = recoveredStream(dir, name, base.streams[name]);
  const process =
    base.process.state === "running"
      ? {
          ...base.process,
          state: "exited" as const,
          exitCode: null,
          signal: null,
          reason: "unknown: the supervisor died before the process ended (crash)",
        }
      : base.process;
  const receipt: Receipt = {
    ...base,
    process,
    capture: {
      state: "partial",
      reasons: [...new Set([...base.capture.reasons, "crash" as const])].sort(),
    },
    streams,
  };
  return ReceiptSchema.parse(receipt);
}

function recoveredStream(dir: string, name: StreamName, base: StreamReceipt): StreamReceipt {
  const found = ["live", "txt", "bin"]
    .map((ext) => `${name}.${ext}`)
    .find((file) => lstatIfAny(path.join(dir, file))?.isFile() === true);
  const raw = {
    observed: base.raw.observed,
    accepted: base.raw.accepted,
    pending: 0,
    // Read by the dead supervisor but never handed on: dropped.
    discarded: base.raw.discarded + base.raw.pending,
  };
  if (found === undefined) {
    return { ...base, raw, committed: 0, retained: null, ref: null, path: null, sha256: null };
  }
  const file = path.join(dir, found);
  const scan = scanFile(file);
  const produced = Math.max(base.produced, scan.bytes);
  const whole = produced === scan.bytes;
  return {
    ...base,
    representation: found.endsWith(".bin") ? "binary" : base.representation,
    raw,
    produced,
    committed: scan.bytes,
    retained: { start: 0, end: scan.bytes },
    // What the file holds is known; beyond it (produced but lost) it is not.
    lines: whole ? scan.lines : null,
    endsWithNewline: whole ? scan.endsWithNewline : null,
    ref: `${TOOL_OUTPUTS}/${path.basename(dir)}/${found}`,
    path: file,
    sha256: scan.sha256,
  };
}

function scanFile(file: string) {
  const hash = createHash("sha256");
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  let bytes = 0;
  let newlines = 0;
  let last = -1;
  try {
    for (;;) {
      const n = fs.readSync(fd, buffer, 0, buffer.byteLength, null);
      if (n === 0) break;
      const chunk = buffer.subarray(0, n);
      hash.update(chunk);
      bytes += n;
      for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) newlines++;
      last = chunk[n - 1]!;
    }
  } finally {
    fs.closeSync(fd);
  }
  return {
    bytes,
    sha256: hash.digest("hex"),
    lines: bytes === 0 ? 0 : newlines + (last === 0x0a ? 0 : 1),
    endsWithNewline: bytes === 0 ? null : last === 0x0a,
  };
}

/** A receipt for a capture with no `live.json` yet: everything unknown is empty or null. */
function skeleton(dir: string, startedAt: string | undefined): Receipt {
  const emptyStream: StreamReceipt = {
    representation: "utf8",
    transforms: [],
    raw: { observed: 0, accepted: 0, pending: 0, discarded: 0 },
    produced: 0,
    committed: 0,
    retained: null,
    replacements: 0,
    redactions: 0,
    omissions: 0,
    lines: null,
    endsWithNewline: null,
    ref: null,
    path: null,
    sha256: null,
  };
  const at = startedAt ?? new Date(lstatIfAny(dir)?.mtimeMs ?? 0).toISOString();
  return {
    version: 1,
    captureId: path.basename(dir),
    callId: null,
    label: null,
    root: path.dirname(path.dirname(dir)),
    process: {
      state: "running",
      exitCode: null,
      signal: null,
      reason: null,
      pid: null,
      startedAt: at,
      endedAt: null,
    },
    capture: { state: "pending", reasons: [] },
    streams: { stdout: emptyStream, stderr: { ...emptyStream } },
    preview: { state: "omitted", text: "", bytes: 0, budget: { ...DEFAULT_PREVIEW_BUDGET } },
  };
}

function readReceipt(file: string): Receipt | null {
  const st = lstatIfAny(file);
  if (!st?.isFile()) return null;
  try {
    const parsed = ReceiptSchema.safeParse(JSON.parse(fs.readFileSync(file, "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function readOwner(dir: string) {
  const file = path.join(dir, OWNER_FILE);
  if (!lstatIfAny(file)?.isFile()) return null;
  try {
    const parsed = OwnerFileSchema.safeParse(JSON.parse(fs.readFileSync(file, "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function lstatIfAny(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch (error) {
    if (errnoOf(error) === "ENOENT") return null;
    throw error;
  }
}
