/**
 * Where spools live: `--root DIR`, else `$SPOOL_ROOT`, else
 * `${XDG_STATE_HOME:-$HOME/.local/state}/spool/default`. The root as the user gives it is
 * resolved once (state is often kept under a linked home directory); below it,
 * `tool-outputs` and everything inside must be real, private directories.
 *
 * @example
 * ```ts
 * import { resolveRoot } from "@spool/sinks";
 * const root = resolveRoot({ flag: "/tmp/my-spools", env: {} }); // created 0700 if missing
 * ```
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SpoolError } from "@spool/core/runtime";

export interface RootChoice {
  readonly flag?: string | undefined;
  readonly env: NodeJS.ProcessEnv;
  /** Create the root if missing. @default true */
  readonly create?: boolean;
}

export function defaultRoot(env: NodeJS.ProcessEnv): string {
  if (env.SPOOL_ROOT) return env.SPOOL_ROOT;
  const state = env.XDG_STATE_HOME || path.join(env.HOME || os.homedir(), ".local", "state");
  return path.join(state, "spool", "default");
}

/**
 * The root to use, resolved once: `flag`, else `$SPOOL_ROOT`, else the XDG default; created
 * 0700 when missing unless `create: false`. Throws `SPOOL_E_USAGE`, `SPOOL_E_STORAGE`,
 * `SPOOL_E_REF_NOT_FOUND` or `SPOOL_E_UNSAFE_PATH`.
 *
 * @example
 * ```ts
 * import { resolveRoot } from "@spool/sinks";
 * const root = resolveRoot({ flag: undefined, env: process.env }); // ~/.local/state/spool/default
 * ```
 */
export function resolveRoot(choice: RootChoice): string {
  const given = choice.flag ?? defaultRoot(choice.env);
  if (given.length === 0 || given.includes("\0")) {
    throw new SpoolError("SPOOL_E_USAGE", "root", "the root must be a non-empty path");
  }
  const absolute = path.resolve(given);
  if (choice.create !== false && !fs.existsSync(absolute)) {
    try {
      fs.mkdirSync(absolute, { recursive: true, mode: 0o700 });
      fs.chmodSync(absolute, 0o700);
    } catch (error) {
      throw new SpoolError("SPOOL_E_STORAGE", "root", `cannot create root ${absolute}`, {
        cause: error,
      });
    }
  }
  let real: string;
  try {
    real = fs.realpathSync(absolute);
  } catch (error) {
    throw new SpoolError("SPOOL_E_REF_NOT_FOUND", "root", `no spool root at ${absolute}`, {
      cause: error,
    });
  }
  if (!fs.statSync(real).isDirectory()) {
    throw new SpoolError("SPOOL_E_UNSAFE_PATH", "root", `${absolute} is not a directory`);
  }
  return real;
}
