/**
 * Resolve what a user passes as `REF` (SPEC §2, §6): a captureId, a callId (the newest
 * capture carrying it wins), or a root-relative ref (`tool-outputs/<captureId>[/<file>]`),
 * strictly inside `ROOT/tool-outputs`. Absolute paths, `..` or `.` segments, NUL bytes,
 * over-long names, anything that is not a plain name, and a symbolic link at any level
 * (`tool-outputs`, the capture directory, the file) are refused with a `SPOOL_E_REF_*`
 * error; the CLI exits 64 on those. Resolving only looks: it never creates or changes
 * anything.
 *
 * A ref to a stream file names the stream, whatever its file is called now: the launch
 * receipt of a job hands out `stdout.live`, which becomes `stdout.txt` (or `stdout.bin`)
 * when the job ends, and the old ref keeps working.
 *
 * @example
 * ```ts
 * import { resolveRef } from "@spool/sinks";
 * declare const root: string; // from resolveRoot
 * const { captureId, dir, file, stream } = resolveRef(root, "tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/stdout.live");
 * ```
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  CALL_ID_PATTERN,
  CAPTURE_ID_PATTERN,
  printable,
  SpoolError,
  type StreamName,
} from "@spool/core/runtime";
import { readJsonNoFollow } from "../file/json-file.js";
import { TOOL_OUTPUTS } from "../file/storage.js";

const COMPONENT = "refs";
/**
 * Longest REF accepted, in UTF-16 units; longer ones are refused with `SPOOL_E_REF_INVALID`.
 *
 * @category storage
 * @example
 * ```ts
 * import { MAX_REF_LENGTH } from "@spool/sinks";
 * MAX_REF_LENGTH; // 1024
 * ```
 */
export const MAX_REF_LENGTH = 1024;
/** A file inside a capture directory: a plain name, never hidden, never a path. */
const FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,254}$/;
/** The files a stream's bytes live in, over its life (running, then text or binary). */
const STREAM_FILE = /^(stdout|stderr)\.(live|txt|bin)$/;
const STREAM_EXTENSIONS = ["live", "txt", "bin"] as const;

/**
 * Where a REF points ({@link resolveRef}): the capture, its verified directory, the named
 * file (if any) and its stream.
 *
 * @category storage
 * @example
 * ```ts
 * import { resolveRef } from "@spool/sinks";
 * const { captureId, dir, file, stream } = resolveRef("/home/me/.spool", "tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/stdout.txt");
 * ```
 */
export interface ResolvedRef {
  readonly captureId: string;
  /** Absolute path of the capture directory (a real directory, not a link). */
  readonly dir: string;
  /**
   * Absolute path of the named file as it is now (a regular file, not a link), or null
   * when the REF names a capture.
   */
  readonly file: string | null;
  /** The stream a ref to a stream file names, else null. */
  readonly stream: StreamName | null;
}

/**
 * Resolve `ref` (a captureId, a callId, or `tool-outputs/<captureId>[/<file>]`) against
 * `root` (an absolute root as {@link resolveRoot} returns it). Throws
 * `SPOOL_E_REF_INVALID` (malformed), `SPOOL_E_REF_OUTSIDE_ROOT` (escapes `tool-outputs`,
 * or goes through a link) or `SPOOL_E_REF_NOT_FOUND`.
 *
 * @category storage
 * @example
 * ```ts
 * import { resolveRef } from "@spool/sinks";
 * const { dir } = resolveRef("/home/me/.spool", "my-call-id"); // the newest capture with that call id
 * ```
 */
