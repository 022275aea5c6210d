/**
 * A JSON value cut to a byte budget with its shape kept: every string longer than a limit
 * is clipped (on a character boundary) and ends with a marker saying how much is left, and
 * arrays keep their first items. The limits shrink until the value fits. `mcp-proxy` uses
 * it on `structuredContent`, so that a result replaced by its receipt still matches the
 * tool's output schema (clients check it) for the common shapes (`{content: string}`).
 */
import { clipUtf8 } from "./result-budget.js";

/**
 * @example
 * boundJson({ content: "x".repeat(100000) }, 1024, "capture ID"); // { content: "xxx…[spool: 99… B more in capture ID]" }
 */
export function boundJson(value: unknown, budget: number, where: string): unknown {
  if (size(value) <= budget) return value;
  let strings = Math.max(16, budget);
  let items = 1024;
  for (let round = 0; round < 64; round++) {
    const bounded = clipJsonValue(value, strings, items, where);
    if (size(bounded) <= budget || (strings <= 16 && items <= 1)) return bounded;
    strings = Math.max(16, Math.floor(strings / 2));
    items = Math.max(1, Math.floor(items / 2));
  }
  return clipJsonValue(value, 16, 1, where);
}

function clipJsonValue(value: unknown, strings: number, items: number, where: string): unknown {
  if (typeof value === "string") {
    const bytes = Buffer.from(value);
    if (bytes.length <= strings) return value;
    const kept = clipUtf8(bytes, strings);
    return `${kept.toString("utf8")}…[spool: ${bytes.length - kept.length} B more in ${where}]`;
  }
  if (Array.isArray(value))
    return value.slice(0, items).map((v) => clipJsonValue(v, strings, items, where));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, clipJsonValue(v, strings, items, where)]),
    );
  }
  return value;
}

const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? "");
