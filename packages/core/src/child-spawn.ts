/**
 * Starting a child: without a shell, in a process group of its own (so cancelling reaches
 * its descendants), with both output pipes. The capture takes a {@link SpawnChild} through
 * its options, so tests of the state machine drive a fake child on a manual clock.
 *
 * @example
 * ```ts
 * import { spawnChild } from "@spool/core";
 * const child = spawnChild(
 *   { command: "echo", args: ["hi"], env: process.env, stdin: "ignore" },
 *   { spawned: (pid) => console.log(pid), failed: (e) => console.log(e.code), exited: () => {} },
 * );
 * child.stdout.pipe(process.stdout);
 * ```
 */
import { spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { groupAlive, type ProcessGroup, processStart, signalGroup } from "./process-group.js";

/**
 * What {@link SpawnChild} starts: a command without a shell, its arguments, directory,
 * environment and stdin.
 *
 * @category process
 * @example
 * ```ts
 * import type { SpawnRequest } from "@spool/core";
 * const request: SpawnRequest = { command: "git", args: ["status"], cwd: "/src/app", env: process.env, stdin: "ignore" };
 * ```
 */
export interface SpawnRequest {
  /** The program, run without a shell (looked up on `PATH`). */
  readonly command: string;
  /** Its arguments, passed as they are. */
  readonly args: readonly string[];
  /** Working directory. @default process.cwd() */
  readonly cwd?: string;
  /** The child's whole environment. */
  readonly env: NodeJS.ProcessEnv;
  /** "ignore" gives the child /dev/null. */
  readonly stdin: "ignore" | "inherit";
}

/**
 * Why the child could not be started: the errno code and the system call's name
 * (reported as the receipt's `process.spawnError`).
 *
 * @category process
 * @example
 * ```ts
 * import type { SpawnError } from "@spool/core";
 * const notFound: SpawnError = { code: "ENOENT", syscall: "spawn nosuchcommand" };
 * ```
 */
export interface SpawnError {
  /** The errno code (`ENOENT`: not found, `EACCES`: not executable). */
  readonly code: string;
  /** The system call that failed (`spawn <command>`). */
  readonly syscall: string;
}

/**
 * What a spawned child reports, each at most once: `spawned` then `exited`, or `failed`
 * alone.
 *
 * @category process
 * @example
 * ```ts
 * import type { ChildEvents } from "@spool/core";
 * const events: ChildEvents = {
 *   spawned: (pid) => console.log("pid", pid),
 *   failed: (error) => console.error(error.code),
 *   exited: (code, signal) => console.log("exited", code ?? signal),
 * };
 * ```
 */
export interface ChildEvents {
  /** The child runs, with its pid (null if the platform gave none). */
  spawned(pid: number | null): void;
  /** The child never ran; no `exited` follows. */
  failed(error: SpawnError): void;
  /** The child exited with a code, or was ended by a signal. */
  exited(code: number | null, signal: NodeJS.Signals | null): void;
}

/**
 * A started child as a {@link SpawnChild} returns it: its two output pipes and how to
 * signal its process group. A fake one lets tests drive a capture on a manual clock.
 *
 * @category process
 * @example
 * ```ts
 * import { PassThrough } from "node:stream";
 * import type { ChildHandle } from "@spool/core";
 * const fake: ChildHandle = { stdout: new PassThrough(), stderr: new PassThrough(), signal: () => {} };
 * ```
 */
export interface ChildHandle {
  /** The child's stdout pipe (the capture is its sole reader). */
  readonly stdout: Readable;
  /** The child's stderr pipe. */
  readonly stderr: Readable;
  /**
   * Signal the child's whole process group, also after the child itself exited (its
   * descendants stay in the group), but only while the group is still the one started
   * here (its leader's pid and start time, see `process-group.ts`).
   */
  signal(signal: NodeJS.Signals): void;
  /** The group as started (pgid = the child's pid, and its start time), once spawned. */
  group?(): ProcessGroup | null;
  /** Whether any process of that group is still alive. @default false once exited */
  groupAlive?(): boolean;
}

/**
 * Start a child. `events` are called later, never from inside this call (as Node does):
 * the capture is still being assembled while it runs. A capture's `spawn` option; tests
 * pass a fake.
 *
 * @category process
 * @example
 * ```ts
 * import { PassThrough } from "node:stream";
 * import type { SpawnChild } from "@spool/core";
 * const fakeSpawn: SpawnChild = (_request, events) => {
 *   const stdout = new PassThrough();
 *   const stderr = new PassThrough();
 *   setImmediate(() => { events.spawned(1234); stdout.end("hi\n"); stderr.end(); events.exited(0, null); });
 *   return { stdout, stderr, signal: () => {} };
 * };
 * ```
 */
export type SpawnChild = (request: SpawnRequest, events: ChildEvents) => ChildHandle;

/**
 * The real thing: `child_process.spawn` without a shell, detached into its own process
 * group (so cancelling reaches its descendants). A capture's `spawn` option defaults to it.
 *
 * @category process
 * @example
 * ```ts
 * import { spawnChild } from "@spool/core";
 * const child = spawnChild(
 *   { command: "echo", args: ["hi"], env: process.env, stdin: "ignore" },
 *   { spawned: (pid) => console.log(pid), failed: (e) => console.log(e.code), exited: () => {} },
 * );
 * child.stdout.pipe(process.stdout);
 * ```
 */
export const spawnChild: SpawnChild = (request, events) => {
  const child = spawn(request.command, [...request.args], {
    cwd: request.cwd,
    env: request.env,
    stdio: [request.stdin, "pipe", "pipe"],
    detached: true,
    windowsHide: true,
  });
  let group: ProcessGroup | null = null;
  let spawned = false;
  child.once("spawn", () => {
    spawned = true;
    const pid = child.pid ?? null;
    // Read now, before Node reaps the child: the start time is what makes the group ours.
    if (pid !== null) group = { pgid: pid, leaderStart: processStart(pid) };
    events.spawned(pid);
  });
  child.once("error", (error: NodeJS.ErrnoException) => {
    if (spawned) return; // a kill error after spawn; the exit event follows
    events.failed(spawnErrorOf(error));
  });
  child.once("exit", (code, signal) => events.exited(code, signal));
  return {
    stdout: child.stdout as Readable,
    stderr: child.stderr as Readable,
    signal(signal) {
      if (group === null || signalGroup(group, signal)) return;
      if (child.exitCode !== null || child.signalCode !== null) return;
      try {
        child.kill(signal); // left its group (setsid) but still ours: our own child
      } catch {
        // already gone
      }
    },
    group: () => group,
    groupAlive: () => group !== null && groupAlive(group),
  };
};

/**
 * The errno as fields. Node's `syscall` is "spawn <command>"; only the call's name is
 * kept, since the command line may hold what the label's redaction removes.
 */
function spawnErrorOf(error: NodeJS.ErrnoException): SpawnError {
  return {
    code: error.code ?? "EUNKNOWN",
    syscall: (error.syscall ?? "spawn").split(" ")[0] ?? "spawn",
  };
}
