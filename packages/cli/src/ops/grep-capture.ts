/**
 * A bounded streaming search of a stream's committed bytes, the one function behind
 * `spool grep` and the MCP `grep` tool: the pattern compiled to a linear-time matcher
 * (`grep-pattern.ts`), the stream fed to the scan (`grep-scan.ts`) in the store's chunks,
 * each result handed to `found` as it is found, stopping after `max`. A binary
 * (`--binary keep`) stream is matched byte for byte, so a line of invalid UTF-8 is found.
 *
 * @example
 * ```ts
 * import { grepCapture } from "./grep-capture.js";
 * declare const store: import("@spool/core").CaptureStore;
 * const { found } = await grepCapture(store, { captureId, stream: "stdout", pattern: "error" }, (m) => console.log(m.line, m.text));
 * ```
 */
import type { CaptureStore, StreamName } from "@spool/core";
import { usageError } from "../args.js";
import { compileGrepPattern } from "../grep-pattern.js";
import { createGrepScan, GREP_MAX_COLUMNS, type GrepMatch } from "../grep-scan.js";

/** What to search for, and where. */
export interface GrepRequest {
  readonly captureId: string;
  readonly stream: StreamName;
  /** A regular expression in RE2 syntax. */
  readonly pattern: string;
  /** @default false */
  readonly ignoreCase?: boolean;
  /** Most results. @default 100 */
  readonly max?: number;
  /** One result per match instead of per line. @default false */
  readonly onlyMatching?: boolean;
  /** Longest text shown of one line (at least 1). @default 2048 */
  readonly columns?: number;
  /** Only results at this byte offset or later. @default 0 */
  readonly from?: number;
}

/** How a search ended. */
export interface GrepResult {
  /** Results found (and handed on). */
  readonly found: number;
}

/** Search a stream, handing each result to `found`; `SPOOL_E_USAGE` for a bad pattern or `columns`. */
export async function grepCapture(
  store: CaptureStore,
  request: GrepRequest,
  found: (match: GrepMatch) => void,
): Promise<GrepResult> {
  // Compiled before the capture is looked up, so a refused pattern is said first.
  const pattern = compileGrepPattern(request.pattern, request.ignoreCase === true);
  const columns = request.columns ?? GREP_MAX_COLUMNS;
  if (columns < 1) throw usageError("--max-columns must be at least 1");
  const reader = await store.openStream(await store.state(request.captureId), request.stream);
  // A binary stream is matched byte for byte (a line of invalid UTF-8 included).
  const binary = reader.binary;
  const scan = createGrepScan(
    {
      pattern: binary
        ? compileGrepPattern(request.pattern, request.ignoreCase === true, { bytes: true })
        : pattern,
      max: request.max ?? 100,
      onlyMatching: request.onlyMatching === true,
      columns,
      from: request.from ?? 0,
      binary,
    },
    found,
  );
  try {
    const { end } = await reader.span(0, reader.committed);
    for await (const chunk of reader.chunks(0, end)) if (!scan.push(chunk)) break;
    scan.end();
  } finally {
    await reader.close();
  }
  return { found: scan.found };
}
