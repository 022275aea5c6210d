/**
 * Resolve what a user passes as `REF` (SPEC §2, §6): a captureId, a callId, or a
 * root-relative ref (`tool-outputs/<captureId>[/<file>]`), strictly inside
 * `ROOT/tool-outputs`. Absolute paths, `..` or `.` segments, NUL bytes, over-long names,
 * anything that is not a plain name, and any symbolic link on the way are refused with a
 * `SPOOL_E_REF_*` error (the CLI exits 64 on those and changes nothing on disk).
 *
 * @example
 * ```ts
 * import { resolveRef } from "@spool/sinks";
 * declare const root: string; // from resolveRoot
 * const { captureId, dir, file } = resolveRef(root, "tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/stdout.txt");
 * ```
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SpoolError } from "@spool/core/runtime";
import { TOOL_OUTPUTS } from "./storage.js";

const COMPONENT = "refs";
/** Longest REF accepted, in UTF-16 units. */
export const MAX_REF_LENGTH = 1024;
const CAPTURE_ID = /^[A-Za-z0-9_-]{16,64}$/;
const CALL_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** A file inside a capture directory: a plain name, never hidden, never a path. */
const FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,254}$/;

/** Where a REF points. */
export interface ResolvedRef {
  readonly captureId: string;
  /** Absolute path of the capture directory (a real directory, not a link). */
  readonly dir: string;
  /** Absolute path of the named file (a regular file, not a link), or null when the REF names a capture. */
  readonly file: string | null;
}

/**
 * Resolve `ref` against `root` (an absolute root as {@link resolveRoot} returns it).
 * Throws `SPOOL_E_REF_INVALID` (malformed), `SPOOL_E_REF_OUTSIDE_ROOT` (escapes
 * `tool-outputs`, or goes through a link) or `SPOOL_E_REF_NOT_FOUND`.
 */
export function resolveRef(root: string, ref: string): ResolvedRef {
  if (ref.length === 0) throw invalid("an empty REF");
  if (ref.includes("\0")) throw invalid("a REF with a NUL byte");
  if (ref.length > MAX_REF_LENGTH) throw invalid(`a REF longer than ${MAX_REF_LENGTH} characters`);
  const outputs = path.join(root, TOOL_OUTPUTS);

  if (path.isAbsolute(ref) || /^[A-Za-z]:/.test(ref) || ref.startsWith("\\")) {
    throw outside(`absolute path ${clip(ref)}`);
  }
  if (ref === "." || ref === "..") throw outside(`"${ref}"`);
  if (ref.includes("/") || ref.includes("\\")) {
    const parts = ref.split(/[/\\]/);
    if (parts.some((p) => p === ".." || p === "." || p === "")) {
      throw outside(`${clip(ref)} (a REF has no "..", "." or empty segments)`);
    }
    if (parts[0] !== TOOL_OUTPUTS || parts.length > 3) {
      throw outside(`${clip(ref)} (refs look like ${TOOL_OUTPUTS}/<captureId>/<file>)`);
    }
    const id = parts[1]!;
    if (!CAPTURE_ID.test(id)) throw invalid(`"${clip(id)}" is not a capture id`);
    const file = parts[2];
    if (file !== undefined && !FILE_NAME.test(file)) {
      throw invalid(`"${clip(file)}" is not a spool file name`);
    }
    return locate(outputs, id, file ?? null);
  }
  if (CAPTURE_ID.test(ref) && entry(path.join(outputs, ref)) !== null)
    return locate(outputs, ref, null);
  if (!CALL_ID.test(ref))
    throw invalid(`"${clip(ref)}" is neither a capture id, a call id nor a ref`);
  const byCall = findByCallId(outputs, ref);
  if (byCall === null) throw notFound(`no capture with id or call id "${clip(ref)}"`);
  return locate(outputs, byCall, null);
}

function locate(outputs: string, captureId: string, file: string | null): ResolvedRef {
  requireDir(outputs, TOOL_OUTPUTS);
  const dir = path.join(outputs, captureId);
  requireDir(dir, `${TOOL_OUTPUTS}/${captureId}`);
  if (file === null) return { captureId, dir, file: null };
  const target = path.join(dir, file);
  const st = entry(target);
  if (st === null) throw notFound(`no ${TOOL_OUTPUTS}/${captureId}/${file}`);
  if (st.isSymbolicLink()) throw outside(`${TOOL_OUTPUTS}/${captureId}/${file} is a symbolic link`);
  if (!st.isFile()) throw invalid(`${TOOL_OUTPUTS}/${captureId}/${file} is not a regular file`);
  return { captureId, dir, file: target };
}

function requireDir(p: string, shown: string): void {
  const st = entry(p);
  if (st === null) throw notFound(`no ${shown}`);
  if (st.isSymbolicLink()) throw outside(`${shown} is a symbolic link`);
  if (!st.isDirectory()) throw invalid(`${shown} is not a directory`);
}

/** The newest capture (by start time in its receipt) carrying `callId`, or null. */
function findByCallId(outputs: string, callId: string): string | null {
  const top = entry(outputs);
  if (top === null) return null;
  if (top.isSymbolicLink() || !top.isDirectory())
    throw outside(`${TOOL_OUTPUTS} is not a real directory`);
  let best: { id: string; at: string } | null = null;
  for (const id of fs.readdirSync(outputs)) {
    if (!CAPTURE_ID.test(id)) continue;
    for (const name of ["receipt.json", "live.json"]) {
      const receipt = readJsonQuietly(path.join(outputs, id, name));
      if (receipt === null) continue;
      if (receipt.callId === callId) {
        const at = typeof receipt.process?.startedAt === "string" ? receipt.process.startedAt : "";
        if (best === null || at > best.at) best = { id, at };
      }
      break;
    }
  }
  return best?.id ?? null;
}

interface ReceiptLike {
  callId?: unknown;
  process?: { startedAt?: unknown };
}

function readJsonQuietly(file: string): ReceiptLike | null {
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile() || st.size > 4 * 1024 * 1024) return null;
    return JSON.parse(fs.readFileSync(file, "utf8")) as ReceiptLike;
  } catch {
    return null;
  }
}

function entry(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw new SpoolError("SPOOL_E_STORAGE", COMPONENT, `cannot inspect ${p} (${code})`, {
      cause: error,
    });
  }
}

function clip(s: string): string {
  const safe = printable(s);
  return safe.length > 60 ? `${safe.slice(0, 57)}...` : safe;
}

function invalid(what: string): SpoolError {
  return new SpoolError("SPOOL_E_REF_INVALID", COMPONENT, `invalid REF: ${what}`);
}

function outside(what: string): SpoolError {
  return new SpoolError(
    "SPOOL_E_REF_OUTSIDE_ROOT",
    COMPONENT,
    `REF outside ${TOOL_OUTPUTS}: ${what}`,
  );
}

function notFound(what: string): SpoolError {
  return new SpoolError("SPOOL_E_REF_NOT_FOUND", COMPONENT, what);
}

/** Control characters shown as "?" so a name cannot drive the terminal. */
function printable(s: string): string {
  let out = "";
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    out += c < 0x20 || c === 0x7f ? "?" : ch;
  }
  return out;
}
