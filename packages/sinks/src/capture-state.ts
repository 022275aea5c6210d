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
import { readJsonNoFollow } from "./json-file.js";
import { isOwnerAlive, type OwnerFile, readOwnerFile } from "./owner.js";
import { lstatIfAny, TOOL_OUTPUTS } from "./storage.js";

const COMPONENT = "capture-state";

/** How a capture directory stands. */
export type CaptureCondition = "final" | "live" | "crashed";

export interface CaptureStatus {
  readonly captureId: string;
  readonly dir: string;
  readonly condition: CaptureCondition;
  /** The final receipt, the latest live one, or the crash receipt recovery would publish. */
  readonly receipt: Receipt;
  /** Who owns (or owned) the capture, from `owner.json`; null when there is none. */
  readonly owner: OwnerFile | null;
}

export interface CaptureStateOptions {
  /** A directory without `owner.json` younger than this may still be being set up. @default 60000 */
  readonly initGraceMs?: number;
  /** Milliseconds since the epoch. @default Date.now */
  readonly now?: () => number;
}

/** Read where the capture in `dir` stands, writing nothing. */
export function readCaptureState(dir: string, options: CaptureStateOptions = {}): CaptureStatus {
  const captureId = path.basename(dir);
  const st = lstatIfAny(dir);
  if (st === null) throw new SpoolError("SPOOL_E_REF_NOT_FOUND", COMPONENT, `no capture at ${dir}`);
  if (st.isSymbolicLink() || !st.isDirectory()) {
    throw new SpoolError("SPOOL_E_UNSAFE_PATH", COMPONENT, `${dir} is not a real directory`);
  }
  // Liveness first, then receipt.json (see above).
  const owner = readOwnerFile(dir);
  const now = options.now ?? Date.now;
  const alive = owner ? isOwnerAlive(owner) : now() - st.mtimeMs < (options.initGraceMs ?? 60_000);
  const final = readReceipt(path.join(dir, "receipt.json"));
  if (final) return { captureId, dir, condition: "final", receipt: final, owner };
  const live = readReceipt(path.join(dir, "live.json"));
  if (alive) {
    return {
      captureId,
      dir,
      condition: "live",
      receipt: live ?? skeleton(dir, owner?.startedAt),
      owner,
    };
  }
  return {
    captureId,
    dir,
    condition: "crashed",
    receipt: crashReceipt(dir, live, owner?.startedAt),
    owner,
  };
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
  const parsed = ReceiptSchema.safeParse(readJsonNoFollow(file));
  return parsed.success ? parsed.data : null;
}
