import { fstatSync, statSync } from "node:fs";
import { isatty } from "node:tty";
import type { CaptureStore } from "@spool/core";

/** What a command may touch of the outside world, injectable for tests. */
export interface Io {
  readonly stdout: (text: string | Uint8Array) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** What `spool capture` reads (default: this process's stdin). */
  readonly stdin?: NodeJS.ReadableStream;
  /**
   * Runs another command in this process (the MCP servers' tools do, through
   * `collectCommand`). `main` supplies it to every command it runs, so a command needs
   * no import of `main` (which loads every command) to call another.
   */
  readonly invoke?: InvokeCommand;
  /**
   * Opens the store the reader commands and MCP tools read captures through, for a
   * `--root` (undefined: none given). @default the file store of the root (`openFileStore`)
   */
  readonly openStore?: OpenStore;
  /**
   * What this process's own descriptors are (`spool run` shows output live on a terminal
   * and passes a file on stdin to its command). Absent, as in the MCP servers' calls: no
   * terminal, and stdin is never passed.
   */
  readonly descriptors?: () => Descriptors;
}

/** What stdin is: `device` is a character device other than a terminal or `/dev/null`. */
export type StdinKind = "file" | "null" | "device" | "pipe" | "terminal" | "closed";

/** Whether stdout and stderr are terminals, and what stdin is. */
export interface Descriptors {
  readonly stdout: boolean;
  readonly stderr: boolean;
  readonly stdin: StdinKind;
}

function stdinKind(): StdinKind {
  try {
    const stat = fstatSync(0);
    if (stat.isFile()) return "file";
    if (stat.isCharacterDevice()) {
      if (isatty(0)) return "terminal";
      return stat.rdev === statSync("/dev/null").rdev ? "null" : "device";
    }
    return "pipe";
  } catch {
    return "closed";
  }
}

/**
 * Open the `CaptureStore` of root `root` (a `--root` value; undefined: `$SPOOL_ROOT` or
 * the default) without creating anything.
 */
export type OpenStore = (root: string | undefined, env: NodeJS.ProcessEnv) => CaptureStore;

/** Run command `name` on `argv` with `io`; resolves to its exit status, throws its typed errors. */
export type InvokeCommand = (name: string, argv: readonly string[], io: Io) => Promise<number>;

export const processIo: Io = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  descriptors: () => ({ stdout: isatty(1), stderr: isatty(2), stdin: stdinKind() }),
};
