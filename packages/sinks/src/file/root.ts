/**
 * Where spools live: `--root DIR`, else `$SPOOL_ROOT`, else
 * `${XDG_STATE_HOME:-$HOME/.local/state}/spool/default`. The root as the user gives it is
 * resolved once (state is often kept under a linked home directory); below it,
 * `tool-outputs` and everything inside must be real, private directories.
 *
 * A root is trusted only as ssh's `StrictModes` trusts a home directory: the root and every
 * directory above it (as resolved, and every link on the way as given) is owned by this
 * user or by root, and none is writable by group or others, except a directory with the
 * sticky bit above the root (`/tmp`: others may add entries but not replace ours). A root
 * another user could write in (a shared `0777` directory, or a link to one) is refused with
 * `SPOOL_E_UNSAFE_PATH` before anything in it is read, so a receipt, `job.json` or stream
 * file they forged there never reaches `status`, `read`, `wait`, `ls` or `kill`.
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
import { type FsLayer, nodeFs } from "./fs-layer.js";

/** The sticky bit: others may add entries to such a directory but not remove or rename ours. */
const S_ISVTX = 0o1000;

/**
 * What {@link resolveRoot} chooses from: the `--root` flag, the environment, and whether
 * to create a missing root.
 *
 * @category storage
 * @example
 * ```ts
 * import { resolveRoot, type RootChoice } from "@spool/sinks";
 * const choice: RootChoice = { flag: undefined, env: process.env, create: false };
 * const root = resolveRoot(choice);
 * ```
 */
export interface RootChoice {
  /** The root given explicitly (`--root`); relative paths are resolved against the cwd. @default none */
  readonly flag?: string | undefined;
  /** Where `$SPOOL_ROOT`, `$XDG_STATE_HOME` and `$HOME` are read (usually `process.env`). */
  readonly env: NodeJS.ProcessEnv;
  /** Create the root if missing. @default true */
  readonly create?: boolean;
}

/**
 * The root used when none is given: `$SPOOL_ROOT`, else `$XDG_STATE_HOME/spool/default`
 * (`~/.local/state/spool/default`). Only computes the path; {@link resolveRoot} checks it.
 *
 * @category storage
 * @example
 * ```ts
 * import { defaultRoot } from "@spool/sinks";
 * defaultRoot({ HOME: "/home/me" }); // "/home/me/.local/state/spool/default"
 * ```
 */
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
 * @category storage
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
  let created: string[] = [];
  if (choice.create !== false && !fs.existsSync(absolute)) {
    // Checked before anything is made: a root that would be refused is never created.
    const existing = nearestExisting(absolute);
    assertTrustedChain(absolute, fs.realpathSync(existing), null);
    try {
      created = makePrivateDirs(absolute);
    } catch (error) {
      throw new SpoolError("SPOOL_E_STORAGE", "root", `cannot create root ${absolute}`, {
        cause: error,
      });
    }
  }
  try {
    return checkedRoot(absolute);
  } catch (error) {
    // Refused after all (something changed on the way): what we made goes again.
    for (const dir of created.reverse()) {
      try {
        fs.rmdirSync(dir);
      } catch {
        // not empty, or gone: leave it
      }
    }
    throw error;
  }
}

/** The nearest of `p` and its parents that exists. */
function nearestExisting(p: string): string {
  let at = p;
  while (!fs.existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
  return at;
}

/** The existing root `absolute`, resolved and trusted. */
function checkedRoot(absolute: string): string {
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
  assertTrustedRoot(absolute, real);
  return real;
}

/**
 * Throw `SPOOL_E_UNSAFE_PATH` unless the root `real` (the resolved `given`) and its
 * parents are owned by us or by root and writable by nobody else (see above).
 */
export function assertTrustedRoot(given: string, real: string): void {
  assertTrustedChain(given, real, real);
}

/**
 * The checks of {@link assertTrustedRoot} from `real` up; `root` is the root itself
 * (never trusted for a sticky bit), or null when `real` is an existing parent of a root
 * yet to be made (then every directory checked is a parent).
 */
function assertTrustedChain(given: string, real: string, root: string | null): void {
  const uid = process.getuid?.();
  if (uid === undefined) return; // no owners to check (Windows)
  const refuse = (what: string) =>
    new SpoolError("SPOOL_E_UNSAFE_PATH", "root", `refusing the root ${given}: ${what}`);
  // Links on the way as given: one another user owns could be pointed anywhere.
  for (let p = given; ; p = path.dirname(p)) {
    const st = fs.lstatSync(p, { throwIfNoEntry: false });
    if (st?.isSymbolicLink() && st.uid !== uid && st.uid !== 0) {
      throw refuse(`${p} is a link owned by another user (uid ${st.uid})`);
    }
    if (p === path.dirname(p)) break;
  }
  for (let p = real; ; p = path.dirname(p)) {
    const st = fs.lstatSync(p);
    if (st.uid !== uid && st.uid !== 0) {
      throw refuse(`${p} is owned by another user (uid ${st.uid})`);
    }
    const sticky = (st.mode & S_ISVTX) !== 0 && p !== root;
    if ((st.mode & 0o022) !== 0 && !sticky) {
      const mode = (st.mode & 0o7777).toString(8);
      throw refuse(
        `${p} is writable by ${st.mode & 0o002 ? "others" : "its group"} (mode ${mode})`,
      );
    }
    if (p === path.dirname(p)) break;
  }
}

/**
 * `dir` and its missing parents, each `0700` whatever the umask (a recursive mkdir leaves
 * the parents it makes at the umask's mode: 0000 under umask 777). One another process
 * makes first (captures started together on a new root) is left to the caller's checks,
 * which every existing directory meets: it is not counted as ours.
 *
 * @example
 * ```ts
 * import { makePrivateDirs } from "./root.js"; // internal to @spool/sinks
 * makePrivateDirs("/tmp/a/b/c"); // each one made 0700; returns those it made, outermost first
 * ```
 */
export function makePrivateDirs(dir: string, fsl: FsLayer = nodeFs): string[] {
  const missing: string[] = [];
  for (let at = dir; !fs.existsSync(at); at = path.dirname(at)) missing.unshift(at);
  const made: string[] = [];
  for (const at of missing) {
    try {
      fsl.mkdirSync(at, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw error;
    }
    made.push(at);
  }
  return made;
}
