/**
 * Where the reader commands (`status`, `wait`, `read`, `tail`, `grep`, `kill`, `ls`,
 * `recover`, `rm`, `du`, `share`, `token`) and the MCP tools get the `CaptureStore` they
 * reach captures through: `Io.openStore` when the caller gave one (a test with the memory
 * store, an embedder with another backend), else the file store of the root. This is the
 * one place a backend is chosen; nothing else in the reader path knows the file layout.
 *
 * @example
 * ```ts
 * import { openStore } from "./store-choice.js";
 * const store = openStore({ env: process.env }, undefined); // the file store of $SPOOL_ROOT or the default root
 * ```
 */
import type { CaptureStore } from "@spool/core";
import { createFileStore, resolveRoot } from "@spool/sinks";
import type { Io, OpenStore } from "./io.js";

/** The file store of `--root`, `$SPOOL_ROOT` or the default root, resolved without creating it. */
export const openFileStore: OpenStore = (root, env) =>
  createFileStore({ root: resolveRoot({ flag: root, env, create: false }) });

/** The store of `root` as `io` chooses it (`Io.openStore`, else {@link openFileStore}). */
export function openStore(
  io: Pick<Io, "env" | "openStore">,
  root: string | undefined,
): CaptureStore {
  return (io.openStore ?? openFileStore)(root, io.env);
}
