/**
 * `spool grep REF PATTERN [--stream S] [--max N] [--json]`: a bounded streaming scan of a
 * stream's committed bytes for a JavaScript regular expression, line by line, printing
 * `LINE:OFFSET:TEXT` for each match (OFFSET is the byte offset of the line, usable with
 * `read --offset`). Memory stays bounded: a line longer than 64 KiB is matched on its
 * first 64 KiB. Exit 0 with a match, 1 without, like grep.
 */
import { parseArgs, usageError } from "./args.js";
import { viewCapture } from "./capture-view.js";
import { openCommitted } from "./committed-reader.js";
import type { Io } from "./io.js";
import { chosenStream, locateCapture, STREAM_OPTION } from "./locate-capture.js";

/** Longest line prefix kept for matching. */
export const GREP_LINE_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

export interface GrepMatch {
  line: number;
  offset: number;
  text: string;
}

export async function grepCommand(argv: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(
    argv,
    {
      root: { kind: "string" },
      json: { kind: "flag" },
      stream: STREAM_OPTION,
      max: { kind: "count" },
      "ignore-case": { kind: "flag" },
    },
    { i: "ignore-case" },
  );
  const pattern = parsed.positionals[1];
  if (pattern === undefined) throw usageError("missing PATTERN (spool grep REF PATTERN)");
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, parsed.options["ignore-case"] ? "i" : "");
  } catch (error) {
    throw usageError(`PATTERN is not a valid regular expression: ${(error as Error).message}`);
  }
  const max = (parsed.options.max as number | undefined) ?? 100;
  const located = locateCapture(parsed, io, 1);
  const stream = chosenStream(parsed, located);
  const reader = openCommitted(viewCapture(located.dir), stream);
  const json = parsed.options.json === true;
  let found = 0;
  const emit = (match: GrepMatch) => {
    found++;
    io.stdout(
      json ? `${JSON.stringify(match)}\n` : `${match.line}:${match.offset}:${match.text}\n`,
    );
  };
  try {
    const { end } = reader.span(0, reader.committed);
    let line = 1;
    let lineStart = 0;
    let parts: Buffer[] = [];
    let kept = 0;
    const test = () => {
      const text = Buffer.concat(parts).toString("utf8");
      if (regex.test(text)) emit({ line, offset: lineStart, text });
    };
    let at = 0;
    reader.pipe(0, end, (chunk) => {
      let from = 0;
      while (found < max) {
        const nl = chunk.indexOf(NEWLINE, from);
        const stop = nl === -1 ? chunk.length : nl;
        if (kept < GREP_LINE_BYTES) {
          const piece = chunk.subarray(from, Math.min(stop, from + GREP_LINE_BYTES - kept));
          parts.push(piece);
          kept += piece.length;
        }
        if (nl === -1) break;
        test();
        line++;
        lineStart = at + nl + 1;
        parts = [];
        kept = 0;
        from = nl + 1;
      }
      at += chunk.length;
      return found < max;
    });
    if (found < max && kept > 0) test(); // a last line without a newline
  } finally {
    reader.close();
  }
  return found > 0 ? 0 : 1;
}
