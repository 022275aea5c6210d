/**
 * What `spool mcp` lets a client run: argv[0] by `--allow-cmd` and `--deny-cmd`, and the
 * working directory within `--confine-cwd`.
 */
import { realpathSync, statSync } from "node:fs";
import * as path from "node:path";
import { SpoolError } from "@spool/core";
import type { McpServerOptions } from "./tool.js";

/** The directory a command runs in: `asked` resolved, refused outside `--confine-cwd`. */
export function allowedCwd(
  options: McpServerOptions,
  serverCwd: string,
  asked: string | undefined,
): string {
  const base = options.confineCwd ?? serverCwd;
  const wanted = path.resolve(base, asked ?? ".");
  let real: string;
  try {
    real = realpathSync(wanted);
    if (!statSync(real).isDirectory()) throw new Error("not a directory");
  } catch (cause) {
    // Its own error: spawning in a missing directory fails as if the command were missing.
    throw new SpoolError(
      "SPOOL_E_USAGE",
      "mcp",
      `cwd ${JSON.stringify(wanted.slice(0, 200))} is not an existing directory`,
      { cause },
    );
  }
  if (options.confineCwd === null) return wanted;
  const rel = path.relative(options.confineCwd, real);
  if (rel.startsWith("..") || path.isAbsolute(rel)) {
    throw new SpoolError(
      "SPOOL_E_DENIED",
      "mcp",
      "cwd is outside the directory this server is confined to",
    );
  }
  return real;
}

/** Refuse argv[0] by the server's allow and deny lists. */
export function checkCommand(options: McpServerOptions, argv: readonly string[]): void {
  const cmd = argv[0] ?? "";
  if (options.denyCmd.includes(cmd) || options.denyCmd.includes(path.basename(cmd))) {
    throw new SpoolError(
      "SPOOL_E_DENIED",
      "mcp",
      `command ${JSON.stringify(cmd.slice(0, 80))} is denied by --deny-cmd`,
    );
  }
  if (options.allowCmd.length > 0 && !options.allowCmd.includes(cmd)) {
    throw new SpoolError(
      "SPOOL_E_DENIED",
      "mcp",
      `command ${JSON.stringify(cmd.slice(0, 80))} is not in --allow-cmd`,
    );
  }
}
