/**
 * `spool read REF [--stream S] [--offset N] [--length N] [--lines A:B] [--cursor NAME] [--json]`:
 * print committed bytes of a stream (default stdout), never past what the receipt
 * advertises as committed and never splitting a UTF-8 character. `--lines A:B` (1-based,
 * inclusive) seeks through the sparse line index. `--cursor NAME` starts where that
 * consumer stopped and advances only its own cursor. `--json` frames the bytes with
 * `offset`, `nextOffset`, `committed`, `running`, `eof` (and reads at most 4 MiB unless
 * `--length` says otherwise); without it the bytes go to stdout as they are.
 */
import { type CommandInput, usageError } from "./args.js";
import type { READ } from "./commands.js";
import { checkCursorName } from "./cursor-name.js";
import type { Io } from "./io.js";
import { jsonText } from "./json-text.js";
import { chosenStream, locateCapture } from "./locate-capture.js";

/** Default `--length` with `--json` (the bytes are held in memory to be framed). */
export const JSON_READ_BYTES = 4 * 1024 * 1024;
/** Most `--length` with `--json`. */
const JSON_READ_MAX = 64 * 1024 * 1024;

export async function readCommand(parsed: CommandInput<typeof READ>, io: Io): Promise<number> {
  const o = parsed.options;
  const json = o.json === true;
  const lines = o.lines === undefined ? null : parseLines(o.lines);
  const cursor = o.cursor === undefined ? null : checkCursorName(o.cursor);
  if ([o.offset !== undefined, lines !== null, cursor !== null].filter(Boolean).length > 1) {
    throw usageError("--offset, --lines and --cursor exclude each other");
  }
  if (lines && o.length !== undefined) throw usageError("--lines and --length exclude each other");
  if (json && o.length !== undefined && o.length > JSON_READ_MAX) {
    throw usageError("--length with --json is at most 64MiB");
  }
  const { store, captureId, ...ref } = await locateCapture(parsed, io);
  const stream = chosenStream(parsed, ref);
  const view = await store.state(captureId);
  const running = view.condition === "live";
  const reader = await store.openStream(view, stream);
  try {
    let start: number;
    let end: number;
    if (lines) {
      ({ start, end } = await reader.lineRange(lines.first, lines.last));
      if (json && end - start > JSON_READ_MAX) end = start + JSON_READ_MAX;
      ({ start, end } = await reader.span(start, end - start));
    } else {
      const offset = cursor ? await store.cursors.get(captureId, stream, cursor) : (o.offset ?? 0);
      const length = o.length ?? (json ? JSON_READ_BYTES : Number.MAX_SAFE_INTEGER);
      ({ start, end } = await reader.span(offset, length));
    }
    if (json) {
      const bytes = (await reader.read(start, end - start)).bytes;
      const frame = {
        captureId: view.receipt.captureId,
        stream,
        offset: start,
        nextOffset: end,
        committed: reader.committed,
        running,
        eof: !running && end >= reader.committed,
        ...(reader.binary
          ? { base64: bytes.toString("base64") }
          : { text: bytes.toString("utf8") }),
      };
      io.stdout(`${jsonText(frame)}\n`);
    } else {
      for await (const chunk of reader.chunks(start, end)) io.stdout(chunk);
    }
    if (cursor) await store.cursors.advance(captureId, stream, cursor, end);
    return 0;
  } finally {
    await reader.close();
  }
}

function parseLines(raw: string): { first: number; last: number } {
  const m = /^(\d{1,12}):(\d{1,12})?$/.exec(raw);
  const first = m ? Number(m[1]) : 0;
  const last = m?.[2] !== undefined ? Number(m[2]) : Number.MAX_SAFE_INTEGER;
  if (!m || first < 1 || last < first) {
    throw usageError(
      `--lines takes A:B (1-based, A ≤ B; B may be left out), not "${raw.slice(0, 40)}"`,
    );
  }
  return { first, last };
}
