/**
 * `spool read REF [--stream S] [--offset N] [--length N] [--lines A:B] [--cursor NAME] [--json]`:
 * print committed bytes of a stream (default stdout), never past what the receipt
 * advertises as committed and never splitting a UTF-8 character. `--lines A:B` (1-based,
 * inclusive) seeks through the sparse line index. `--cursor NAME` starts where that
 * consumer stopped and advances only its own cursor. `--json` frames the bytes with
 * `offset`, `nextOffset`, `committed`, `running`, `eof` (and reads at most 4 MiB unless
 * `--length` says otherwise); without it the bytes go to stdout as they are.
 *
 * The reading is `ops/read-capture.ts` (shared with the MCP `read` tool); this is its CLI face.
 */
import { type CommandInput, usageError } from "./args.js";
import type { READ } from "./commands.js";
import { checkCursorName } from "./cursor-name.js";
import type { Io } from "./io.js";
import { jsonText } from "./json-text.js";
import { chosenStream, locateCapture } from "./locate-capture.js";
import {
  parseLineRange,
  pipeCapture,
  type ReadFrom,
  type ReadRequest,
  readCapture,
} from "./ops/read-capture.js";

/** Default `--length` with `--json` (the bytes are held in memory to be framed). */
export const JSON_READ_BYTES = 4 * 1024 * 1024;
/** Most `--length` with `--json`. */
const JSON_READ_MAX = 64 * 1024 * 1024;

export async function readCommand(parsed: CommandInput<typeof READ>, io: Io): Promise<number> {
  const o = parsed.options;
  const json = o.json === true;
  const lines = o.lines === undefined ? null : parseLineRange(o.lines);
  const cursor = o.cursor === undefined ? null : checkCursorName(o.cursor);
  if ([o.offset !== undefined, lines !== null, cursor !== null].filter(Boolean).length > 1) {
    throw usageError("--offset, --lines and --cursor exclude each other");
  }
  if (lines && o.length !== undefined) throw usageError("--lines and --length exclude each other");
  if (json && o.length !== undefined && o.length > JSON_READ_MAX) {
    throw usageError("--length with --json is at most 64MiB");
  }
  const { store, captureId, ...ref } = await locateCapture(parsed, io);
  const from: ReadFrom = lines ? { lines } : cursor ? { cursor } : { offset: o.offset ?? 0 };
  const most = lines ? JSON_READ_MAX : JSON_READ_BYTES;
  const length = o.length ?? (json ? most : undefined);
  const request: ReadRequest = {
    captureId,
    stream: chosenStream(parsed, ref),
    from,
    ...(length === undefined ? {} : { length }),
  };
  if (!json) {
    await pipeCapture(store, request, (chunk) => io.stdout(chunk));
    return 0;
  }
  const { bytes, binary, ...span } = await readCapture(store, request);
  const frame = {
    captureId: span.captureId,
    stream: span.stream,
    offset: span.offset,
    nextOffset: span.nextOffset,
    committed: span.committed,
    running: span.running,
    eof: span.eof,
    ...(binary ? { base64: bytes.toString("base64") } : { text: bytes.toString("utf8") }),
  };
  io.stdout(`${jsonText(frame)}\n`);
  return 0;
}
