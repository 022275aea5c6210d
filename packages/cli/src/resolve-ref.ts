/**
 * REF resolution for the commands that read a capture (`status`, `wait`, `read`, `tail`,
 * `grep`, `kill`): a captureId, a callId, or a root-relative ref
 * (`tool-outputs/<id>/<file>`). Anything that resolves outside `ROOT/tool-outputs`, or
 * through a symlink, is refused; nothing here writes.
 *
 * @example
 * ```ts
 * import { resolveRef } from "@spool/cli";
 * const { dir, stream } = resolveRef("/abs/root", "tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/stderr.txt");
 * ```
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SpoolError, type StreamName } from "@spool/core";
import { TOOL_OUTPUTS } from "@spool/sinks";

export interface ResolvedRef {
  readonly captureId: string;
  /** Absolute capture directory (verified: a real directory, not a link). */
  readonly dir: string;
  /** The stream the ref names, or null when it names the capture as a whole. */
  readonly stream: StreamName | null;
}

const COMPONENT = "ref";
const ID = /^[A-Za-z0-9_-]{16,64}$/;
const FILE = /^(stdout|stderr)\.(txt|live|bin|idx)$/;
const CAPTURE_FILES = new Set(["live.json", "receipt.json"]);

export function resolveRef(root: string, ref: string): ResolvedRef {
  if (ref.length === 0 || ref.length > 4096 || ref.includes("\0")) {
    throw new SpoolError(
      "SPOOL_E_REF_INVALID",
      COMPONENT,
      "REF must be a non-empty ref, id or callId",
    );
  }
  const outputs = path.join(root, TOOL_OUTPUTS);
  if (ref.includes("/") || ref === "." || ref === "..") return byPath(outputs, root, ref);
  if (ID.test(ref) && existsAsDir(outputs, ref)) {
    return { captureId: ref, dir: captureDir(outputs, ref), stream: null };
  }
  const byCall = findByCallId(outputs, ref);
  if (byCall) return { captureId: byCall, dir: captureDir(outputs, byCall), stream: null };
  throw notFound(ref);
}

function byPath(outputs: string, root: string, ref: string): ResolvedRef {
  const relative = path.relative(outputs, path.resolve(root, ref));
  if (relative.startsWith("..") || path.isAbsolute(relative) || relative === "") {
    throw new SpoolError(
      "SPOOL_E_REF_OUTSIDE_ROOT",
      COMPONENT,
      `${clip(ref)} is outside ${TOOL_OUTPUTS}/ of the root; refusing it`,
    );
  }
  const [id, file, ...more] = relative.split(path.sep);
  if (
    !id ||
    !ID.test(id) ||
    more.length > 0 ||
    (file && !FILE.test(file) && !CAPTURE_FILES.has(file))
  ) {
    throw new SpoolError(
      "SPOOL_E_REF_INVALID",
      COMPONENT,
      `${clip(ref)} is not a capture ref (tool-outputs/<id>/<stdout|stderr>.<txt|live|bin>)`,
    );
  }
  const dir = captureDir(outputs, id);
  if (file) {
    // The named file may have been renamed since (stdout.live → stdout.txt); only a link is refused.
    let st: fs.Stats | null = null;
    try {
      st = fs.lstatSync(path.join(dir, file));
    } catch {
      st = null;
    }
    if (st?.isSymbolicLink()) throw throughLink(ref);
  }
  const stream = file?.startsWith("stderr.")
    ? "stderr"
    : file?.startsWith("stdout.")
      ? "stdout"
      : null;
  return { captureId: id, dir, stream };
}

/** The verified capture directory: it and `tool-outputs` are real directories, not links. */
function captureDir(outputs: string, id: string): string {
  for (const dir of [outputs, path.join(outputs, id)]) {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(dir);
    } catch {
      throw notFound(id);
    }
    if (st.isSymbolicLink()) throw throughLink(dir);
    if (!st.isDirectory()) throw notFound(id);
  }
  return path.join(outputs, id);
}

function existsAsDir(outputs: string, id: string): boolean {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(path.join(outputs, id));
  } catch {
    return false;
  }
  if (st.isSymbolicLink()) throw throughLink(id);
  return st.isDirectory();
}

/** The newest capture with this callId (a bounded pass over the root's capture directories). */
function findByCallId(outputs: string, callId: string): string | null {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(outputs, { withFileTypes: true });
  } catch {
    return null;
  }
  let best: { id: string; startedAt: string } | null = null;
  for (const entry of entries) {
    if (!entry.isDirectory() || !ID.test(entry.name)) continue;
    const dir = path.join(outputs, entry.name);
    const meta = readJsonNoFollow(dir, "receipt.json") ?? readJsonNoFollow(dir, "live.json");
    if (meta?.callId !== callId) continue;
    const startedAt = String(meta.process?.startedAt ?? "");
    if (!best || startedAt > best.startedAt) best = { id: entry.name, startedAt };
  }
  return best?.id ?? null;
}

interface Meta {
  callId?: unknown;
  process?: { startedAt?: unknown };
}

function readJsonNoFollow(dir: string, name: string): Meta | null {
  try {
    const fd = fs.openSync(path.join(dir, name), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    try {
      return JSON.parse(fs.readFileSync(fd, "utf8")) as Meta;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
}

function notFound(ref: string): SpoolError {
  return new SpoolError("SPOOL_E_REF_NOT_FOUND", COMPONENT, `no capture ${clip(ref)} in this root`);
}

function throughLink(ref: string): SpoolError {
  return new SpoolError(
    "SPOOL_E_REF_OUTSIDE_ROOT",
    COMPONENT,
    `${clip(ref)} goes through a symlink; refusing it`,
  );
}

function clip(s: string): string {
  return JSON.stringify(s.length > 60 ? `${s.slice(0, 57)}...` : s);
}