export function resolveRef(root: string, ref: string): ResolvedRef {
  const outputs = path.join(root, TOOL_OUTPUTS);
  const parsed = parseRef(ref);
  if (parsed.kind === "path") return locate(outputs, parsed.captureId, parsed.file);
  const name = parsed.name;
  if (CAPTURE_ID_PATTERN.test(name) && lstatOrNull(path.join(outputs, name)) !== null) {
    return locate(outputs, name, null);
  }
  if (!CALL_ID_PATTERN.test(name)) {
    throw invalid(`"${printableRef(name)}" is neither a capture id, a call id nor a ref`);
  }
  const byCall = findByCallId(outputs, name);
  if (byCall === null) throw notFound(`no capture with id or call id "${printableRef(name)}"`);
  return locate(outputs, byCall, null);
}

/**
 * What a REF says before any storage is looked at ({@link parseRef}): a path under
 * `tool-outputs`, or a bare name.
 *
 * @category storage
 * @example
 * ```ts
 * import { parseRef, type ParsedRef } from "@spool/sinks";
 * const parsed: ParsedRef = parseRef("tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/stderr.txt");
 * if (parsed.kind === "path") parsed.file; // "stderr.txt"
 * ```
 */
export type ParsedRef =
  /** `tool-outputs/<captureId>[/<file>]`: the id and file name are well-formed. */
  | { readonly kind: "path"; readonly captureId: string; readonly file: string | null }
  /** A bare word: a captureId or a callId, decided by looking. */
  | { readonly kind: "name"; readonly name: string };

/**
 * Check the form of `ref` without touching storage: the refusals every store shares
 * (`SPOOL_E_REF_INVALID`: empty, NUL, over-long, malformed id or file name;
 * `SPOOL_E_REF_OUTSIDE_ROOT`: absolute, `..`/`.`/empty segments, not under `tool-outputs`).
 *
 * @category storage
 * @example
 * ```ts
 * import { parseRef } from "@spool/sinks";
 * parseRef("my-call-id"); // { kind: "name", name: "my-call-id" }
 * parseRef("../etc/passwd"); // throws SPOOL_E_REF_OUTSIDE_ROOT
 * ```
 */
export function parseRef(ref: string): ParsedRef {
  if (ref.length === 0) throw invalid("an empty REF");
  if (ref.includes("\0")) throw invalid("a REF with a NUL byte");
  if (ref.length > MAX_REF_LENGTH) throw invalid(`a REF longer than ${MAX_REF_LENGTH} characters`);
  if (path.isAbsolute(ref) || /^[A-Za-z]:/.test(ref) || ref.startsWith("\\")) {
    throw outside(`absolute path ${printableRef(ref)}`);
  }
  if (ref === "." || ref === "..") throw outside(`"${ref}"`);
  if (!ref.includes("/") && !ref.includes("\\")) return { kind: "name", name: ref };
  const parts = ref.split(/[/\\]/);
  if (parts.some((p) => p === ".." || p === "." || p === "")) {
    throw outside(`${printableRef(ref)} (a REF has no "..", "." or empty segments)`);
  }
  if (parts[0] !== TOOL_OUTPUTS || parts.length > 3) {
    throw outside(`${printableRef(ref)} (refs look like ${TOOL_OUTPUTS}/<captureId>/<file>)`);
  }
  const captureId = parts[1]!;
  if (!CAPTURE_ID_PATTERN.test(captureId))
    throw invalid(`"${printableRef(captureId)}" is not a capture id`);
  const file = parts[2];
  if (file !== undefined && !FILE_NAME.test(file)) {
    throw invalid(`"${printableRef(file)}" is not a spool file name`);
  }
  return { kind: "path", captureId, file: file ?? null };
}

/**
 * The stream a stream file's name (`stdout.live`, `stderr.txt`, …) belongs to, else null.
 *
 * @category storage
 * @example
 * ```ts
 * import { streamOfFile } from "@spool/sinks";
 * streamOfFile("stderr.live"); // "stderr"
 * streamOfFile("receipt.json"); // null
 * ```
 */
export function streamOfFile(file: string): StreamName | null {
  return (STREAM_FILE.exec(file)?.[1] as StreamName | undefined) ?? null;
}

