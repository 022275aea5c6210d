/**
 * The access log of `spool serve --access-log FILE|-`: one JSON line per request, written
 * when its answer ends (or the client goes): `time` (when the request came), `method`,
 * `path` (the target before any `?`, at most 512 characters), `query` (the names of its
 * parameters, never their values: a grep pattern can be a secret's shape), `status`,
 * `bytes` (of the body handed to the connection), `ms`, and `complete: false` when the
 * connection closed before the answer was all sent. No header is ever logged, so neither
 * the bearer token nor a cookie can reach it.
 *
 * A file is created `0600` whatever the umask (exclusive create), or appended to when it
 * is already a private (`0600`-ish: nothing for group or others) regular file of ours with
 * one link; a link, a FIFO or anything else is refused before the server listens.
 *
 * @example
 * ```ts
 * import { openAccessLog } from "./access-log.js";
 * const log = openAccessLog("-", { stdout: (line) => process.stdout.write(line), onError: () => {} });
 * log.record({ time: 0, method: "GET", target: "/api/v1/captures?x=1", status: 200, bytes: 2, ms: 1, complete: true });
 * // {"time":"1970-01-01T00:00:00.000Z","method":"GET","path":"/api/v1/captures","query":["x"],"status":200,"bytes":2,"ms":1,"complete":true}
 * await log.close();
 * ```
 */
import * as fs from "node:fs";
import { SpoolError } from "@spool/core";

/** One request, as the listener saw it (`target` is the raw request target). */
export interface AccessEntry {
  /** When the request came, in ms since the epoch. */
  readonly time: number;
  readonly method: string;
  readonly target: string;
  readonly status: number;
  readonly bytes: number;
  readonly ms: number;
  readonly complete: boolean;
}

export interface AccessLog {
  /** Append the entry's line (without waiting for it to be written). */
  record(entry: AccessEntry): void;
  /** Write what is pending and close the file. */
  close(): Promise<void>;
}

export interface AccessLogOptions {
  /** Where `-` writes. */
  readonly stdout: (text: string) => void;
  /** The file could not be written any more (the log stops; the server goes on). */
  readonly onError: (error: NodeJS.ErrnoException) => void;
}

/** Longest path logged. */
const PATH_CHARS = 512;

/** Open `target` (`-` is stdout) for the access log; refused as `SPOOL_E_UNSAFE_PATH`/`SPOOL_E_STORAGE`. */
export function openAccessLog(target: string, options: AccessLogOptions): AccessLog {
  if (target === "-") {
    return {
      record: (entry) => options.stdout(accessLine(entry)),
      close: async () => {},
    };
  }
  const out = fs.createWriteStream("", { fd: openPrivate(target), flags: "a" });
  let failed = false;
  out.on("error", (error: NodeJS.ErrnoException) => {
    if (failed) return;
    failed = true;
    options.onError(error);
  });
  return {
    record(entry) {
      if (!failed) out.write(accessLine(entry));
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (out.closed) resolve();
        else out.end(() => resolve());
        out.once("close", () => resolve());
      }),
  };
}

/** The line of one entry: JSON, so any byte of a refused target is escaped. */
export function accessLine(entry: AccessEntry): string {
  const at = entry.target.indexOf("?");
  const path = (at === -1 ? entry.target : entry.target.slice(0, at)).slice(0, PATH_CHARS);
  const query = at === -1 ? [] : queryNames(entry.target.slice(at + 1));
  return `${JSON.stringify({
    time: new Date(entry.time).toISOString(),
    method: entry.method,
    path,
    query,
    status: entry.status,
    bytes: entry.bytes,
    ms: Math.round(entry.ms),
    complete: entry.complete,
  })}\n`;
}

/** The parameter names of a query string (at most 16, each at most 64 characters). */
function queryNames(query: string): string[] {
  const names = new Set<string>();
  for (const name of new URLSearchParams(query).keys()) {
    if (names.size >= 16) break;
    names.add(name.slice(0, 64));
  }
  return [...names];
}

/** A descriptor to append to: a new `0600` file, or a private regular file of ours. */
function openPrivate(file: string): number {
  const { O_WRONLY, O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
  const flags = O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK;
  let fd: number;
  let created = true;
  try {
    fd = fs.openSync(file, flags | O_CREAT | O_EXCL, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw cannotOpen(error);
    created = false;
    try {
      fd = fs.openSync(file, flags);
    } catch (again) {
      throw cannotOpen(again);
    }
  }
  try {
    // Made 0600 whatever the umask (it may have left it 0400, or less).
    if (created) fs.fchmodSync(fd, 0o600);
    const st = fs.fstatSync(fd);
    const ours = typeof process.getuid !== "function" || st.uid === process.getuid();
    if (!st.isFile() || !ours || (st.mode & 0o077) !== 0 || st.nlink !== 1) {
      throw new SpoolError(
        "SPOOL_E_UNSAFE_PATH",
        "serve",
        "--access-log must be a new file or a private (0600) regular file of ours with one link",
      );
    }
    return fd;
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

function cannotOpen(error: unknown): SpoolError {
  const code = (error as NodeJS.ErrnoException).code ?? "EIO";
  return new SpoolError(
    code === "ELOOP" || code === "ENXIO" ? "SPOOL_E_UNSAFE_PATH" : "SPOOL_E_STORAGE",
    "serve",
    code === "ELOOP"
      ? "--access-log must not be a symbolic link"
      : `cannot open --access-log (${code})`,
    { cause: error },
  );
}
