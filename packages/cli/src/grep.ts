/**
 * `spool grep REF PATTERN [--stream S] [--max N] [-i] [-o] [--max-columns N] [--json]`:
 * a bounded streaming scan of a stream's committed bytes for a regular expression in
 * linear time (`grep-pattern.ts`: RE2 syntax), line by line, in O(window) memory whatever the line lengths (see
 * `line-windows.ts`: a match up to 4 KiB long is found anywhere, even deep inside a
 * 2 MiB line). Exit 0 with a match, 1 without, like grep.
 *
 * - Default: `LINE:OFFSET:TEXT` per matching line, OFFSET the byte offset of the line
 *   (usable with `read --offset`). A line longer than `--max-columns` bytes (default
 *   2048) is shown as that many bytes around its first match, between exact markers:
 *   `LINE:OFFSET:[… B bytes] TEXT [… A bytes]` (B bytes of the line before TEXT, A after),
 *   so one match in a huge line never floods the reader.
 * - `-o`/`--only-matching`: `LINE:OFFSET:MATCH` per match, OFFSET the byte offset of the
 *   match itself (like GNU `grep -bo`); `--max` then counts matches.
 * - `--json`: one object per line/match: `{line, offset, text}` plus `lineOffset` (with
 *   `-o`) or `textOffset` and `lineBytes` (without).
 */
import { type CommandInput, usageError } from "./args.js";
import type { GREP } from "./commands.js";
import { compileGrepPattern } from "./grep-pattern.js";
import { createGrepScan, plainMatch } from "./grep-scan.js";
import type { Io } from "./io.js";
import { jsonText } from "./json-text.js";
import { chosenStream, locateCapture } from "./locate-capture.js";

export {
  GREP_MAX_COLUMNS,
  GREP_OVERLAP_BYTES,
  GREP_WINDOW_BYTES,
  type GrepMatch,
} from "./grep-scan.js";

export async function grepCommand(parsed: CommandInput<typeof GREP>, io: Io): Promise<number> {
  const pattern = parsed.positionals[1];
  if (pattern === undefined) throw usageError("missing PATTERN (spool grep REF PATTERN)");
  const regex = compileGrepPattern(pattern, parsed.options["ignore-case"]);
  const max = parsed.options.max;
  const columns = parsed.options["max-columns"];
  if (columns < 1) throw usageError("--max-columns must be at least 1");
  const onlyMatching = parsed.options["only-matching"];
  const json = parsed.options.json;
  const located = await locateCapture(parsed, io, 1);
  const stream = chosenStream(parsed, located);
  const { store } = located;
  const reader = await store.openStream(await store.state(located.captureId), stream);

  const scan = createGrepScan(
    { pattern: regex, max, onlyMatching, columns, from: parsed.options.from },
    (match) => {
      io.stdout(json ? `${jsonText(match)}\n` : `${plainMatch(match)}\n`);
    },
  );
  try {
    const { end } = await reader.span(0, reader.committed);
    for await (const chunk of reader.chunks(0, end)) if (!scan.push(chunk)) break;
    scan.end();
  } finally {
    await reader.close();
  }
  return scan.found > 0 ? 0 : 1;
}
