/**
 * The HTTP `Range` header of a stream read (RFC 9110 §14): one `bytes=` range, either
 * `A-B`, `A-` or the suffix `-N`, against the stream's readable length. More than one
 * range is refused (`multiple`) rather than answered with a multipart body; a range that
 * starts at or past the readable end is `unsatisfiable` (416).
 *
 * @example
 * ```ts
 * import { parseRange } from "./range-header.js";
 * parseRange("bytes=0-99", 1000); // { kind: "range", start: 0, end: 100 }
 * parseRange("bytes=-10", 1000); // { kind: "range", start: 990, end: 1000 }
 * parseRange("bytes=0-1,5-9", 1000); // { kind: "multiple" }
 * ```
 */

export type RangeChoice =
  /** `[start, end)`, non-empty, within the readable length. */
  | { readonly kind: "range"; readonly start: number; readonly end: number }
  | { readonly kind: "multiple" }
  | { readonly kind: "unsatisfiable" }
  /** Not a bytes range we understand: answered as if there were no `Range` (RFC 9110). */
  | { readonly kind: "ignored" };

export function parseRange(header: string, length: number): RangeChoice {
  const m = /^bytes=(.*)$/i.exec(header.trim());
  if (!m) return { kind: "ignored" };
  const specs = (m[1] as string).split(",");
  if (specs.length > 1) return { kind: "multiple" };
  const spec = /^\s*(\d{0,15})-(\d{0,15})\s*$/.exec(specs[0] as string);
  if (!spec || (spec[1] === "" && spec[2] === "")) return { kind: "ignored" };
  if (spec[1] === "") {
    const suffix = Number(spec[2]);
    if (suffix === 0 || length === 0) return { kind: "unsatisfiable" };
    return { kind: "range", start: Math.max(0, length - suffix), end: length };
  }
  const start = Number(spec[1]);
  const last = spec[2] === "" ? Number.MAX_SAFE_INTEGER : Number(spec[2]);
  if (last < start) return { kind: "ignored" };
  if (start >= length) return { kind: "unsatisfiable" };
  return { kind: "range", start, end: Math.min(length, last + 1) };
}
