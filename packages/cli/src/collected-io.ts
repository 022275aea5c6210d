/**
 * An `Io` that keeps what a command prints, so the MCP servers can call the CLI's own
 * command functions (through `Io.invoke`, which `main` supplies) and turn their output into
 * tool results.
 */
import { isSpoolError } from "@spool/core/runtime";
import type { Io } from "./io.js";

/** What one command call printed, and how it ended. */
export interface CommandOutput {
  readonly status: number;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/**
 * Run `spool NAME ARGV…` in this process with its output collected. Typed errors are
 * thrown (the caller turns them into tool errors with their code).
 *
 * @example
 * const out = await collectCommand("status", ["my-call", "--root", root], { cwd, env, invoke: invokeCommand });
 * JSON.parse(out.stdout.toString()).captureId;
 */
export async function collectCommand(
  name: string,
  argv: readonly string[],
  where: Pick<Io, "cwd" | "env" | "stdin" | "invoke">,
): Promise<CommandOutput> {
  const invoke = where.invoke;
  if (invoke === undefined) throw new Error(`spool ${name}: no command runner in this Io`);
  const out: Buffer[] = [];
  let err = "";
  const io: Io = {
    stdout: (text) => out.push(typeof text === "string" ? Buffer.from(text) : Buffer.from(text)),
    stderr: (text) => {
      err += text;
    },
    cwd: where.cwd,
    env: where.env,
    invoke,
    ...(where.stdin ? { stdin: where.stdin } : {}),
  };
  const status = await invoke(name, argv, io);
  return { status, stdout: Buffer.concat(out), stderr: err };
}

/** A failed call's text for the model: the command, the stable code, the message. */
export function errorText(name: string, error: unknown): string {
  if (isSpoolError(error))
    return `spool ${name}: ${error.code}: ${error.message.replace(/^cli: /, "")}`;
  return `spool ${name}: ${(error as Error).message ?? String(error)}`;
}
