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
 *
 * The search is `ops/grep-capture.ts` (shared with the MCP `grep` tool); this is its CLI face.
 */
import { type CommandInput, usageError } from "./args.js";
import type { GREP } from "./commands.js";
import { plainMatch } from "./grep-scan.js";
import type { Io } from "./io.js";
import { jsonText } from "./json-text.js";
import { chosenStream, locateCapture } from "./locate-capture.js";
import { grepCapture } from "./ops/grep-capture.js";

export {
  GREP_MAX_COLUMNS,
  GREP_OVERLAP_BYTES,
  GREP_WINDOW_BYTES,
  type GrepMatch,
} from "./grep-scan.js";

export async function grepCommand(parsed: CommandInput<typeof GREP>, io: Io): Promise<number> {
  const pattern = parsed.positionals[1];
  if (pattern === undefined) throw usageError("missing PATTERN (spool grep REF PATTERN)");
  const o = parsed.options;
  const { store, captureId, ...ref } = await locateCapture(parsed, io, 1);
  const request = {
    captureId,
    stream: chosenStream(parsed, ref),
    pattern,
    ignoreCase: o["ignore-case"],
    max: o.max,
    onlyMatching: o["only-matching"],
    columns: o["max-columns"],
    from: o.from,
  };
  const { found } = await grepCapture(store, request, (match) => {
    io.stdout(o.json ? `${jsonText(match)}\n` : `${plainMatch(match)}\n`);
  });
  return found > 0 ? 0 : 1;
}
