/**
 * Opening a file spool reads back (receipts, `live.json`, `owner.json`, `job.json`,
 * cursors, stream files, line indexes): only a regular file of this user with one link.
 * The open is `O_NOFOLLOW | O_NONBLOCK` (a link is refused, a FIFO planted in a capture
 * directory is opened without waiting for a writer), then `fstat` decides before a byte is
 * read:
 *
 * - not a regular file (a FIFO, socket, device, directory): refused;
 * - owned by another user: refused (their bytes are not ours to serve, or to trust);
 * - more than one link: refused, unless the other name is the same file's own transitional
 *   name beside it (`stdout.live` while it is being linked to `stdout.txt`, the
 *   `.receipt.json.<random>.tmp` it was published from), so a hard link planted to a file
 *   elsewhere is never served.
 *
 * Refusals are `SPOOL_E_UNSAFE_PATH` with the file's name and what it is; a missing file is
 * `null`, for the caller to treat as not (yet) there.
 *
 * @example
 * ```ts
 * import { openPrivateFile } from "@spool/sinks";
 * const fd = openPrivateFile("/abs/root/tool-outputs/AAAAAAAAAAAAAAAAAAAAAAAA/receipt.json");
 * ```
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SpoolError } from "@spool/core/errors";
import { describeEntry } from "./storage.js";

const COMPONENT = "storage";
const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
/** The names a stream file has over its life. */
const STREAM_NAME = /^(stdout|stderr)\.(live|txt|bin)$/;

/**
 * Open `file` read-only if it is a regular file of ours with one link (see above); null
 * when nothing is there. Throws `SPOOL_E_UNSAFE_PATH` for anything else.
 */
export function openPrivateFile(file: string): number | null {
  let fd: number;
  try {
    fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    if (code === "ELOOP") throw unsafe(`${shownName(file)} is a symbolic link; refusing it`);
    throw new SpoolError(
      "SPOOL_E_STORAGE",
      COMPONENT,
      `cannot open ${shownName(file)} (${code ?? "EIO"})`,
      {
        cause: error,
      },
    );
  }
  try {
    checkPrivate(file, fs.fstatSync(fd));
    return fd;
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

/** Throws unless `st` (of `file`) is a regular file of ours with one link of its own. */
export function checkPrivate(file: string, st: fs.Stats): void {
  if (!st.isFile())
    throw unsafe(`${shownName(file)} is ${describeEntry(st)}, not a regular file; refusing it`);
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) {
    throw unsafe(`${shownName(file)} is owned by another user (uid ${st.uid}); refusing it`);
  }
  if (st.nlink > 1 && !(st.nlink === 2 && ownSecondName(file, st))) {
    throw unsafe(
      `${shownName(file)} has ${st.nlink} links (a hard link to a file elsewhere?); refusing it`,
    );
  }
}

/** Whether the one other link of `file` is its own transitional name in the same directory. */
function ownSecondName(file: string, st: fs.Stats): boolean {
  const dir = path.dirname(file);
  const name = path.basename(file);
  const stream = STREAM_NAME.exec(name)?.[1];
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return false;
  }
  return names.some((other) => {
    if (other === name) return false;
    const sibling = stream
      ? STREAM_NAME.exec(other)?.[1] === stream
      : other.startsWith(`.${name}.`) && other.endsWith(".tmp");
    if (!sibling) return false;
    try {
      const o = fs.lstatSync(path.join(dir, other));
      return o.isFile() && o.ino === st.ino && o.dev === st.dev;
    } catch {
      return false;
    }
  });
}

/** A file's name as errors show it: the capture directory and the name. */
function shownName(file: string): string {
  return path.join(path.basename(path.dirname(file)), path.basename(file));
}

function unsafe(message: string): SpoolError {
  return new SpoolError("SPOOL_E_UNSAFE_PATH", COMPONENT, message);
}
