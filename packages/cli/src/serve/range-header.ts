/**
 * The HTTP `Range` header of a stream read (RFC 9110 §14): one `bytes=` range, either
 * `A-B`, `A-` or the suffix `-N`, against the stream's readable length. More than one
 * range is refused (`multiple`) rather than answered with a multipart body; a range that
 * starts at or past the readable end is `unsatisfiable` (416). Numbers are digits only and
 * read exactly whatever their size (`bytes=9007199254740993-` starts past any stream, it
 * is not rounded, and never read as "no range"); one longer than {@link RANGE_DIGITS}
 * digits is `overlong` (416).
 *
 * @example
 * ```ts
 * import { parseRange } from "./range-header.js";
 * parseRange("bytes=0-99", 1000); // { kind: "range", start: 0, end: 100 }
 * parseRange("bytes=-10", 1000); // { kind: "range", start: 990, end: 1000 }
 * parseRange("bytes=0-1,5-9", 1000); // { kind: "multiple" }
 * ```
 */

/** Most digits of one range number (far past any length; the header is bounded anyway). */
export const RANGE_DIGITS = 64;

export type RangeChoice =
  /** `[start, end)`, non-empty, within the readable length. */
  | { readonly kind: "range"; readonly start: number; readonly end: number }
  | { readonly kind: "multiple" }
  | { readonly kind: "unsatisfiable" }
  /** A number longer than {@link RANGE_DIGITS} digits: refused (416), never read as another. */
  | { readonly kind: "overlong" }
  /** Not a bytes range we understand: answered as if there were no `Range` (RFC 9110). */
  | { readonly kind: "ignored" };

export function parseRange(header: string, length: number): RangeChoice {
  const m = /^bytes=(.*)$/i.exec(header.trim());
  if (!m) return { kind: "ignored" };
  const specs = (m[1] as string).split(",");
  if (specs.length > 1) return { kind: "multiple" };
  const spec = /^\s*(\d*)-(\d*)\s*$/.exec(specs[0] as string);
  if (!spec || (spec[1] === "" && spec[2] === "")) return { kind: "ignored" };
  const first = spec[1] as string;
  const second = spec[2] as string;
  if (first.length > RANGE_DIGITS || second.length > RANGE_DIGITS) return { kind: "overlong" };
  // Compared as BigInt: a number past 2^53 is exactly itself, never rounded to a small one.
  const total = BigInt(length);
  if (first === "") {
    const suffix = BigInt(second);
    if (suffix === 0n || length === 0) return { kind: "unsatisfiable" };
    return { kind: "range", start: suffix >= total ? 0 : length - Number(suffix), end: length };
  }
  const start = BigInt(first);
  const last = second === "" ? null : BigInt(second);
  if (last !== null && last < start) return { kind: "ignored" };
  if (start >= total) return { kind: "unsatisfiable" };
  const end = last === null || last + 1n >= total ? length : Number(last) + 1;
  return { kind: "range", start: Number(start), end };
}
