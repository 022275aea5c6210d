/**
 * Space for a capture's last words, taken when the capture is opened, so that they can be
 * written when the disk is full:
 *
 * - `.receipt.reserve`: {@link RECEIPT_RESERVE_BYTES} bytes allocated at open. The final
 *   receipt is written into it in place (no new block is needed), the file is cut to the
 *   receipt's length, fsynced, and linked as `receipt.json` (exclusive, as any publish).
 * - `exit.json`: {@link EXIT_RECORD_BYTES} bytes of spaces allocated at open. Once the
 *   child's fate is observed it is overwritten in place with the process block of the
 *   receipt (padded with spaces, so still valid JSON), and fsynced. `wait` and the crash
 *   receipt read it when `receipt.json` could not be published or the owner died before
 *   publishing. Where even that cannot be written (the root turned read-only), the same
 *   record goes to a private directory outside the root ({@link exitFallbackPath}).
 *
 * Runs in the writer worker: node built-ins and storage only (no zod).
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type FsLayer, nodeFs } from "../file/fs-layer.js";
import { createExclusive, ensurePrivateDir, publishAtomic, syncDir } from "../file/storage.js";

/** Bytes reserved for `receipt.json` (a receipt holds at most a 16 KiB preview: ≤ ~100 KiB). */
export const RECEIPT_RESERVE_BYTES = 128 * 1024;
export const RECEIPT_RESERVE = ".receipt.reserve";
/** The exit record, and its preallocated size. */
export const EXIT_FILE = "exit.json";
export const EXIT_RECORD_BYTES = 4096;

/** The reserves of one open capture. */
export interface FinalRecords {
  /** `exit.json`, open for overwriting in place; null once it cannot be. */
  exitFd: number | null;
  /** `.receipt.reserve` exists (its space is held). */
  receiptReserved: boolean;
}

/** Allocate both reserves in `dir`; a failure here is a failure to open the capture. */
export function reserveFinalRecords(dir: string, fsl: FsLayer = nodeFs): FinalRecords {
  const receipt = createExclusive(path.join(dir, RECEIPT_RESERVE), fsl);
  try {
    fillWith(receipt, RECEIPT_RESERVE_BYTES, fsl);
  } finally {
    fsl.closeSync(receipt);
  }
  const exitFd = createExclusive(path.join(dir, EXIT_FILE), fsl);
  try {
    fillWith(exitFd, EXIT_RECORD_BYTES, fsl);
  } catch (error) {
    fsl.closeSync(exitFd);
    throw error;
  }
  return { exitFd, receiptReserved: true };
}

/**
 * Record the child's fate (the receipt's process block, as JSON) in `exit.json`, in place;
 * if that fails, in the fallback outside the root. Returns where it went, or null.
 */
export function recordExit(
  records: FinalRecords,
  where: { root: string; captureId: string },
  json: string,
  fsl: FsLayer = nodeFs,
): "capture" | "fallback" | null {
  const data = padded(json);
  if (data === null) return null;
  if (records.exitFd !== null) {
    try {
      writeAt(records.exitFd, data);
      fsl.fsyncSync(records.exitFd);
      return "capture";
    } catch {
      // read-only or failing: try outside the root
    }
  }
  try {
    const file = exitFallbackPath(where.root, where.captureId);
    ensurePrivateDir(path.dirname(path.dirname(file)));
    ensurePrivateDir(path.dirname(file));
    publishAtomic(path.dirname(file), path.basename(file), data, { replace: true });
    return "fallback";
  } catch {
    return null;
  }
}

/**
 * Publish `receipt.json` through the reserve: written in place, cut to length, fsynced,
 * then linked exclusively. Without a reserve, or for a receipt larger than it, an
 * ordinary atomic publish.
 */
export function publishReserved(
  dir: string,
  records: FinalRecords,
  data: Uint8Array,
  fsl: FsLayer = nodeFs,
): void {
  if (!records.receiptReserved || data.byteLength > RECEIPT_RESERVE_BYTES) {
    publishAtomic(dir, "receipt.json", data, { fs: fsl });
    dropReserve(dir, records, fsl);
    return;
  }
  const reserve = path.join(dir, RECEIPT_RESERVE);
  const fd = fsl.openSync(
    reserve,
    fs.constants.O_WRONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK,
  );
  try {
    const st = fsl.fstatSync(fd);
    if (!st.isFile() || st.nlink !== 1) throw new Error(`${RECEIPT_RESERVE} is not our file`);
    writeAt(fd, data);
    fsl.ftruncateSync(fd, data.byteLength);
    fsl.fsyncSync(fd);
  } finally {
    fsl.closeSync(fd);
  }
  fsl.linkSync(reserve, path.join(dir, "receipt.json")); // EEXIST rather than replace
  records.receiptReserved = false;
  fsl.unlinkSync(reserve);
  syncDir(dir, fsl);
}

/** Give back the receipt reserve (the receipt is published another way, or never will be). */
export function dropReserve(dir: string, records: FinalRecords, fsl: FsLayer = nodeFs): void {
  if (!records.receiptReserved) return;
  records.receiptReserved = false;
  try {
    fsl.unlinkSync(path.join(dir, RECEIPT_RESERVE));
  } catch {
    // read-only: it stays, and recovery or rm removes it with the capture
  }
}

export function closeFinalRecords(records: FinalRecords, fsl: FsLayer = nodeFs): void {
  if (records.exitFd === null) return;
  try {
    fsl.closeSync(records.exitFd);
  } catch {
    // already closed
  }
  records.exitFd = null;
}

/**
 * Where the exit record goes when the capture directory cannot take it: a private
 * per-user directory outside any root (`$XDG_RUNTIME_DIR/spool-exit`, else
 * `<tmpdir>/spool-<uid>/exit`), named by a hash of the root and the capture id.
 */
export function exitFallbackPath(root: string, captureId: string): string {
  const runtime = process.env.XDG_RUNTIME_DIR;
  const base =
    runtime && path.isAbsolute(runtime)
      ? path.join(runtime, "spool")
      : path.join(os.tmpdir(), `spool-${process.getuid?.() ?? "user"}`);
  const key = createHash("sha256").update(path.resolve(root)).digest("hex").slice(0, 16);
  return path.join(base, "exit", `${key}-${captureId}.json`);
}

/** The record padded with spaces to the reserved size, or null if it cannot fit. */
function padded(json: string): Buffer | null {
  const body = Buffer.from(json);
  if (body.byteLength > EXIT_RECORD_BYTES) return null;
  const data = Buffer.alloc(EXIT_RECORD_BYTES, 0x20);
  body.copy(data);
  return data;
}

function fillWith(fd: number, bytes: number, fsl: FsLayer): void {
  const block = Buffer.alloc(Math.min(bytes, 64 * 1024), 0x20);
  let left = bytes;
  while (left > 0) {
    const n = fsl.writeSync(fd, block, 0, Math.min(left, block.byteLength));
    if (n <= 0) throw Object.assign(new Error("reserve made no progress"), { code: "EIO" });
    left -= n;
  }
}

/**
 * Overwrite from offset 0 (the reserves are written only through here). Positional, so
 * through node's fs: the fs layer's injected faults do not reach it.
 */
function writeAt(fd: number, data: Uint8Array): void {
  let done = 0;
  while (done < data.byteLength) {
    const n = fs.writeSync(fd, data, done, data.byteLength - done, done);
    if (n <= 0) throw Object.assign(new Error("write made no progress"), { code: "EIO" });
    done += n;
  }
}
