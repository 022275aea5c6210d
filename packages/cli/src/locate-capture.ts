/**
 * The `REF` argument of the job commands: the root (`--root`, `$SPOOL_ROOT`, default),
 * exactly one REF, resolved through the root's `CaptureStore` (`store-choice.ts`: the
 * file store unless `Io.openStore` says otherwise; every reader goes through that
 * contract, never the file layout) to a capture id and the stream the REF names.
 * Looking never creates the root or anything in it.
 */
import type { CaptureStore, StoreRef, StreamName } from "@spool/core";
import { type ParsedCommand, shown, usageError } from "./args.js";
import type { Io } from "./io.js";
import { openStore } from "./store-choice.js";

/** A resolved REF and the store it was resolved in. */
export interface Located extends StoreRef {
  readonly store: CaptureStore;
}

/** The options every REF command has. */
type RootOptions = { readonly root: string | undefined };

/**
 * Resolve the first positional argument as a REF (allowing `extraPositionals` more).
 * Throws `SPOOL_E_USAGE` or one of the `SPOOL_E_REF_*` codes (exit 64).
 */
export async function locateCapture(
  parsed: ParsedCommand<RootOptions>,
  io: Io,
  extraPositionals = 0,
): Promise<Located> {
  if (parsed.rest !== null) throw usageError("unexpected --");
  const [ref, ...more] = parsed.positionals;
  if (ref === undefined) throw usageError("missing REF (a captureId, callId or ref)");
  if (more.length > extraPositionals)
    throw usageError(`unexpected argument "${shown(more[extraPositionals]!)}"`);
  const store = openStore(io, parsed.options.root);
  return { ...(await store.resolve(ref)), store };
}

/** The store of a command that takes no argument but options (`ls`, `recover`). */
export function locateStore(parsed: ParsedCommand<RootOptions>, io: Io): CaptureStore {
  if (parsed.positionals.length > 0 || parsed.rest !== null)
    throw usageError(`unexpected argument "${shown(parsed.positionals[0] ?? "--")}"`);
  return openStore(io, parsed.options.root);
}

/** `--stream S`, else the stream the ref names, else stdout. */
export function chosenStream(
  parsed: ParsedCommand<{ readonly stream: StreamName | undefined }>,
  located: Pick<StoreRef, "stream">,
): StreamName {
  return parsed.options.stream ?? located.stream ?? "stdout";
}
