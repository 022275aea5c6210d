/**
 * The `REF` argument of the job commands: the root (`--root`, `$SPOOL_ROOT`, default),
 * exactly one REF, resolved by `resolveRef` (`@spool/sinks`) to a verified capture
 * directory. Looking never creates the root or anything in it.
 */
import type { StreamName } from "@spool/core";
import { type ResolvedRef, resolveRef, resolveRoot } from "@spool/sinks";
import { type ParsedCommand, shown, usageError } from "./args.js";
import type { Io } from "./io.js";

/** A resolved REF and the root it was resolved in. */
export interface Located extends ResolvedRef {
  readonly root: string;
}

/**
 * Resolve the first positional argument as a REF (allowing `extraPositionals` more).
 * Throws `SPOOL_E_USAGE` or one of the `SPOOL_E_REF_*` codes (exit 64).
 */
/** The options every REF command has. */
type RootOptions = { readonly root: string | undefined };

export function locateCapture(
  parsed: ParsedCommand<RootOptions>,
  io: Io,
  extraPositionals = 0,
): Located {
  if (parsed.rest !== null) throw usageError("unexpected --");
  const [ref, ...more] = parsed.positionals;
  if (ref === undefined) throw usageError("missing REF (a captureId, callId or ref)");
  if (more.length > extraPositionals)
    throw usageError(`unexpected argument "${shown(more[extraPositionals]!)}"`);
  const root = existingRoot(parsed, io);
  return { ...resolveRef(root, ref), root };
}

/** The root of a command that takes no argument but options (`ls`, `recover`). */
export function locateRoot(parsed: ParsedCommand<RootOptions>, io: Io): string {
  if (parsed.positionals.length > 0 || parsed.rest !== null)
    throw usageError(`unexpected argument "${shown(parsed.positionals[0] ?? "--")}"`);
  return existingRoot(parsed, io);
}

/** `--stream S`, else the stream the ref names, else stdout. */
export function chosenStream(
  parsed: ParsedCommand<{ readonly stream: StreamName | undefined }>,
  located: Located,
): StreamName {
  const flag = parsed.options.stream;
  return flag ?? located.stream ?? "stdout";
}

/** `--root`, `$SPOOL_ROOT` or the default, resolved without creating anything. */
function existingRoot(parsed: ParsedCommand<RootOptions>, io: Io): string {
  return resolveRoot({
    flag: parsed.options.root,
    env: io.env,
    create: false,
  });
}
