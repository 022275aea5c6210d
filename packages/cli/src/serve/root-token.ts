/**
 * Where the root token of `spool serve` and `spool token` comes from: `--token-file FILE`,
 * else `ROOT/serve.token`, created on first use exclusively (`O_EXCL|O_NOFOLLOW`, `0600`
 * whatever the umask, fsynced). A token file is read only when it is a regular file (not
 * a link, FIFO or device) owned by us with no group or other bits, holding one root token.
 * This is start-up work: no request ever reads a file.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { isSpoolError, SpoolError } from "@spool/core";
import { createExclusive, writeFully } from "@spool/sinks";
import { isRootToken, newRootToken } from "./tokens.js";

/** The root token's file name in the root. */
export const ROOT_TOKEN_FILE = "serve.token";
const COMPONENT = "serve-token";
const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

export interface RootTokenChoice {
  readonly root: string;
  /** `--token-file`: read it, never create it. */
  readonly tokenFile?: string | undefined;
  /** Create `ROOT/serve.token` when it is missing (`spool serve` does; `spool token` does not). */
  readonly create: boolean;
}

/** The root token and the file it is in. */
export function loadRootToken(choice: RootTokenChoice): {
  token: string;
  file: string;
  created: boolean;
} {
  if (choice.tokenFile !== undefined) {
    const file = path.resolve(choice.tokenFile);
    return { token: readTokenFile(file), file, created: false };
  }
  const file = path.join(choice.root, ROOT_TOKEN_FILE);
  if (choice.create) {
    const token = newRootToken();
    let fd: number | null = null;
    try {
      fd = createExclusive(file);
      writeFully(fd, Buffer.from(`${token}\n`));
      fs.fsyncSync(fd);
      return { token, file, created: true };
    } catch (error) {
      if (!isSpoolError(error, "SPOOL_E_EXISTS")) throw error;
    } finally {
      if (fd !== null) fs.closeSync(fd);
    }
  }
  return { token: readTokenFile(file), file, created: false };
}

function readTokenFile(file: string): string {
  let fd: number;
  try {
    fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "EIO";
    throw new SpoolError(
      code === "ENOENT"
        ? "SPOOL_E_OPTIONS"
        : code === "ELOOP"
          ? "SPOOL_E_UNSAFE_PATH"
          : "SPOOL_E_STORAGE",
      COMPONENT,
      code === "ENOENT"
        ? `no token file ${path.basename(file)} (start spool serve once, or pass --token-file)`
        : `cannot open token file ${path.basename(file)} (${code})`,
      { cause: error },
    );
  }
  try {
    const st = fs.fstatSync(fd);
    const ours = typeof process.getuid !== "function" || st.uid === process.getuid();
    if (!st.isFile() || !ours || (st.mode & 0o077) !== 0) {
      throw new SpoolError(
        "SPOOL_E_UNSAFE_PATH",
        COMPONENT,
        `token file ${path.basename(file)} must be a regular file of ours with mode 0600`,
      );
    }
    const buffer = Buffer.alloc(256);
    const n = fs.readSync(fd, buffer, 0, buffer.length, 0);
    const token = buffer.subarray(0, n).toString("utf8").trim();
    if (!isRootToken(token)) {
      throw new SpoolError(
        "SPOOL_E_OPTIONS",
        COMPONENT,
        `token file ${path.basename(file)} does not hold a spool-root token`,
      );
    }
    return token;
  } finally {
    fs.closeSync(fd);
  }
}
