/**
 * The `REF` argument of the job commands: the root (`--root`, `$SPOOL_ROOT`, default),
 * exactly one REF, resolved to a verified capture directory. Looking never creates the
 * root or anything in it.
 */
import type { StreamName } from "@spool/core";
import { resolveRoot } from "@spool/sinks";
import { type Parsed, usageError } from "./args.js";
import type { Io } from "./io.js";
import { type ResolvedRef, resolveRef } from "./resolve-ref.js";

export interface Located extends ResolvedRef {
  readonly root: string;
}

export function locateCapture(parsed: Parsed, io: Io, extraPositionals = 0): Located {
  if (parsed.rest !== null) throw usageError("unexpected --");
  const [ref, ...more] = parsed.positionals;
  if (ref === undefined) throw usageError("missing REF (a captureId, callId or ref)");
  if (more.length > extraPositionals)
    throw usageError(`unexpected argument "${more[extraPositionals]}"`);
  const root = resolveRoot({
    flag: parsed.options.root as string | undefined,
    env: io.env,
    create: false,
  });
  return { ...resolveRef(root, ref), root };
}

/** `--stream S`, else the stream the ref names, else stdout. */
export function chosenStream(parsed: Parsed, located: Located): StreamName {
  const flag = parsed.options.stream as StreamName | undefined;
  return flag ?? located.stream ?? "stdout";
}

export const STREAM_OPTION = { kind: "string", choices: ["stdout", "stderr"] } as const;