/**
 * The verified directory of capture `captureId` under `root` (by the same checks as
 * {@link resolveRef}: a well-formed id, no link at any level). Throws the `SPOOL_E_REF_*` codes.
 *
 * @category storage
 * @example
 * ```ts
 * import { captureDir } from "@spool/sinks";
 * const dir = captureDir("/home/me/.spool", "AAAAAAAAAAAAAAAAAAAAAAAA");
 * ```
 */
export function captureDir(root: string, captureId: string): string {
  if (!CAPTURE_ID_PATTERN.test(captureId))
    throw invalid(`"${printableRef(captureId)}" is not a capture id`);
  return locate(path.join(root, TOOL_OUTPUTS), captureId, null).dir;
}

function locate(outputs: string, captureId: string, file: string | null): ResolvedRef {
  requireDir(outputs, TOOL_OUTPUTS);
  const dir = path.join(outputs, captureId);
  const shownDir = `${TOOL_OUTPUTS}/${captureId}`;
  requireDir(dir, shownDir);
  if (file === null) return { captureId, dir, file: null, stream: null };
  const stream = streamOfFile(file) ?? undefined;
  // A stream file may have been renamed since the ref was handed out: any of its names.
  const candidates = stream
    ? [file, ...STREAM_EXTENSIONS.map((ext) => `${stream}.${ext}`).filter((n) => n !== file)]
    : [file];
  for (const name of candidates) {
    const st = lstatOrNull(path.join(dir, name));
    if (st === null) continue;
    if (st.isSymbolicLink()) throw outside(`${shownDir}/${name} is a symlink; refusing it`);
    if (!st.isFile()) throw invalid(`${shownDir}/${name} is not a regular file`);
    return { captureId, dir, file: path.join(dir, name), stream: stream ?? null };
  }
  throw notFound(`no ${shownDir}/${file}`);
}

function requireDir(p: string, shown: string): void {
  const st = lstatOrNull(p);
  if (st === null) throw notFound(`no ${shown}`);
  if (st.isSymbolicLink()) throw outside(`${shown} is a symlink; refusing it`);
  if (!st.isDirectory()) throw invalid(`${shown} is not a directory`);
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) {
    throw new SpoolError(
      "SPOOL_E_UNSAFE_PATH",
      COMPONENT,
      `${shown} is owned by another user (uid ${st.uid}); refusing it`,
    );
  }
}

/**
 * The newest capture (by start time in its receipt, final else live) carrying `callId`,
 * or null. Links are not followed: a linked capture directory or receipt is passed over.
 */
function findByCallId(outputs: string, callId: string): string | null {
  const top = lstatOrNull(outputs);
  if (top === null) return null;
  if (top.isSymbolicLink() || !top.isDirectory()) {
    throw outside(`${TOOL_OUTPUTS} is a symlink or not a directory; refusing it`);
  }
  let best: { id: string; at: string } | null = null;
  for (const found of fs.readdirSync(outputs, { withFileTypes: true })) {
    if (!found.isDirectory() || !CAPTURE_ID_PATTERN.test(found.name)) continue;
    const receipt = claimOf(path.join(outputs, found.name));
    if (receipt?.callId !== callId) continue;
    const at = typeof receipt.process?.startedAt === "string" ? receipt.process.startedAt : "";
    if (best === null || at > best.at) best = { id: found.name, at };
  }
  return best?.id ?? null;
}

/** What a capture directory's receipt (final, else live) says; nothing when it is unsafe to read. */
function claimOf(dir: string): ReceiptLike | undefined {
  try {
    return (readJsonNoFollow(path.join(dir, "receipt.json")) ??
      readJsonNoFollow(path.join(dir, "live.json"))) as ReceiptLike | undefined;
  } catch {
    return undefined; // a link, FIFO or foreign file in its place: not a capture to match
  }
}

interface ReceiptLike {
  callId?: unknown;
  process?: { startedAt?: unknown };
}

function lstatOrNull(p: string): fs.Stats | null {
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

function printableRef(s: string): string {
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
